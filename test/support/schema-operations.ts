import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { schema } from '../../src/schema/index.ts';
import type { GraphQLResponse } from './server.ts';

// Operations built from the schema itself, so that a suite iterating them covers a new field by default.

export type OperationKind = 'query' | 'mutation' | 'subscription';

export function rootType(kind: OperationKind): GraphQLObjectType {
  const root = kind === 'query' ? schema.getQueryType() : kind === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) throw new Error(`the schema has no ${kind} type`);
  return root;
}

/** Every root field of the built schema, as `kind.name`. */
export function rootFields(): { kind: OperationKind; field: GraphQLField<unknown, unknown> }[] {
  return (['query', 'mutation', 'subscription'] as const).flatMap((kind) =>
    Object.values(rootType(kind).getFields()).map((field) => ({ kind, field })),
  );
}

const errorInterface = () => schema.getType('Error');

/**
 * The smallest selection that tells what a field answered: its typename, and for a result union
 * the typed error's code and message.
 */
export function outcomeSelection(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  if (isLeafType(type)) return '';
  const error = errorInterface();
  const hasErrorMembers =
    isAbstractType(type) && schema.getPossibleTypes(type).some((member) => member.getInterfaces().some((i) => i === error));
  return `{ __typename${hasErrorMembers ? ' ... on Error { code message }' : ''} }`;
}

/** A document calling one root field with `variables` (only those given are sent) and `selection`. */
export function operationDocument(
  kind: OperationKind,
  field: GraphQLField<unknown, unknown>,
  variables: Record<string, unknown>,
  selection = outcomeSelection(field),
): string {
  const args = field.args.filter((arg) => variables[arg.name] !== undefined);
  const declarations = args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const call = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return `${kind} Op${declarations ? `(${declarations})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selection} }`;
}

/** One GraphQL request over HTTP with a raw query string. */
export async function post(
  server: { url: string },
  query: string,
  variables: Record<string, unknown>,
  token: string | null,
): Promise<GraphQLResponse<Record<string, unknown>>> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResponse<Record<string, unknown>>;
}

/** What an operation over WebSocket answered first, and how: see `firstSubscriptionAnswer`. */
export interface FirstAnswer {
  /**
   * `next`: a result (an event, or errors of its execution); `error`: refused before it ran (bad
   * input, a limit, no access); `complete`: ended without a result; `closed`: the server closed the
   * socket itself (its close code).
   */
  kind: 'next' | 'error' | 'complete' | 'closed';
  data?: unknown;
  errors?: { message?: string; extensions?: { code?: string; [key: string]: unknown } }[];
  closeCode?: number;
}

/**
 * The first thing an operation answers over a WebSocket of its own (graphql-ws): a subscription's
 * first event or its refusal, a query's result. The wait for a one-off operation over WebSocket:
 * a suite does not subscribe and collect the answer itself.
 */
export async function firstSubscriptionAnswer(
  server: { wsUrl: string },
  query: string,
  variables: Record<string, unknown> | undefined,
  token: string | null,
  timeoutMs = 30_000,
): Promise<FirstAnswer> {
  const client = createClient({
    url: server.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${query.slice(0, 200)} within ${timeoutMs} ms`)), timeoutMs);
      const settle = (value: FirstAnswer) => {
        clearTimeout(timer);
        resolve(value);
      };
      client.subscribe(
        { query, variables },
        {
          next: (result) => settle(result.errors ? { kind: 'next', errors: result.errors as never } : { kind: 'next', data: result.data }),
          error: (error) => {
            if (Array.isArray(error)) settle({ kind: 'error', errors: error as never });
            else if (error && typeof error === 'object' && 'code' in error) settle({ kind: 'closed', closeCode: Number((error as { code: unknown }).code) });
            else settle({ kind: 'error', errors: [{ message: String(error) }] });
          },
          complete: () => settle({ kind: 'complete' }),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

/** Object types whose fields a walk selects (unions and interfaces are expanded to their members). */
export function possibleObjectTypes(typeName: string): GraphQLObjectType[] {
  const type = schema.getType(typeName);
  if (!type) return [];
  if (isObjectType(type)) return [type];
  if (isAbstractType(type)) return [...schema.getPossibleTypes(type)];
  return [];
}

export { schema };
