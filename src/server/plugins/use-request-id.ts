import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { currentRequestId } from '../../observability/request-id.ts';

/** Every error of a result with `extensions.requestId`, so a client can quote it to an operator. */
export function withRequestId<T extends ExecutionResult>(result: T, requestId: string): T {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => errorWithRequestId(error, requestId)) };
}

/** An error that already names its request keeps it. */
export function errorWithRequestId(error: GraphQLError, requestId: string): GraphQLError {
  if (typeof error.extensions?.requestId === 'string') return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, requestId },
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
