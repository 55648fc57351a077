import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { wrapOrThrow } from '@pothos/plugin-errors';
import type { GraphQLFieldResolver } from 'graphql';
import type { IncomingMessage } from 'node:http';
import type { RateLimitSubject } from '../auth/rate-limits.ts';
import { serviceUnavailableFor } from '../db/outage.ts';
import { RateLimitedError, ServiceUnavailableError } from '../domain/errors.ts';
import type { GraphQLContext } from './context.ts';

/** The GraphQL context with the request Yoga merges into it (HTTP), or a WebSocket's peer address. */
export type RequestContext = GraphQLContext & { req?: IncomingMessage; remoteAddress?: string };

type MutationResolver = GraphQLFieldResolver<unknown, RequestContext>;
type MutationWrapper = (resolve: MutationResolver) => MutationResolver;

/** Whose per-minute budget a request spends: its user's, or its address's when anonymous. */
export function rateLimitSubjectOf(context: RequestContext): RateLimitSubject {
  if (context.viewer) return { userId: context.viewer.id };
  return { address: context.remoteAddress ?? context.req?.socket.remoteAddress ?? 'unknown' };
}

/**
 * A mutation that meets a database outage (unreachable, restarting, a statement or pool timeout)
 * answers the typed `ServiceUnavailableError { retryAfterS }` member of its result union; queries and
 * subscription starts get `extensions.code = SERVICE_UNAVAILABLE` from the error mask instead.
 */
const answerOutages: MutationWrapper = (resolve) => async (source, args, context, info) => {
  try {
    return await resolve(source, args, context, info);
  } catch (error) {
    const unavailable = serviceUnavailableFor(error);
    if (!unavailable) throw error;
    context.logger.warn({ err: error, mutation: info.fieldName }, 'a mutation met a database outage');
    return wrapOrThrow(unavailable, [ServiceUnavailableError]);
  }
};

/**
 * Each mutation field costs one of the per-minute budget, counted before anything of the mutation
 * runs; a refused one answers the typed `RateLimitedError` member of its result union, so a client
 * handles it like any other expected error of that mutation. (Queries and subscription starts are
 * counted by the server's `useRateLimits`.)
 */
const limitMutations: MutationWrapper = (resolve) => async (source, args, context, info) => {
  const limited = await context.services.rateLimits.consume('mutation', rateLimitSubjectOf(context));
  if (limited) return wrapOrThrow(new RateLimitedError(limited.retryAfterS), [RateLimitedError]);
  return resolve(source, args, context, info);
};

/**
 * What every mutation field is wrapped in, the outermost first: the outage answer also answers for a
 * budget check that met the outage, and the budget is counted before the field's own checks.
 */
const MUTATION_WRAPPERS: readonly MutationWrapper[] = [answerOutages, limitMutations];

/**
 * Wraps each mutation field's resolver while the schema is built, so the built schema is never
 * changed. First in the builder's plugin list, it is outside everything the other plugins put
 * around a resolver (scope-auth, errors), so what a wrapper answers takes the path of the field's
 * typed errors.
 */
export class MutationWrappersPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (fieldConfig.kind !== 'Mutation') return resolver;
    return MUTATION_WRAPPERS.reduceRight((inner, wrap) => wrap(inner), resolver as MutationResolver) as typeof resolver;
  }
}

export const MUTATION_WRAPPERS_PLUGIN = 'parleyMutationWrappers';

SchemaBuilder.registerPlugin(MUTATION_WRAPPERS_PLUGIN, MutationWrappersPlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      parleyMutationWrappers: MutationWrappersPlugin<Types>;
    }
  }
}
