// Prints the GraphQL schema (sorted) to schema.graphql; test/schema-drift.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { schema } from '../src/schema/index.ts';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchema(schema)}\n`);
console.log('schema.graphql written');
