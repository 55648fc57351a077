import type { Message } from '@ag-ui/core';
import { activePath } from '../conversation/active-path.ts';
import type { MessagePart } from '../conversation/parts.ts';
import { ConflictError, InvalidInputError } from '../domain/errors.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { clientMessageIdOf, replyMessages, userMessage } from './message-mapping.ts';

/** A thread's active path as AG-UI messages: the truth a client's history is checked against. */
export interface ThreadHistory {
  messages: Message[];
  /** The AG-UI ids of the path's user messages, first to last. */
  userIds: string[];
  knownIds: ReadonlySet<string>;
  /** Tool calls whose result the thread has (a `tool` message of the path). */
  answeredCalls: ReadonlySet<string>;
}

/** What a request sends that the thread does not have yet: results of frontend tool calls, and user messages. */
export interface NewInput {
  toolResults: Extract<Message, { role: 'tool' }>[];
  users: Extract<Message, { role: 'user' }>[];
}

/** AG-UI messages a client keeps for itself, which Parley neither records nor checks. */
const CLIENT_ONLY_ROLES: ReadonlySet<Message['role']> = new Set(['reasoning', 'activity', 'system', 'developer']);

/**
 * The thread's active path, first to last, as AG-UI messages; `leaveOut` is a reply left out (a
 * running one, which its stream shows instead). A user message sent over AG-UI keeps its client id.
 */
export async function threadHistory(prisma: PrismaClient, threadId: string, leaveOut: string | null = null): Promise<ThreadHistory> {
  const path = await activePath(prisma, threadId);
  const rows = await prisma.message.findMany({ where: { id: { in: path } }, select: { id: true, role: true, parts: true } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const clientIds = await clientIdsOfUserMessages(prisma, threadId);
  const resultIds = await clientIdsOfToolResults(prisma, threadId);
  const messages: Message[] = [];
  const userIds: string[] = [];
  for (const id of path) {
    const row = byId.get(id);
    if (!row || row.id === leaveOut) continue;
    const parts = row.parts as MessagePart[];
    if (row.role === 'USER') {
      const agUiId = clientIds.get(row.id) ?? row.id;
      userIds.push(agUiId);
      messages.push(userMessage(agUiId, parts));
    } else {
      // A frontend tool's result keeps the id of the client's tool message that carried it.
      messages.push(...replyMessages(row.id, parts).map((message) => (message.role === 'tool' && resultIds.has(message.toolCallId) ? { ...message, id: resultIds.get(message.toolCallId)! } : message)));
    }
  }
  const answeredCalls = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  return { messages, userIds, knownIds: new Set(messages.map((message) => message.id)), answeredCalls };
}

/** A frontend tool call's id → the id of the AG-UI tool message that answered it. */
async function clientIdsOfToolResults(prisma: PrismaClient, threadId: string): Promise<Map<string, string>> {
  const answered = await prisma.suspension.findMany({ where: { threadId, kind: 'CLIENT_TOOL', status: 'RESOLVED' }, select: { toolCallId: true, resolution: true } });
  return new Map(answered.flatMap(({ toolCallId, resolution }) => {
    const messageId = (resolution as { messageId?: unknown } | null)?.messageId;
    return typeof messageId === 'string' ? [[toolCallId, messageId] as const] : [];
  }));
}

/** Parley's user message id → the AG-UI id it was sent with (its queue item's client key). */
async function clientIdsOfUserMessages(prisma: PrismaClient, threadId: string): Promise<Map<string, string>> {
  const events = await prisma.threadEvent.findMany({
    where: { threadId, type: { in: ['MessageQueued', 'ExecutionStarted'] } },
    select: { payload: true },
    orderBy: { seq: 'asc' },
  });
  const keyOfQueueItem = new Map<string, string>();
  const clientIds = new Map<string, string>();
  for (const { payload } of events) {
    const event = payload as { type: string; queueId: string; idempotencyKey?: string | null; userMessageId?: string };
    const clientId = clientMessageIdOf(event.idempotencyKey);
    if (event.type === 'MessageQueued' && clientId) keyOfQueueItem.set(event.queueId, clientId);
    if (event.type === 'ExecutionStarted' && event.userMessageId && keyOfQueueItem.has(event.queueId)) {
      clientIds.set(event.userMessageId, keyOfQueueItem.get(event.queueId)!);
    }
  }
  return clientIds;
}

/**
 * What of a request is new to the thread, checked against its active path: messages are matched by
 * id; new ones must come after everything the thread knows, and be user messages or the results of
 * frontend tool calls the thread waits for (`awaited`); a client that sends history must send the
 * whole of it. Anything else is a divergence, refused (never merged): the client should send an
 * empty history and take the MESSAGES_SNAPSHOT.
 */
export function newInput(sent: readonly Message[], history: ThreadHistory, awaited: ReadonlySet<string>): NewInput {
  const checked = sent.filter((message) => !CLIENT_ONLY_ROLES.has(message.role));
  const firstNew = checked.findIndex((message) => !history.knownIds.has(message.id));
  const known = firstNew === -1 ? checked : checked.slice(0, firstNew);
  const fresh = firstNew === -1 ? [] : checked.slice(firstNew);
  const toolResults = fresh.filter((message) => message.role === 'tool' && awaited.has(message.toolCallId)) as NewInput['toolResults'];
  const answeredTwice = toolResults.find((result, index) => toolResults.findIndex((other) => other.toolCallId === result.toolCallId) !== index);
  if (answeredTwice) throw new InvalidInputError('messages', `tool call ${answeredTwice.toolCallId} is answered twice.`);
  const stranger = fresh.find((message) => message.role !== 'user' && !toolResults.includes(message as NewInput['toolResults'][number]));
  if (stranger?.role === 'tool' && history.answeredCalls.has(stranger.toolCallId)) {
    throw new ConflictError(`messages: tool call ${stranger.toolCallId} is already answered; tool message ${stranger.id} is not the result the thread has.`);
  }
  if (stranger) {
    const why = stranger.role === 'tool' ? 'answers a tool call Parley did not hand to the client' : 'is not on the thread';
    throw new InvalidInputError('messages', `diverge from the thread: ${stranger.role} message ${stranger.id} ${why}.`);
  }
  const misplaced = fresh.find((message) => history.knownIds.has(message.id));
  if (misplaced) throw new InvalidInputError('messages', `diverge from the thread: message ${misplaced.id} comes after a message the thread does not have.`);
  const sentUserIds = known.filter((message) => message.role === 'user').map((message) => message.id);
  const sameUsers = sentUserIds.length === history.userIds.length && sentUserIds.every((id, index) => id === history.userIds[index]);
  if (known.length > 0 && !sameUsers) {
    throw new ConflictError(
      'messages diverge from the thread: its active path has other user messages than the history sent (edited or branched elsewhere, or sent by another client). Send an empty history to receive the thread as MESSAGES_SNAPSHOT.',
    );
  }
  return { toolResults, users: fresh.filter((message) => message.role === 'user') as NewInput['users'] };
}
