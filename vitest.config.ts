import { createRequire } from 'node:module';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
// @parley/client from its sources (its `@parley/source` export condition), as tsconfig.json and
// web/vite.config.ts read it, on top of the conditions vitest uses by default (Vite's server ones
// without `module`).
const conditions = ['@parley/source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

export default defineConfig({
  resolve: {
    // graphql-yoga and Pothos load graphql's CommonJS build; so must our sources under vitest, or
    // `instanceof GraphQLError` and printSchema see two copies of graphql.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
    conditions,
  },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/__tests__/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // A worker runs its files one after another in one process: each file no longer pays for a
    // fresh process, its imports and PGlite's WebAssembly compile (about half the suite's time).
    // So nothing a test file leaves in shared modules may be relied on by the next.
    isolate: false,
  },
});
