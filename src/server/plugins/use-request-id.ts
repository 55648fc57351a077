import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { currentRequestId } from '../../observability/request-id.ts';

/** Every error of a result with `extensions.requestId`, so a client can quote it to an operator. */
export function withRequestId<T extends ExecutionResult>(result: T, requestId: string): T {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => errorWithRequestId(error, requestId)) };
}

/**
 * An error that already names its request keeps it. Of Yoga's `extensions.originalError` only the
 * name is kept: for a body that is not JSON its message quotes the body back.
 */
export function errorWithRequestId(error: GraphQLError, requestId: string): GraphQLError {
  const quoted = error.extensions?.originalError as { name?: unknown } | undefined;
  if (typeof error.extensions?.requestId === 'string' && quoted === undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: {
      ...error.extensions,
      requestId: typeof error.extensions?.requestId === 'string' ? error.extensions.requestId : requestId,
      ...(quoted === undefined ? {} : { originalError: { name: typeof quoted.name === 'string' ? quoted.name : 'Error' } }),
    },
  });
}

/**
 * Over HTTP (and SSE) the request id is the request's (set by the HTTP server from `x-request-id`
 * and sent back in that header); every error Yoga sends for it, whatever stage raised it, gets it
 * as `extensions.requestId`. The WebSocket server does the same for each operation.
 */
export function useRequestId(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      const requestId = currentRequestId();
      if (!requestId) return;
      if (isAsyncIterable(result)) {
        setResult(mapAsyncIterator(result, (item: ExecutionResult) => withRequestId(item, requestId)) as never);
      } else if (Array.isArray(result)) {
        setResult(result.map((item: ExecutionResult) => withRequestId(item, requestId)) as never);
      } else {
        setResult(withRequestId(result as ExecutionResult, requestId) as never);
      }
    },
  };
}
