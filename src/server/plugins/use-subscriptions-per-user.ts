import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../../schema/context.ts';

/** The `extensions.code` of a subscription refused because its user runs as many as allowed (as on one socket). */
export const TOO_MANY_SUBSCRIPTIONS_CODE = 'TOO_MANY_SUBSCRIPTIONS';

/**
 * The streams each signed-in user holds on this instance: GraphQL subscriptions over SSE and
 * WebSocket, and AG-UI runs (src/server/plugins/use-ag-ui.ts), all counted against one bound.
 */
export class StreamsPerUser {
  private readonly open = new Map<string, number>();

  constructor(
    readonly max: number,
    private readonly onRefused?: () => void,
  ) {}

  /** Takes one of the user's streams; the function that gives it back (once), or null when all are taken. */
  take(userId: string): (() => void) | null {
    if ((this.open.get(userId) ?? 0) >= this.max) {
      this.onRefused?.();
      return null;
    }
    this.open.set(userId, (this.open.get(userId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(userId) ?? 1) - 1;
      if (left <= 0) this.open.delete(userId);
      else this.open.set(userId, left);
    };
  }

  refusalMessage(): string {
    return `At most ${this.max} subscriptions may run at once per user.`;
  }
}

/**
 * At most `streams.max` subscriptions per signed-in user on this instance, over SSE and WebSocket together
 * (and AG-UI runs): an SSE stream is one request each, so without this only the start rate would bound them. The one
 * beyond answers a GraphQL error with `extensions.code = TOO_MANY_SUBSCRIPTIONS` (HTTP 429 over SSE).
 */
export function useSubscriptionsPerUser(streams: StreamsPerUser): Plugin<GraphQLContext> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const userId = args.contextValue.viewer?.id;
      if (!userId) return undefined;
      const releaseOnce = streams.take(userId);
      if (!releaseOnce) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(streams.refusalMessage(), {
              extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE, http: { status: 429 } },
            }),
          ],
        });
        return undefined;
      }
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) {
            releaseOnce();
            return undefined;
          }
          return { onEnd: releaseOnce };
        },
        onSubscribeError: releaseOnce,
      };
    },
  };
}
