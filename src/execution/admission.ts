import type { Agent, Execution, Prisma, PrismaClient, User } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { RunEventRecord } from '../events/run-event.ts';
import { translate, type Locale, type MessageKey } from '../i18n/catalog.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { RunningExecution, RunningExecutions } from './running-executions.ts';
import { tokensUsedToday } from './token-budget.ts';

export interface AdmittedRun {
  execution: Execution;
  agent: Agent;
  user: User;
  handle: RunningExecution;
  /** When its message was queued (a resumed run has none). */
  queuedAt?: Date;
}

export type AdmissionResult =
  | { kind: 'admitted'; run: AdmittedRun; events: RunEventRecord[] }
  | { kind: 'refused'; events: RunEventRecord[] }
  | { kind: 'idle' };

/**
 * Claims the head of a thread's queue and creates its execution. All of it happens under the
 * thread's session lock, which is released only after the cancellation handle is registered, and
 * before any model or tool call.
 */
export class Admission {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly running: RunningExecutions,
    private readonly instanceId: string,
  ) {}

  async admitNext(threadId: string): Promise<AdmissionResult> {
    let registered: RunningExecution | null = null;
    try {
      return await withSessionLock(this.prisma, threadId, async (tx) => {
        const active = await tx.execution.findFirst({
          where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
          select: { id: true },
        });
        if (active) return { kind: 'idle' } as const;
        const head = await tx.queueItem.findFirst({
          where: { threadId, steeringExecutionId: null },
          orderBy: { position: 'asc' },
          include: { user: true, thread: { include: { agent: true } }, attachments: true },
        });
        if (!head) return { kind: 'idle' } as const;

        const agent = head.thread.agent;
        const refusal = await this.checkRunLimits(tx, agent, head.userId);
        const execution = await tx.execution.create({
          data: {
            threadId,
            agentId: agent.id,
            userId: head.userId,
            queueItemId: head.id,
            acceptedText: head.text,
            status: refusal ? 'REFUSED' : 'RUNNING',
            refusalKey: refusal?.key ?? null,
            ownerInstanceId: refusal ? null : this.instanceId,
            acceptsSteering: !refusal,
            startedAt: new Date(),
            finishedAt: refusal ? new Date() : null,
          },
        });
        const userParts: MessagePart[] = [
          { type: 'text', text: head.text },
          ...head.attachments.map((attachment) => ({
            type: 'attachment' as const,
            attachmentId: attachment.id,
            filename: attachment.filename,
            mediaType: attachment.mediaType,
            size: attachment.size,
          })),
        ];
        const userMessage = await tx.message.create({
          data: { threadId, executionId: execution.id, role: 'USER', parts: userParts as unknown as Prisma.InputJsonValue },
          select: { id: true },
        });
        if (head.attachments.length > 0) {
          await tx.attachment.updateMany({
            where: { queueItemId: head.id },
            data: { queueItemId: null, messageId: userMessage.id },
          });
        }
        await tx.queueItem.delete({ where: { id: head.id } });

        const started = {
          executionId: execution.id,
          payload: {
            type: 'ExecutionStarted' as const,
            acceptedText: head.text,
            userMessageId: userMessage.id,
            queueId: head.id,
          },
        };
        const queueUpdated = { executionId: null, payload: { type: 'QueueUpdated' as const } };

        if (refusal) {
          const text = translate(head.user.locale as Locale, refusal.key, refusal.params);
          await tx.message.create({
            data: { threadId, executionId: execution.id, role: 'ASSISTANT', parts: [{ type: 'text', text }] },
          });
          const events = await appendThreadEvents(tx, threadId, [
            started,
            queueUpdated,
            { executionId: execution.id, payload: { type: 'ExecutionFinished', status: 'REFUSED' } },
          ]);
          return { kind: 'refused', events } as const;
        }

        registered = this.running.register(execution.id, threadId);
        const events = await appendThreadEvents(tx, threadId, [started, queueUpdated]);
        return { kind: 'admitted', run: { execution, agent, user: head.user, handle: registered, queuedAt: head.createdAt }, events } as const;
      });
    } catch (error) {
      // The transaction did not commit: no execution exists, so its handle must not either.
      if (registered) this.running.unregister((registered as RunningExecution).executionId);
      throw error;
    }
  }

  private async checkRunLimits(
    tx: Tx,
    agent: Agent,
    userId: string,
  ): Promise<{ key: MessageKey; params: Record<string, number> } | null> {
    if (agent.maxConcurrentExecutions !== null) {
      const running = await tx.execution.count({
        where: { agentId: agent.id, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      });
      if (running >= agent.maxConcurrentExecutions) {
        return { key: 'refusal.concurrency', params: { limit: agent.maxConcurrentExecutions } };
      }
    }
    if (agent.dailyTokenBudget !== null) {
      if ((await tokensUsedToday(tx, agent.id, userId)) >= agent.dailyTokenBudget) {
        return { key: 'refusal.budget', params: { budget: agent.dailyTokenBudget } };
      }
    }
    return null;
  }
}
