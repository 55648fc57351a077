import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../generated/pothos-prisma-types.ts';
import { getDatamodel } from '../generated/pothos-prisma-types.ts';
import { UnauthenticatedError } from '../domain/errors.ts';
import type { AuthenticatedContext, GraphQLContext } from './context.ts';
import { MUTATION_WRAPPERS_PLUGIN } from './mutation-wrappers.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean };
  // A field built with t.withAuth({ authenticated: true }) resolves with the viewer known to be signed in.
  AuthContexts: { authenticated: AuthenticatedContext };
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    File: { Input: File; Output: never };
  };
}>({
  // The mutation wrappers first: they are the outermost (see mutation-wrappers.ts).
  plugins: [MUTATION_WRAPPERS_PLUGIN, ScopeAuthPlugin, ErrorsPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({ authenticated: context.viewer !== null }),
    unauthorizedError: (_parent, context) => new UnauthenticatedError(context.viewerRefusal ?? undefined),
  },
  prisma: {
    client: (context) => context.loader,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  errors: {
    directResult: true,
  },
});

export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;
