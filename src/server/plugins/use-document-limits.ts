import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import {
  GraphQLError,
  Kind,
  TypeInfo,
  ValidationContext,
  type ASTVisitor,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type ParseOptions,
  type Source,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { costLimitRule, type CostWeights } from './operation-cost.ts';

export interface DocumentLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  costWeights: CostWeights;
}

export type OperationLimit = 'tokens' | 'nesting' | 'depth' | 'aliases' | 'directives' | 'cost';

/**
 * What a client gets for a document over a limit: BAD_USER_INPUT naming the limit, and HTTP 400
 * whatever it accepts (`spec: false`: Yoga would answer an `application/json` client's validation
 * errors with 200).
 */
export function operationLimitError(message: string, limit: OperationLimit, max?: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', limit, ...(max === undefined ? {} : { max }), http: { status: 400, spec: false } },
  });
}

/**
 * Limits on the document itself, for HTTP, SSE and WebSocket alike (graphql-ws runs Yoga's
 * enveloped parse and validate): tokens while parsing, then depth, aliases, directives and cost
 * before the rules of GraphQL validation run (some of which are quadratic in the fields of a
 * selection). Each check is linear in the document; fragments are counted once however often they
 * are spread. The first limit exceeded is the one reported.
 */
export function useDocumentLimits(limits: DocumentLimits): Plugin {
  const rules = limitRules(limits);
  return {
    onParse({ setParseFn }) {
      setParseFn((source: string | Source, options?: ParseOptions) => parseWithinLimits(source, options, limits.maxTokens));
    },
    onValidate({ params, setResult }) {
      const errors = checkLimits(params.schema, params.documentAST, rules);
      if (errors.length) setResult(errors);
    },
    // Yoga marks every parse error as one that GraphQL over HTTP answers an `application/json`
    // client with 200; a document refused by a limit is answered 400 whatever the client accepts.
    onResultProcess({ result }) {
      for (const single of [result].flat()) {
        for (const error of (single as ExecutionResult).errors ?? []) {
          const http = error.extensions?.http as { spec?: boolean } | undefined;
          if (error.extensions?.limit && http) http.spec = false;
        }
      }
    },
  };
}

/** The limits a document exceeds (the first one found), as a client sending it would be told. */
export function documentLimitErrors(schema: GraphQLSchema, source: string, limits: DocumentLimits): GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parseWithinLimits(source, undefined, limits.maxTokens);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  return checkLimits(schema, document, limitRules(limits));
}

function parseWithinLimits(source: string | Source, options: ParseOptions | undefined, maxTokens: number): DocumentNode {
  try {
    return new MaxTokensParserWLexer(source, { ...options, n: maxTokens, onReject: [], onAccept: [], propagateOnRejection: true }).parseDocument();
  } catch (error) {
    if (error instanceof GraphQLError && /Token limit of \d+ exceeded/.test(error.message)) {
      throw operationLimitError(`The document has more than ${maxTokens} tokens.`, 'tokens', maxTokens);
    }
    // The parser recurses once per level of nesting; a document nested deeper than the stack allows is refused.
    if (error instanceof RangeError) throw operationLimitError('The document is nested too deeply to parse.', 'nesting');
    throw error;
  }
}

type LimitRule = (context: ValidationContext) => ASTVisitor;

function limitRules(limits: DocumentLimits): LimitRule[] {
  const reject =
    (message: (found: string) => string, limit: OperationLimit, max: number): GraphQLArmorRejectCallback =>
    (context, error) =>
      context?.reportError(operationLimitError(message(/found (\d+)/.exec(error.message)?.[1] ?? 'more'), limit, max));
  const armorOptions = { exposeLimits: true, propagateOnRejection: false, onAccept: [] };
  return [
    maxDepthRule({
      ...armorOptions,
      n: limits.maxDepth,
      // Fragments and inline fragments add no level: depth counts fields, as the result nests.
      flattenFragments: true,
      ignoreIntrospection: true,
      onReject: [reject((found) => `The operation is ${found} fields deep; the limit is ${limits.maxDepth}.`, 'depth', limits.maxDepth)],
    }) as LimitRule,
    maxAliasesRule({
      ...armorOptions,
      n: limits.maxAliases,
      onReject: [reject((found) => `The operation has ${found} aliases; the limit is ${limits.maxAliases}.`, 'aliases', limits.maxAliases)],
    }) as LimitRule,
    maxDirectivesRule({
      ...armorOptions,
      n: limits.maxDirectives,
      onReject: [
        reject((found) => `The operation has ${found} directives; the limit is ${limits.maxDirectives}.`, 'directives', limits.maxDirectives),
      ],
    }) as LimitRule,
    costLimitRule(limits.maxCost, limits.costWeights, (cost) =>
      operationLimitError(
        `The operation may return up to ${Number.isFinite(cost) ? Math.ceil(cost) : 'unboundedly many'} objects; the limit is ${limits.maxCost}.`,
        'cost',
        limits.maxCost,
      ),
    ),
  ];
}

/** Runs each limit over every operation of the document, stopping at the first that is exceeded. */
function checkLimits(schema: GraphQLSchema, document: DocumentNode, rules: LimitRule[]): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const context = new ValidationContext(schema, document, new TypeInfo(schema), (error) => errors.push(error));
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  for (const rule of rules) {
    const visitor = rule(context) as { OperationDefinition?: ((node: unknown) => void) | { enter?: (node: unknown) => void } };
    const enter = typeof visitor.OperationDefinition === 'function' ? visitor.OperationDefinition : visitor.OperationDefinition?.enter;
    for (const operation of operations) {
      enter?.call(visitor, operation);
      if (errors.length) return errors;
    }
  }
  return errors;
}
