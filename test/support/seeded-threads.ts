import { randomUUID } from 'node:crypto';
import type { MessagePart } from '../../src/conversation/parts.ts';
import type { TestServer } from './server.ts';

// Threads with finished history written straight into the database: for suites that read threads
// (search, export) and need many of them, or branches, without running a turn for each message.

export interface SeededMessage {
  role: 'USER' | 'ASSISTANT';
  /** A text part, or the parts themselves. */
  text?: string;
  parts?: MessagePart[];
  /** The index of its parent among the seeded messages; the one before it when not given. */
  parent?: number | null;
}

export interface SeededThread {
  threadId: string;
  messageIds: string[];
}

/** A thread of `ownerId` with the messages in order; the active path ends at `leaf` (default: the last). */
export async function seedThread(
  server: Pick<TestServer, 'parley'>,
  input: { ownerId: string; agentId: string; title?: string; messages: SeededMessage[]; leaf?: number; lastActivityAt?: Date },
): Promise<SeededThread> {
  const prisma = server.parley.db.prisma;
  const threadId = randomUUID();
  const messageIds = input.messages.map(() => randomUUID());
  await prisma.thread.create({
    data: { id: threadId, agentId: input.agentId, ownerId: input.ownerId, title: input.title ?? '', lastActivityAt: input.lastActivityAt },
  });
  for (const [index, message] of input.messages.entries()) {
    const parentIndex = message.parent === undefined ? index - 1 : message.parent;
    await prisma.message.create({
      data: {
        id: messageIds[index],
        threadId,
        role: message.role,
        parentId: parentIndex === null || parentIndex < 0 ? null : messageIds[parentIndex],
        parts: (message.parts ?? [{ type: 'text', text: message.text ?? '' }]) as object[],
      },
    });
  }
  const leaf = input.leaf ?? input.messages.length - 1;
  await prisma.thread.update({ where: { id: threadId }, data: { activeLeafMessageId: messageIds[leaf] ?? null } });
  return { threadId, messageIds };
}
