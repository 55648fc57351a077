import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../../schema/context.ts';

export const STREAM_EXPIRED_MESSAGE = 'The sign-in token has expired: subscribe again with a fresh token.';

// setTimeout fires at once for a longer delay; a token valid for longer than this is not watched.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A subscription over SSE signed in by a JWT ends at the token's `exp` with an `UNAUTHENTICATED`
 * error: the stream must not outlast the sign-in. (A WebSocket is closed with 4401 instead.)
 */
export function useStreamDeadline(): Plugin<GraphQLContext> {
  return {
    onSubscribe({ args }) {
      const deadline = args.contextValue.streamDeadline;
      if (deadline === null || deadline - Date.now() > MAX_TIMER_MS) return undefined;
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(untilDeadline(result as AsyncIterable<ExecutionResult>, deadline));
        },
      };
    },
  };
}

export async function* untilDeadline(source: AsyncIterable<ExecutionResult>, deadline: number): AsyncGenerator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), expired]);
      if (next === 'expired') {
        yield { errors: [new GraphQLError(STREAM_EXPIRED_MESSAGE, { extensions: { code: 'UNAUTHENTICATED' } })] };
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    // Not awaited: a source waiting for its next event finishes its return only once that event comes.
    iterator.return?.()?.catch(() => undefined);
  }
}
