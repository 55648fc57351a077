import { wrapOrThrow } from '@pothos/plugin-errors';
import { getOperationAST, GraphQLError, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { IncomingMessage } from 'node:http';
import type { RateLimitSubject } from '../../auth/rate-limits.ts';
import { RateLimitedError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../../schema/context.ts';
import { wrapMutationResolvers, type MutationResolverWrapper } from './mutation-resolvers.ts';

/** The GraphQL context with the request Yoga merges into it (HTTP), or a WebSocket's peer address. */
type RequestContext = GraphQLContext & { req?: IncomingMessage; remoteAddress?: string };

// The budget is counted before anything of the mutation runs.
const limitMutations: MutationResolverWrapper<RequestContext> = (resolve) => async (source, args, context, info) => {
  const limited = await context.parley.rateLimits.consume('mutation', subjectOf(context));
  if (limited) return wrapOrThrow(new RateLimitedError(limited.retryAfterS), [RateLimitedError]);
  return resolve(source, args, context, info);
};

/**
 * Per-minute budgets per user, or per address for anonymous clients (`Parley.rateLimits`). A query or a
 * subscription start costs one; a refused one answers a GraphQL error with `extensions.code =
 * RATE_LIMITED` and `retryAfterS` (HTTP 429 with Retry-After). Each mutation field costs one and a
 * refused one answers the typed `RateLimitedError` member of its result union, so a client handles
 * it like any other expected error of that mutation.
 */
export function useRateLimits(): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      wrapMutationResolvers(args.schema, limitMutations);
      const refusal = await admitOperation(args.document, args.operationName, args.contextValue);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = await admitOperation(args.document, args.operationName, args.contextValue);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}

/** Counts a query or a subscription start; the error to answer with when over budget. */
async function admitOperation(document: DocumentNode, operationName: string | null | undefined, context: RequestContext) {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation === 'mutation') return null;
  const limited = await context.parley.rateLimits.consume('query', subjectOf(context));
  return limited ? rateLimitedError(limited.retryAfterS) : null;
}

function subjectOf(context: RequestContext): RateLimitSubject {
  if (context.viewer) return { userId: context.viewer.id };
  return { address: context.remoteAddress ?? context.req?.socket.remoteAddress ?? 'unknown' };
}

function rateLimitedError(retryAfterS: number): GraphQLError {
  const { message, code } = new RateLimitedError(retryAfterS);
  return new GraphQLError(message, {
    extensions: { code, retryAfterS, http: { status: 429, headers: { 'retry-after': String(retryAfterS) } } },
  });
}
