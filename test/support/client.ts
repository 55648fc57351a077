import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ConversationQuery } from '../gql/operations.ts';
import {
  CancelExecutionDocument,
  ConversationDocument,
  ExecutionDocument,
  QueueDocument,
  SendMessageDocument,
} from './documents.ts';
import { request, requestData, type GraphQLResponse } from './server.ts';

// What a client reads and sends while a test runs, over HTTP.

type Server = { url: string };
export type Conversation = ConversationQuery['conversation'];
export type Message = Conversation['messages']['edges'][number]['node'];
export type Part = Message['parts'][number];

/** `value` as the member `typename` of its union; anything else fails the test, showing what came. */
export function expectTypename<T extends { __typename: string }, N extends T['__typename']>(
  value: T,
  typename: N,
): Extract<T, { __typename: N }> {
  if (value.__typename !== typename) throw new Error(`expected ${typename}, got ${JSON.stringify(value)}`);
  return value as Extract<T, { __typename: N }>;
}

/** A mutation's payload, or the GraphQL errors it failed with as a member of its own. */
export async function mutate<TResult, TVariables, K extends keyof TResult>(
  server: Server,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  token: string | null,
  field: K,
): Promise<TResult[K] | { __typename: 'GraphQLErrors'; errors: GraphQLResponse<TResult>['errors'] }> {
  const result = await request(server, document, variables, token);
  return result.data?.[field] ?? { __typename: 'GraphQLErrors', errors: result.errors };
}

/** Sends `text` and returns the MessageQueued it was answered with. */
export async function send(server: Server, token: string, threadId: string, text: string, idempotencyKey?: string) {
  const { sendMessage } = await requestData(server, SendMessageDocument, { threadId, text, idempotencyKey }, token);
  return expectTypename(sendMessage, 'MessageQueued');
}

export async function conversation(server: Server, token: string, threadId: string): Promise<Conversation> {
  return (await requestData(server, ConversationDocument, { threadId }, token)).conversation;
}

export function messagesOf(state: Conversation): Message[] {
  return state.messages.edges.map((edge) => edge.node);
}

/** The text of a message (or of some of its parts), as a transcript shows it. */
export function textOf(message: { parts: readonly Part[] } | undefined): string {
  return (message?.parts ?? []).map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
}

/** The reply an execution recorded in the conversation. */
export async function recordedReply(server: Server, token: string, threadId: string, executionId: string): Promise<string> {
  const messages = messagesOf(await conversation(server, token, threadId));
  const replies = messages.filter((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
  return replies.map(textOf).join('');
}

export async function queue(server: Server, token: string, threadId: string) {
  return (await requestData(server, QueueDocument, { threadId }, token)).queue;
}

export async function execution(server: Server, token: string, id: string) {
  const { node } = await requestData(server, ExecutionDocument, { id }, token);
  return expectTypename(node, 'Execution');
}

/** Stop: the CancelRequested (or the typed error, or the GraphQL errors) it was answered with. */
export function cancel(server: Server, token: string, executionId: string) {
  return mutate(server, CancelExecutionDocument, { executionId }, token, 'cancelExecution');
}
