import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { SignedInStreams } from '../../auth/signed-in-streams.ts';
import type { YogaContext } from '../request-context.ts';

export const STREAM_EXPIRED_MESSAGE = 'The sign-in token has expired: subscribe again with a fresh token.';
export const STREAM_USER_DISABLED_MESSAGE = 'This user has been disabled: the subscription ended.';

// setTimeout fires at once for a longer delay; a token valid for longer than this is not watched.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A subscription lives no longer than its sign-in: one over SSE signed in by a JWT ends at the
 * token's `exp`, and any subscription ends the moment its user is disabled, each with an
 * `UNAUTHENTICATED` error saying why. (A WebSocket is also closed: 4401 at `exp`, 4403 when disabled.)
 */
export function useStreamSignIn(options: { streams: SignedInStreams }): Plugin<YogaContext> {
  return {
    onSubscribe({ args }) {
      const { viewer, streamDeadline } = args.contextValue;
      if (!viewer) return undefined;
      const deadline = streamDeadline !== null && streamDeadline - Date.now() <= MAX_TIMER_MS ? streamDeadline : null;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return;
          const ended = signInEnd(options.streams, viewer.id, deadline);
          setResult(untilSignInEnds(result as AsyncIterable<ExecutionResult>, ended));
        },
      };
    },
  };
}

interface SignInEnd {
  /** Resolves with why the sign-in ended. */
  reason: Promise<string>;
  release(): void;
}

function signInEnd(streams: SignedInStreams, userId: string, deadline: number | null): SignInEnd {
  let timer: NodeJS.Timeout | undefined;
  let unwatch = () => {};
  const reason = new Promise<string>((resolve) => {
    if (deadline !== null) timer = setTimeout(() => resolve(STREAM_EXPIRED_MESSAGE), Math.max(0, deadline - Date.now()));
    unwatch = streams.watch(userId, () => resolve(STREAM_USER_DISABLED_MESSAGE));
  });
  return {
    reason,
    release() {
      clearTimeout(timer);
      unwatch();
    },
  };
}

/**
 * The source's results until the sign-in ends, then one error. The end is heard through one
 * reaction for the whole stream: racing each `next()` against the same long-lived promise would
 * add a reaction to it per event, and each would keep its event's result alive as long as the
 * subscription lives.
 */
export async function* untilSignInEnds(source: AsyncIterable<ExecutionResult>, ended: SignInEnd): AsyncGenerator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let endedWith: string | null = null;
  let interrupt: ((message: string) => void) | null = null;
  void ended.reason.then((message) => {
    endedWith = message;
    interrupt?.(message);
  });
  try {
    for (;;) {
      const next =
        endedWith === null
          ? await new Promise<IteratorResult<ExecutionResult> | { ended: string }>((resolve, reject) => {
              interrupt = (message) => resolve({ ended: message });
              iterator.next().then(resolve, reject);
            })
          : { ended: endedWith };
      interrupt = null;
      if ('ended' in next) {
        yield { errors: [new GraphQLError(next.ended, { extensions: { code: 'UNAUTHENTICATED' } })] };
        return;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    ended.release();
    // Not awaited: a source waiting for its next event finishes its return only once that event comes.
    iterator.return?.()?.catch(() => undefined);
  }
}
