import { getOperationAST, GraphQLError, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RateLimits } from '../../auth/rate-limits.ts';
import { RateLimitedError } from '../../domain/errors.ts';
import { rateLimitSubjectOf, type RequestContext } from '../../schema/mutation-wrappers.ts';

/**
 * Per-minute budgets per user, or per address for anonymous clients (`rateLimits`, the instance's). A query or a
 * subscription start costs one; a refused one answers a GraphQL error with `extensions.code =
 * RATE_LIMITED` and `retryAfterS` (HTTP 429 with Retry-After). Each mutation field costs one, counted
 * by the wrapper the schema puts around it (`schema/mutation-wrappers.ts`).
 */
export function useRateLimits(rateLimits: Pick<RateLimits, 'consume'>): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refusal = await admitOperation(rateLimits, args.document, args.operationName, args.contextValue);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = await admitOperation(rateLimits, args.document, args.operationName, args.contextValue);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}

/** Counts a query or a subscription start; the error to answer with when over budget. */
async function admitOperation(
  rateLimits: Pick<RateLimits, 'consume'>,
  document: DocumentNode,
  operationName: string | null | undefined,
  context: RequestContext,
) {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation === 'mutation') return null;
  const limited = await rateLimits.consume('query', rateLimitSubjectOf(context));
  return limited ? rateLimitedError(limited.retryAfterS) : null;
}

function rateLimitedError(retryAfterS: number): GraphQLError {
  const { message, code } = new RateLimitedError(retryAfterS);
  return new GraphQLError(message, {
    extensions: { code, retryAfterS, http: { status: 429, headers: { 'retry-after': String(retryAfterS) } } },
  });
}
