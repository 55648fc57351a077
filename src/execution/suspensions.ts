import { prismaRunner } from '../storage/sql-client.ts';
import type { ModelMessage } from 'ai';
import type { Agent, PrismaClient, Suspension, User } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { NewThreadEvent, ThreadEvent } from '../events/thread-event.ts';
import type { AdmittedRun } from './admission.ts';
import type { Checkpoint } from '../runtime/agent-runtime.ts';
import type { RunningExecutions } from './running-executions.ts';
import type { TurnScheduler } from './turn-scheduler.ts';

/**
 * An approval's decision, or an answer: a question's typed answer, or a frontend tool's result (with
 * the id of the AG-UI tool message that carried it, which the thread then shows it under).
 */
export type Resolution = { decision: 'APPROVE' | 'DENY'; allowInThread?: boolean } | { answer: string; messageId?: string };

/**
 * Approvals, questions and frontend tool calls. Resolving one resumes its execution through the same admission rules:
 * under the session lock, the execution becomes RUNNING here and its cancellation handle is
 * registered before the lock is released and the run goes on from its checkpoint.
 */
export class SuspensionService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
    private readonly bus: LiveBus,
    private readonly running: RunningExecutions,
    private readonly instanceId: string,
    private readonly maxAnswerChars: number,
    /** Where a resolved suspension's run goes on: here, or on whichever instance claims it after a kick. */
    private readonly scheduler: TurnScheduler,
  ) {}

  async resolve(user: User, suspensionId: string, resolution: Resolution): Promise<ThreadEvent> {
    const suspension = await this.prisma.suspension.findUnique({ where: { id: suspensionId } });
    const askedFor = { entity: 'Suspension', id: suspensionId };
    if (!suspension) throw new NotFoundError(askedFor.entity, askedFor.id);
    await this.access.thread(user, suspension.threadId, 'agent:execute', askedFor);
    this.validate(suspension, resolution);
    return this.resolveChecked(suspension.id, suspension.threadId, resolution);
  }

  /** A typed message while a question card is open answers it; null when no question is open. */
  async answerOpenQuestion(threadId: string, text: string): Promise<ThreadEvent | null> {
    const question = await this.prisma.suspension.findFirst({
      where: { threadId, status: 'OPEN', kind: 'QUESTION' },
      orderBy: { createdAt: 'asc' },
    });
    if (!question) return null;
    return this.resolveChecked(question.id, threadId, { answer: text });
  }

  private validate(suspension: Suspension, resolution: Resolution): void {
    if (suspension.kind === 'APPROVAL' && !('decision' in resolution)) {
      throw new InvalidInputError('decision', 'an approval is resolved with APPROVE or DENY.');
    }
    if ('decision' in resolution && resolution.allowInThread) {
      if (resolution.decision !== 'APPROVE') throw new InvalidInputError('allowInThread', 'goes only with APPROVE.');
      if (!suspension.toolName.includes('/')) throw new InvalidInputError('allowInThread', 'is for tools of tool servers only.');
    }
    if (suspension.kind === 'CLIENT_TOOL') {
      if (!('answer' in resolution)) throw new InvalidInputError('answer', 'a frontend tool call is resolved with its result as answer.');
      if (resolution.answer.length > this.maxAnswerChars) throw new InvalidInputError('answer', `must be at most ${this.maxAnswerChars} characters.`);
    }
    if (suspension.kind === 'QUESTION') {
      if (!('answer' in resolution)) throw new InvalidInputError('answer', 'a question is resolved with a typed answer.');
      if (resolution.answer.trim().length === 0) throw new InvalidInputError('answer', 'must not be empty.');
      if (resolution.answer.length > this.maxAnswerChars) {
        throw new InvalidInputError('answer', `must be at most ${this.maxAnswerChars} characters.`);
      }
    }
  }

  private async resolveChecked(suspensionId: string, threadId: string, resolution: Resolution): Promise<ThreadEvent> {
    let registeredId: string | null = null;
    try {
      const outcome = await withSessionLock(this.prisma, threadId, async (tx) => {
        const suspension = await tx.suspension.findUniqueOrThrow({
          where: { id: suspensionId },
          include: { execution: { include: { agent: true, user: true } } },
        });
        if (suspension.status !== 'OPEN') {
          throw new ConflictError(`This ${suspension.kind.toLowerCase()} is already ${suspension.status.toLowerCase()}.`);
        }
        if (suspension.execution.status !== 'SUSPENDED') {
          throw new ConflictError(`Its execution is ${suspension.execution.status}; there is nothing to resume.`);
        }
        const resolutionJson =
          'decision' in resolution
            ? { decision: resolution.decision, ...(resolution.allowInThread ? { allowInThread: true } : {}) }
            : { answer: resolution.answer, ...(resolution.messageId ? { messageId: resolution.messageId } : {}) };
        if ('decision' in resolution && resolution.allowInThread) {
          await tx.threadToolAllowance.upsert({
            where: { threadId_tool: { threadId, tool: suspension.toolName } },
            create: { threadId, tool: suspension.toolName },
            update: {},
          });
        }
        await tx.suspension.update({
          where: { id: suspension.id },
          data: { status: 'RESOLVED', resolution: resolutionJson, resolvedAt: new Date() },
        });
        const resolved = { executionId: suspension.executionId, payload: { type: 'SuspensionResolved' as const, suspensionId: suspension.id, resolution: resolutionJson } };
        // Left SUSPENDED with no open card: a consumer elsewhere claims it (HandedOffResumes).
        if (!this.scheduler.runsTurnsHere) return { events: await appendThreadEvents(prismaRunner(tx), threadId, [resolved]), run: null, messages: [] };
        const claimed = await claimResumption(tx, this.running, this.instanceId, suspension, resolution);
        registeredId = claimed.run.execution.id;
        const events = await appendThreadEvents(prismaRunner(tx), threadId, [resolved, ...claimed.events]);
        return { events, run: claimed.run, messages: claimed.messages };
      });
      this.bus.publishThreadEvents(outcome.events);
      if (outcome.run) this.scheduler.resume(outcome.run, outcome.messages);
      else this.scheduler.kick(threadId);
      return outcome.events[0]!;
    } catch (error) {
      if (registeredId) this.running.unregister(registeredId);
      throw error;
    }
  }
}

