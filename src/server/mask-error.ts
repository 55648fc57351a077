import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { serviceUnavailableFor } from '../db/outage.ts';
import { DomainError } from '../domain/errors.ts';

/** The error a resolver threw, beneath the GraphQLErrors wrapped around it (by any graphql copy). */
function rootCause(error: unknown): unknown {
  let current = error;
  while (current && typeof current === 'object' && 'originalError' in current && current.originalError) {
    current = current.originalError;
  }
  return current;
}

/** The `extensions.code` the client gets for an error, before or after masking. */
export function clientErrorCode(error: unknown): string {
  const cause = rootCause(error);
  if (cause instanceof DomainError) return cause.code;
  const unavailable = serviceUnavailableFor(cause);
  if (unavailable) return unavailable.code;
  if (cause instanceof Error && 'extensions' in cause) {
    const code = (cause as GraphQLError).extensions?.code;
    return typeof code === 'string' ? code : 'GRAPHQL_ERROR';
  }
  return 'INTERNAL_SERVER_ERROR';
}

/**
 * Domain errors reach the client with their code; a database outage answers SERVICE_UNAVAILABLE
 * with `retryAfterS` (HTTP 503 and Retry-After); anything else unexpected is logged and masked.
 */
export function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const path = error instanceof GraphQLError ? error.path : undefined;
    const cause = rootCause(error);
    if (cause instanceof DomainError) {
      const retryAfterS = 'retryAfterS' in cause ? { retryAfterS: cause.retryAfterS } : {};
      return new GraphQLError(cause.message, { path, extensions: { code: cause.code, ...retryAfterS } });
    }
    const unavailable = serviceUnavailableFor(cause);
    if (unavailable) {
      logger.warn({ err: cause }, 'a GraphQL operation met a database outage');
      const { retryAfterS } = unavailable;
      return new GraphQLError(unavailable.message, {
        path,
        extensions: {
          code: unavailable.code,
          retryAfterS,
          http: { status: 503, headers: { 'retry-after': String(retryAfterS) } },
        },
      });
    }
    // Errors GraphQL raised (parse, validation, a variable a scalar refused) are meant for the client.
    if (cause instanceof Error && 'extensions' in cause) return error as Error;
    logger.error({ err: cause }, 'unexpected error in a GraphQL operation');
    return new GraphQLError('Unexpected error.', { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}
