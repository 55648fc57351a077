import { GraphQLError, Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { RateLimitedError } from '../../domain/errors.ts';
import type { GraphQLContext } from '../../schema/context.ts';

export interface OperationLimitsOptions {
  maxDepth: number;
  mutationsPerMinute: number;
}

/** Refuses documents nested deeper than maxDepth, and a viewer's mutations beyond the per-minute rate. */
export function useOperationLimits({ maxDepth, mutationsPerMinute }: OperationLimitsOptions): Plugin<GraphQLContext> {
  const rateLimiter = new MutationRateLimiter(mutationsPerMinute);
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(depthLimitRule(maxDepth));
    },
    onExecute({ args }) {
      const operation = args.document.definitions.find((definition: { kind: string }) => definition.kind === 'OperationDefinition');
      const viewer = (args.contextValue as GraphQLContext).viewer;
      if (operation && 'operation' in operation && operation.operation === 'mutation' && viewer) {
        rateLimiter.check(viewer.id);
      }
    },
  };
}

/** Rejects documents nested deeper than `maxDepth` fields (fragments are followed). */
export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((definition) => [definition.name.value, definition]),
    );
    const depthOf = (node: { selectionSet?: { selections: readonly unknown[] } }, seen: Set<string>): number => {
      if (!node.selectionSet) return 0;
      let deepest = 0;
      for (const selection of node.selectionSet.selections as readonly any[]) {
        if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(selection, seen));
        else if (selection.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(selection, seen));
        else if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
          const fragment = fragments.get(selection.name.value);
          if (fragment) deepest = Math.max(deepest, depthOf(fragment, new Set([...seen, selection.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`The query is ${depth} levels deep; the limit is ${maxDepth}.`, {
              nodes: [operation],
              extensions: { code: 'BAD_USER_INPUT' },
            }),
          );
        }
      },
    };
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