/**
 * Under the thread's session lock: a suspended execution whose card was resolved becomes RUNNING
 * on this instance, its cancellation handle registered before the lock is released; the run goes
 * on from its checkpoint plus the message that resolves it.
 */
export async function claimResumption(
  tx: Tx,
  running: RunningExecutions,
  instanceId: string,
  suspension: Suspension & { execution: { agent: Agent; user: User } },
  resolution: Resolution,
): Promise<{ run: AdmittedRun; messages: ModelMessage[]; events: NewThreadEvent[] }> {
  const execution = await tx.execution.update({
    where: { id: suspension.executionId },
    data: { status: 'RUNNING', ownerInstanceId: instanceId, acceptsSteering: true },
  });
  const handle = running.register(execution.id, execution.threadId);
  const checkpoint = suspension.checkpoint as unknown as Checkpoint;
  return {
    run: { execution, agent: suspension.execution.agent, user: suspension.execution.user, handle },
    messages: [...checkpoint.messages, resolutionMessage(checkpoint, resolution)],
    events: [{ executionId: execution.id, payload: { type: 'ExecutionUpdated', status: 'RUNNING' } }],
  };
}

/** The resolution as recorded on the suspension. */
export function recordedResolution(json: unknown): Resolution {
  const recorded = json as { decision?: 'APPROVE' | 'DENY'; allowInThread?: boolean; answer?: string };
  if (recorded.decision) return { decision: recorded.decision, allowInThread: recorded.allowInThread };
  return { answer: recorded.answer ?? '' };
}

function resolutionMessage(checkpoint: Checkpoint, resolution: Resolution): ModelMessage {
  const { pending } = checkpoint;
  if ('decision' in resolution) {
    return {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: pending.approvalId ?? '', approved: resolution.decision === 'APPROVE' }],
    };
  }
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: pending.toolCallId,
        toolName: pending.toolName,
        output: { type: 'text', value: resolution.answer },
      },
    ],
  };
}
