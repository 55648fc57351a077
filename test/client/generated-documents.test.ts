import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.ts';

// The typed documents are committed; they must be exactly what `npm run codegen` makes of
// schema.graphql and the documents today: the client package's (shared with the web chat) and the tests' operations.
describe('generated documents', () => {
  it('the committed files equal what codegen generates from schema.graphql', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const previous = process.cwd();
    process.chdir(root);
    let outputs: { filename: string; content: string }[];
    try {
      outputs = (await generate({ ...config, silent: true }, false)) as { filename: string; content: string }[];
    } finally {
      process.chdir(previous);
    }
    const files = outputs.map((output) => path.relative(root, path.resolve(root, output.filename))).sort();
    expect(files).toEqual(['packages/client/src/gql/gql.ts', 'packages/client/src/gql/graphql.ts', 'packages/client/src/gql/index.ts', 'test/gql/operations.ts']);
    for (const output of outputs) {
      const committed = readFileSync(path.resolve(root, output.filename), 'utf8');
      expect(committed, `${output.filename} is stale: run \`npm run codegen\` and commit the result`).toBe(output.content);
    }
  });
});
