import type { CodegenConfig } from '@graphql-codegen/cli';

// One output of the schema's types and of the operations the client and the web chat share:
// packages/client/src/gql, from the client's own documents (so the shipped package carries nothing
// of the server or of the tests; the web chat imports documents and types from `@parley/client`).
// The tests' own operations are typed into test/gql against those same schema types: only their
// operation types and documents are generated there, not a second copy of the schema.
const typesConfig = { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', JSON: 'unknown', File: 'File' } };

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: {
    'packages/client/src/gql/': {
      documents: ['packages/client/src/**/*.ts', '!packages/client/src/gql/**/*'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: typesConfig,
    },
    'test/gql/operations.ts': {
      documents: ['test/**/*.graphql'],
      plugins: [
        { add: { content: "import type * as Types from '../../packages/client/src/gql/graphql.ts';" } },
        'typescript-operations',
        'typed-document-node',
      ],
      config: { ...typesConfig, namespacedImportName: 'Types', dedupeFragments: true },
    },
  },
};

export default config;
