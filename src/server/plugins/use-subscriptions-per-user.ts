import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../../schema/context.ts';

/** The `extensions.code` of a subscription refused because its user runs as many as allowed (as on one socket). */
export const TOO_MANY_SUBSCRIPTIONS_CODE = 'TOO_MANY_SUBSCRIPTIONS';

/**
 * At most `max` subscriptions per signed-in user on this instance, over SSE and WebSocket together:
 * an SSE stream is one request each, so without this only the start rate would bound them. The one
 * beyond answers a GraphQL error with `extensions.code = TOO_MANY_SUBSCRIPTIONS` (HTTP 429 over SSE).
 */
export function useSubscriptionsPerUser(max: number, onRefused?: () => void): Plugin<GraphQLContext> {
  const open = new Map<string, number>();
  const release = (userId: string) => {
    const left = (open.get(userId) ?? 1) - 1;
    if (left <= 0) open.delete(userId);
    else open.set(userId, left);
  };
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const userId = args.contextValue.viewer?.id;
      if (!userId) return undefined;
      if ((open.get(userId) ?? 0) >= max) {
        onRefused?.();
        setResultAndStopExecution({
          errors: [
            new GraphQLError(`At most ${max} subscriptions may run at once per user.`, {
              extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE, http: { status: 429 } },
            }),
          ],
        });
        return undefined;
      }
      open.set(userId, (open.get(userId) ?? 0) + 1);
      let released = false;
      const releaseOnce = () => {
        if (released) return;
        released = true;
        release(userId);
      };
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
