import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy, ThreadWithAgent } from '../auth/access.ts';
import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import { firstOfPath, pathAround, pathTo } from './active-path.ts';

export interface ConversationHead {
  thread: ThreadWithAgent;
  /** Pass to runEvents(after:) to continue from exactly this read. */
  eventCursor: string;
  activeExecutionId: string | null;
  /** The end of the active path as of the cursor (read with it): its messages are read per page (`pathWindow`). */
  leafMessageId: string | null;
}

/** A page of the active path as the connection asks for it: `take` rows after (or, negative, before) the cursor. */
export interface PathPage {
  take: number;
  cursorId: string | null;
}

export interface QueueView {
  thread: ThreadWithAgent;
  steerableExecutionId: string | null;
}

/** What makes messages siblings: one thread, one parent (none for first messages), one role. */
export interface SiblingKey {
  threadId: string;
  parentId: string | null;
  role: 'USER' | 'ASSISTANT';
}

const siblingKeyOf = (message: SiblingKey) => `${message.threadId}|${message.parentId ?? ''}|${message.role}`;

/**
 * Collects the sibling reads of one request made in the same turn of the event loop (every
 * message of a page asks at once) and answers them with one query.
 */
export class SiblingBatch {
  private pending: { message: SiblingKey; resolve: (ids: string[]) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly conversations: Pick<ConversationService, 'siblingIds'>) {}

  load(message: SiblingKey): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ message, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    try {
      const answers = await this.conversations.siblingIds(batch.map((entry) => entry.message));
      batch.forEach((entry, index) => entry.resolve(answers[index]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

/** Recovery reads: what a reloading client needs to show the thread exactly as it is. */
export class ConversationService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
  ) {}

  async conversation(user: User, threadId: string): Promise<ConversationHead> {
    const thread = await this.access.thread(user, threadId, 'agent:read');
    // The cursor is read before anything else, so replaying after it can only repeat, never miss.
    const active = await this.activeExecution(thread.id);
    return { thread, eventCursor: String(thread.lastEventSeq), activeExecutionId: active?.id ?? null, leafMessageId: thread.activeLeafMessageId };
  }

  /**
   * The ids of the active path (ending at `leafId`) that a page of its messages is cut from, first
   * to last. The pages a client opens a thread with, its last or its first messages, cost what the
   * page holds, however long the thread: the last are read back from the leaf, the first down from
   * the thread's first message. A page from a cursor is cut from the whole path in the database.
   */
  async pathWindow(threadId: string, leafId: string | null, page: PathPage): Promise<string[]> {
    if (leafId === null) return [];
    // The page, and the row past it that says whether there is a next (or previous) one.
    const reach = Math.abs(page.take) + 1;
    if (page.cursorId !== null) return pathAround(this.prisma, leafId, page.cursorId, page.take);
    if (page.take < 0) return pathTo(this.prisma, leafId, reach);
    return (await firstOfPath(this.prisma, threadId, leafId, reach)) ?? pathTo(this.prisma, leafId);
  }

  async queue(user: User, threadId: string): Promise<QueueView> {
    const thread = await this.access.thread(user, threadId, 'agent:read');
    const active = await this.activeExecution(thread.id);
    return { thread, steerableExecutionId: active?.status === 'RUNNING' && active.acceptsSteering ? active.id : null };
  }

  /**
   * A stored file, for a user who may read its thread (sent or still queued). Whatever the reason
   * it cannot be had, the answer is the same NotFound, so ids reveal nothing.
   */
  async attachment(user: User, attachmentId: string): Promise<{ filename: string; mediaType: string; data: Buffer }> {
    const found = await this.prisma.attachment.findUnique({
      where: { id: attachmentId },
      include: { message: { select: { threadId: true } }, queueItem: { select: { threadId: true } } },
    });
    const threadId = found?.message?.threadId ?? found?.queueItem?.threadId;
    const visible = threadId
      ? await this.access.thread(user, threadId, 'agent:read').catch((error: unknown) => {
          if (error instanceof NotFoundError || error instanceof ForbiddenError) return null;
          throw error;
        })
      : null;
    if (!found || !visible) throw new NotFoundError('Attachment', attachmentId);
    return { filename: found.filename, mediaType: found.mediaType, data: Buffer.from(found.dataBase64, 'base64') };
  }

  /**
   * For each message, the messages with the same parent and role, oldest first, itself included:
   * one query for all of them (a conversation's page asks for every message's at once).
   */
  async siblingIds(messages: readonly SiblingKey[]): Promise<string[][]> {
    const keys = [...new Map(messages.map((message) => [siblingKeyOf(message), message])).values()];
    if (keys.length === 0) return [];
    const rows = await this.prisma.message.findMany({
      where: { OR: keys.map(({ threadId, parentId, role }) => ({ threadId, parentId, role })) },
      orderBy: { seq: 'asc' },
      select: { id: true, threadId: true, parentId: true, role: true },
    });
    const groups = new Map<string, string[]>();
    for (const row of rows) {
      const key = siblingKeyOf(row);
      groups.set(key, [...(groups.get(key) ?? []), row.id]);
    }
    return messages.map((message) => groups.get(siblingKeyOf(message)) ?? []);
  }

  activeExecution(threadId: string) {
    return this.prisma.execution.findFirst({
      where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      select: { id: true, status: true, acceptsSteering: true },
    });
  }
}
