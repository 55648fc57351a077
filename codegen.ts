import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents for clients and for our own tests, generated from the committed schema.graphql.
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**/*'],
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: {
    'test/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', JSON: 'unknown', File: 'File' } },
    },
  },
};

export default config;
