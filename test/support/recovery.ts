import type { Client } from 'graphql-ws';
import { replyTexts } from './client-rules.ts';
import type { ConversationQuery, RunEventsSubscription } from '../gql/graphql.ts';
import {
  ConversationDocument,
  CreateThreadDocument,
  ExecutionDocument,
  QueueDocument,
  RunEventsDocument,
} from './documents.ts';
import { requestData, subscribe, wsClient, type Subscription, type TestServer } from './server.ts';

// Helpers of the recovery suites (suspensions, reconnects, process kills, queue invariants).

export type RecoveryEvent = RunEventsSubscription['runEvents'];
export type RecoveryEvents = { runEvents: RecoveryEvent }[];
export type RecoveryMessage = ConversationQuery['conversation']['messages']['edges'][number]['node'];

export const DEMO_TOOLS = ['approve_action', 'ask_user', 'delegate', 'demo_crash'];

/** A user with a project and a demo agent that has every demo tool. */
export async function demoAgent(server: TestServer, name = 'Recovery') {
  const user = await server.createUser();
  const directory = server.parley.directory;
  const project = await directory.createProject(await directory.findUser(user.userId), { name });
  const agent = await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default', tools: DEMO_TOOLS });
  return { ...user, projectId: project.id, agentId: agent.id };
}

export async function newThread(server: { url: string }, token: string, agentId: string): Promise<string> {
  const created = await requestData(server, CreateThreadDocument, { agentId }, token);
  if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
  return created.createThread.id;
}

export interface Follower {
  client: Client;
  sub: Subscription<{ runEvents: RecoveryEvent }>;
  events(): RecoveryEvent[];
  /** Resolves with the first event matching `predicate` (waiting for it if need be). */
  waitFor<T extends RecoveryEvent>(predicate: (event: RecoveryEvent) => event is T, timeoutMs?: number): Promise<T>;
  waitFor(predicate: (event: RecoveryEvent) => boolean, timeoutMs?: number): Promise<RecoveryEvent>;
  close(): Promise<void>;
}

/** Follows a thread's events over a WebSocket of its own, from `after` (default: the beginning). */
export function follow(server: { wsUrl: string }, token: string, threadId: string, after: string | null = '0'): Follower {
  const client = wsClient(server, token);
  const sub = subscribe(client, RunEventsDocument, { threadId, after });
  const events = () => sub.events.map((event) => event.runEvents);
  return {
    client,
    sub,
    events,
    async waitFor(predicate: (event: RecoveryEvent) => boolean, timeoutMs?: number) {
      await sub.waitFor((all) => all.some((event) => predicate(event.runEvents)), timeoutMs);
      return events().find(predicate)!;
    },
    async close() {
      sub.close();
      await client.dispose();
    },
  } as Follower;
}

type Of<K extends RecoveryEvent['__typename']> = Extract<RecoveryEvent, { __typename: K }>;

export function is<K extends RecoveryEvent['__typename']>(kind: K, extra?: (event: Of<K>) => boolean) {
  return (event: RecoveryEvent): event is Of<K> => event.__typename === kind && (!extra || extra(event as Of<K>));
}

export function ofKind<K extends RecoveryEvent['__typename']>(events: readonly RecoveryEvent[], kind: K): Of<K>[] {
  return events.filter(is(kind));
}

export function finishedOf(executionId: string) {
  return is('ExecutionFinished', (event) => event.executionId === executionId);
}

export function startedWith(text: string) {
  return is('ExecutionStarted', (event) => event.acceptedText === text);
}

export async function conversation(server: { url: string }, token: string, threadId: string) {
  return (await requestData(server, ConversationDocument, { threadId }, token)).conversation;
}

export async function queue(server: { url: string }, token: string, threadId: string) {
  return (await requestData(server, QueueDocument, { threadId }, token)).queue;
}

export async function execution(server: { url: string }, token: string, id: string) {
  const { node } = await requestData(server, ExecutionDocument, { id }, token);
  if (node.__typename !== 'Execution') throw new Error(`not an execution: ${JSON.stringify(node)}`);
  return node;
}

export function textOf(message: RecoveryMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
}

export function messagesOf(conv: ConversationQuery['conversation']): RecoveryMessage[] {
  return conv.messages.edges.map((edge) => edge.node);
}

/** Durable events carry an integer cursor (the thread's event seq); live-only ones `seq.n`. */
export function isDurable(event: RecoveryEvent): boolean {
  return /^\d+$/.test((event as { cursor: string }).cursor);
}

export function cursorOf(event: RecoveryEvent): string {
  return (event as { cursor: string }).cursor;
}

/** The client rule (`replyTexts`) over this document's events, which carry what the rule reads. */
export function replyTextsOf(events: readonly { runEvents: RecoveryEvent }[]): Map<string, string> {
  return replyTexts(events as unknown as Parameters<typeof replyTexts>[0]);
}
