import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents for clients and for our own tests, generated from the committed schema.graphql.
// The shipped client (packages/client) gets its own output from its own documents, so it carries
// nothing of the server or of the tests; so does the reference web chat (web/), which uses only
// the client package and documents of its own.
const typesConfig = { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', JSON: 'unknown', File: 'File' } };

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**/*'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: typesConfig,
    },
    'packages/client/src/gql/': {
      documents: ['packages/client/src/**/*.ts', '!packages/client/src/gql/**/*'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: typesConfig,
    },
    'web/src/gql/': {
      documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**/*'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: typesConfig,
    },
  },
};

export default config;
