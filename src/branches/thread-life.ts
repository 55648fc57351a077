import type { PrismaClient, Thread, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { withSessionLock } from '../db/session-lock.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { LiveBus } from '../events/live-bus.ts';

export const MAX_THREAD_TITLE_CHARS = 500;

/** Renaming and deleting threads. */
export class ThreadLife {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly access: AccessPolicy,
  ) {}

  async renameThread(user: User, threadId: string, title: string): Promise<Thread> {
    const trimmed = title.trim();
    if (trimmed.length === 0) throw new InvalidInputError('title', 'must not be empty.');
    if (trimmed.length > MAX_THREAD_TITLE_CHARS) {
      throw new InvalidInputError('title', `must be at most ${MAX_THREAD_TITLE_CHARS} characters.`);
    }
    const thread = await this.access.thread(user, threadId, 'agent:execute');
    return this.prisma.thread.update({ where: { id: thread.id }, data: { title: trimmed } });
  }

  /**
   * Deletes the thread with everything of it: messages, events, executions, queue items,
   * suspensions and attachment files (the schema cascades from the thread row). Its owner may, or
   * for a shared thread a project admin; refused while an execution runs.
   */
  async deleteThread(user: User, threadId: string): Promise<{ threadId: string }> {
    const thread = await this.access.thread(user, threadId, 'agent:execute');
    if (thread.ownerId !== user.id) await this.access.thread(user, threadId, 'agent:manage');
    return this.deleteChecked(thread.id);
  }

  /** An operator's deletion (the CLI, acting on a user's request): no access check. */
  async deleteThreadAsOperator(threadId: string): Promise<{ threadId: string }> {
    const thread = await this.prisma.thread.findUnique({ where: { id: threadId }, select: { id: true } });
    if (!thread) throw new NotFoundError('Thread', threadId);
    return this.deleteChecked(thread.id);
  }

  private async deleteChecked(threadId: string): Promise<{ threadId: string }> {
    await withSessionLock(this.prisma, threadId, async (tx) => {
      const active = await tx.execution.findFirst({
        where: { threadId, status: { in: ['RUNNING', 'SUSPENDED'] } },
        select: { id: true },
      });
      if (active) throw new ConflictError('An execution is running on this thread; stop it first (cancelExecution), then delete it.');
      const deleted = await tx.thread.deleteMany({ where: { id: threadId } });
      if (deleted.count === 0) throw new NotFoundError('Thread', threadId);
    });
    // Its subscribers, on every instance, end with the thread's not-found error.
    this.bus.publishThreadEvents([
      { threadId, seq: null, executionId: null, parentExecutionId: null, createdAt: new Date().toISOString(), payload: { type: 'ThreadDeleted' } },
    ]);
    return { threadId };
  }
}
