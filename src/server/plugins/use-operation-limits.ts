import type { Plugin } from 'graphql-yoga';
import { RateLimitedError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../../schema/context.ts';

export interface OperationLimitsOptions {
  mutationsPerMinute: number;
}

/** Refuses a viewer's mutations beyond the per-minute rate. */
export function useOperationLimits({ mutationsPerMinute }: OperationLimitsOptions): Plugin<GraphQLContext> {
  const rateLimiter = new MutationRateLimiter(mutationsPerMinute);
  return {
    onExecute({ args }) {
      const operation = args.document.definitions.find((definition: { kind: string }) => definition.kind === 'OperationDefinition');
      const viewer = (args.contextValue as GraphQLContext).viewer;
      if (operation && 'operation' in operation && operation.operation === 'mutation' && viewer) {
        rateLimiter.check(viewer.id);
      }
    },
  };
}

/** A per-user sliding one-minute window of mutations. In memory: each instance limits on its own. */
export class MutationRateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  check(userId: string, now = Date.now()): void {
    const since = now - 60_000;
    const recent = (this.windows.get(userId) ?? []).filter((at) => at > since);
    if (recent.length >= this.perMinute) {
      this.windows.set(userId, recent);
      throw new RateLimitedError(Math.max(1, Math.ceil((recent[0]! - since) / 1000)));
    }
    recent.push(now);
    this.windows.set(userId, recent);
  }
}
