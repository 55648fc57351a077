import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy, ThreadWithAgent } from '../auth/access.ts';

export interface ConversationHead {
  thread: ThreadWithAgent;
  /** Pass to runEvents(after:) to continue from exactly this read. */
  eventCursor: string;
  activeExecutionId: string | null;
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
    return { thread, eventCursor: String(thread.lastEventSeq), activeExecutionId: active?.id ?? null };
  }

  async queue(user: User, threadId: string): Promise<QueueView> {
    const thread = await this.access.thread(user, threadId, 'agent:read');
    const active = await this.activeExecution(thread.id);
    return { thread, steerableExecutionId: active?.status === 'RUNNING' && active.acceptsSteering ? active.id : null };
  }

  activeExecution(threadId: string) {
    return this.prisma.execution.findFirst({
      where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      select: { id: true, status: true, acceptsSteering: true },
    });
  }
}
