import { wrapOrThrow } from '@pothos/plugin-errors';
import type { Plugin } from 'graphql-yoga';
import { serviceUnavailableFor } from '../../db/outage.ts';
import { ServiceUnavailableError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../../schema/context.ts';
import { wrapMutationResolvers, type MutationResolverWrapper } from './mutation-resolvers.ts';

// Applied after useRateLimits' wrapper, so it is the outer one and also answers for a budget check
// that met the outage.
const answerOutages: MutationResolverWrapper<GraphQLContext> = (resolve) => async (source, args, context, info) => {
  try {
    return await resolve(source, args, context, info);
  } catch (error) {
    const unavailable = serviceUnavailableFor(error);
    if (!unavailable) throw error;
    context.parley.logger.warn({ err: error, mutation: info.fieldName }, 'a mutation met a database outage');
    return wrapOrThrow(unavailable, [ServiceUnavailableError]);
  }
};

/**
 * A mutation that meets a database outage (unreachable, restarting, a statement or pool timeout)
 * answers the typed `ServiceUnavailableError { retryAfterS }` member of its result union; queries and
 * subscription starts get `extensions.code = SERVICE_UNAVAILABLE` from the error mask instead.
 */
export function useOutageAnswers(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      wrapMutationResolvers(args.schema, answerOutages);
    },
  };
}
