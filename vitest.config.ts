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
  },
});
