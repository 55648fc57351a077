import { GraphQLError, Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../../schema/context.ts';

export interface OperationLimitsOptions {
  maxDepth: number;
}

/** Refuses documents nested deeper than maxDepth. */
export function useOperationLimits({ maxDepth }: OperationLimitsOptions): Plugin<GraphQLContext> {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(depthLimitRule(maxDepth));
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
