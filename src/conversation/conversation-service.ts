import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy, ThreadWithAgent } from '../auth/access.ts';
import { ForbiddenError, NotFoundError } from '../domain/errors.ts';
import { activePath } from './active-path.ts';

export interface ConversationHead {
  thread: ThreadWithAgent;
  /** Pass to runEvents(after:) to continue from exactly this read. */
  eventCursor: string;
  activeExecutionId: string | null;
  /** The active path's messages, first to last (read after the cursor: a replay may repeat, never miss). */
  pathMessageIds: string[];
}

export interface QueueView {
  thread: ThreadWithAgent;
  steerableExecutionId: string | null;
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
    const pathMessageIds = await activePath(this.prisma, thread.id);
    return { thread, eventCursor: String(thread.lastEventSeq), activeExecutionId: active?.id ?? null, pathMessageIds };
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

  /** The messages with the same parent and role as this one, oldest first, itself included. */
  async siblingIds(message: { threadId: string; parentId: string | null; role: 'USER' | 'ASSISTANT' }): Promise<string[]> {
    const siblings = await this.prisma.message.findMany({
      where: { threadId: message.threadId, parentId: message.parentId, role: message.role },
      orderBy: { seq: 'asc' },
      select: { id: true },
    });
    return siblings.map((sibling) => sibling.id);
  }

  activeExecution(threadId: string) {
    return this.prisma.execution.findFirst({
      where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      select: { id: true, status: true, acceptsSteering: true },
    });
  }
}
