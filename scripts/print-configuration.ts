// Prints docs/configuration.md; test/architecture/configuration-reference.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { configurationReference } from './configuration-reference.ts';

writeFileSync(new URL('../docs/configuration.md', import.meta.url), configurationReference());
console.log('docs/configuration.md written');
