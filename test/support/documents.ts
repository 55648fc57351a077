import { readFileSync } from 'node:fs';

// The operations the tests drive are written in documents.graphql; `npm run codegen` types them
// into test/gql/operations.ts against the client's generated schema types.
export * from '../gql/operations.ts';

/** The mutations of the committed schema.graphql, sorted: the suites that call each one check against it. */
export function schemaMutations(): string[] {
  const sdl = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  const block = /type Mutation \{([\s\S]*?)\n\}/.exec(sdl)![1]!;
  return [...block.matchAll(/^ {2}(\w+)\(/gm)].map((match) => match[1]!).sort();
}
