import { wrapOrThrow } from '@pothos/plugin-errors';
import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { serviceUnavailableFor } from '../../db/outage.ts';
import { ServiceUnavailableError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../../schema/context.ts';

// Like the rate limit's wrapper, once per (process-wide) schema. This plugin comes after
// useRateLimits, so its wrapper is the outer one and also answers for a budget check that met the outage.
const answeringSchemas = new WeakSet<GraphQLSchema>();

function answerOutagesOfMutations(schema: GraphQLSchema): void {
  if (answeringSchemas.has(schema)) return;
  answeringSchemas.add(schema);
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve;
    if (!resolve) continue;
    field.resolve = async (source, args, context: GraphQLContext, info) => {
      try {
        return await resolve(source, args, context, info);
      } catch (error) {
        const unavailable = serviceUnavailableFor(error);
        if (!unavailable) throw error;
        context.parley.logger.warn({ err: error, mutation: info.fieldName }, 'a mutation met a database outage');
        return wrapOrThrow(unavailable, [ServiceUnavailableError]);
      }
    };
  }
}

/**
 * A mutation that meets a database outage (unreachable, restarting, a statement or pool timeout)
 * answers the typed `ServiceUnavailableError { retryAfterS }` member of its result union; queries and
 * subscription starts get `extensions.code = SERVICE_UNAVAILABLE` from the error mask instead.
 */
export function useOutageAnswers(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      answerOutagesOfMutations(args.schema);
    },
  };
}
