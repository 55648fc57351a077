import { randomUUID } from 'node:crypto';
import type { Agent, Execution, User } from '../generated/prisma/client.ts';
import { agentOf } from '../storage/agent-row.ts';
import type { BudgetRow } from '../storage/budget-statements.ts';
import { queueHead, startExecution, type NewMessageRow, type QueueHeadRow } from '../storage/admission-statements.ts';
import { withThreadLock } from '../storage/session-lock.ts';
import type { SqlClient, SqlRunner } from '../storage/sql-client.ts';
import { assertDurable, eventRecords, firstSeqOf } from '../events/event-log.ts';
import type { NewThreadEvent, ThreadEvent } from '../events/thread-event.ts';
import { translate, type Locale, type MessageKey } from '../i18n/catalog.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { RunningExecution, RunningExecutions } from './running-executions.ts';
import type { RunOwner, RunSlots, SlotCap } from './run-slots.ts';
import { startOfUtcDay } from './token-budget.ts';

export interface AdmittedRun {
  execution: Execution;
  agent: Agent;
  user: User;
  handle: RunningExecution;
  /** When its message was queued (a resumed run has none). */
  queuedAt?: Date;
  /** The reply's message, created (empty) with the execution at admission; absent for a resumed run. */
  assistantMessageId?: string;
  /** The budgets in money that bind it, read at admission; a resumed run reads them when it starts. */
  budgets?: BudgetRow[];
  /** Whether an AG-UI client offered the thread's turns anything, read at admission; a resumed run looks it up. */
  clientOffered?: boolean;
}

export type AdmissionResult =
  | { kind: 'admitted'; run: AdmittedRun; events: ThreadEvent[] }
  | { kind: 'refused'; events: ThreadEvent[] }
  /** A run slot of this instance was not free for the head's user or project: nothing changed, it stays queued. */
  | { kind: 'deferred'; cap: SlotCap; owner: RunOwner }
  | { kind: 'idle' };

/**
 * Claims the head of a thread's queue and creates its execution. All of it happens under the
 * thread's session lock, which is released only after the cancellation handle is registered, and
 * before any model or tool call.
 */
export class Admission {
  constructor(
    /** The driver under Prisma: admission is on every turn's path (src/storage/). */
    private readonly sql: SqlClient,
    private readonly running: RunningExecutions,
    private readonly instanceId: string,
  ) {}

  /**
   * A short transaction: the session lock, one read (the active execution, the queue's head with
   * its user, agent, files and the run limits' counts), then one statement that creates the
   * execution, the user message and the reply's assistant message, moves the files, consumes the
   * item and appends the events. Then COMMIT. A head whose run would find no slot in `slots` (for
   * this instance, its user or its project) is left queued; an admitted run keeps its slot.
   */
  async admitNext(threadId: string, slots: RunSlots): Promise<AdmissionResult> {
    let registered: RunningExecution | null = null;
    let slotOwner: RunOwner | null = null;
    try {
      return await withThreadLock(this.sql, threadId, async (tx) => {
        const head = await queueHead(tx, threadId, startOfUtcDay(new Date()));
        if (!head) return { kind: 'idle' } as const;
        const agent = agentOf(head);
        const user: User = {
          id: head.userId,
          email: head.userEmail,
          locale: head.userLocale,
          createdAt: head.userCreatedAt,
          name: head.userName,
          externalIssuer: head.userExternalIssuer,
          externalSubject: head.userExternalSubject,
          disabledAt: head.userDisabledAt,
        };
        const refusal = runLimitRefusal(agent, head);
        if (!refusal) {
          const owner = { userId: head.userId, projectId: agent.projectId };
          const cap = slots.tryTake(owner);
          if (cap) return { kind: 'deferred', cap, owner } as const;
          slotOwner = owner;
        }
        const now = new Date();
        const execution: Execution = {
          id: randomUUID(),
          threadId,
          agentId: agent.id,
          userId: head.userId,
          parentExecutionId: null,
          queueItemId: head.queueId,
          status: refusal ? 'REFUSED' : 'RUNNING',
          ownerInstanceId: refusal ? null : this.instanceId,
          acceptsSteering: !refusal,
          acceptedText: head.text,
          cancelRequestedAt: null,
          inputTokens: 0,
          outputTokens: 0,
          error: null,
          errorReason: null,
          refusalKey: refusal?.key ?? null,
          createdAt: now,
          startedAt: now,
          finishedAt: refusal ? now : null,
          updatedAt: now,
        };
        // An edit's turn is a sibling of the edited message; a regeneration's reply one of the replaced
        // reply, under the same user message; any other turn follows the thread's active leaf.
        const regenerates = head.siblingRole === 'ASSISTANT';
        const userParentId = head.siblingOfMessageId !== null ? head.siblingParentId : head.activeLeafMessageId;
        const userMessageId = regenerates ? head.siblingParentId! : randomUUID();
        const assistantMessageId = randomUUID();
        // The stamp of the ExecutionStarted appended below: these messages were made active by it.
        const activeSeq = head.lastEventSeq + 1;
        const userParts: MessagePart[] = [
          { type: 'text', text: head.text },
          ...head.attachments.map(({ id, filename, mediaType, size }) => ({ type: 'attachment' as const, attachmentId: id, filename, mediaType, size })),
        ];
        const replyParts: MessagePart[] = refusal
          ? [{ type: 'text', text: translate(user.locale as Locale, refusal.key, refusal.params) }]
          : [];
        const events: NewThreadEvent[] = [
          {
            executionId: execution.id,
            payload: { type: 'ExecutionStarted', acceptedText: head.text, userMessageId, queueId: head.queueId },
          },
          { executionId: null, payload: { type: 'QueueUpdated' } },
          ...(refusal ? [{ executionId: execution.id, payload: { type: 'ExecutionFinished' as const, status: 'REFUSED' as const } }] : []),
        ];
        if (!refusal) registered = this.running.register(execution.id, threadId);
        const reply = { id: assistantMessageId, role: 'ASSISTANT' as const, parts: replyParts, parentId: userMessageId, activeSeq };
        const records = await this.start(
          tx,
          execution,
          regenerates ? [reply] : [{ id: userMessageId, role: 'USER', parts: userParts, parentId: userParentId, activeSeq }, reply],
          userMessageId,
          events,
        );
        if (refusal) return { kind: 'refused', events: records } as const;
        return {
          kind: 'admitted',
          run: { execution, agent, user, handle: registered!, assistantMessageId, queuedAt: head.queuedAt, budgets: head.budgets, clientOffered: head.clientOffered },
          events: records,
        } as const;
      });
    } catch (error) {
      // The transaction did not commit: no execution exists, so its handle and slot must not either.
      if (registered) this.running.unregister((registered as RunningExecution).executionId);
      if (slotOwner) slots.release(slotOwner as RunOwner);
      throw error;
    }
  }

  /** The execution, its messages and events, in one statement (src/storage/admission-statements.ts). */
  private async start(
    tx: SqlRunner,
    execution: Execution,
    messages: NewMessageRow[],
    userMessageId: string,
    events: NewThreadEvent[],
  ): Promise<ThreadEvent[]> {
    assertDurable(events);
    const firstSeq = await startExecution(tx, execution, messages, userMessageId, events);
    return eventRecords(execution.threadId, firstSeqOf(execution.threadId, firstSeq), execution.createdAt, events);
  }
}

/** The run limit the head's turn would break, if any. */
function runLimitRefusal(agent: Agent, head: QueueHeadRow): { key: MessageKey; params: Record<string, number> } | null {
  // Queued before an admin disabled the user: it is not run for them.
  if (head.userDisabledAt) return { key: 'refusal.user_disabled', params: {} };
  if (agent.maxConcurrentExecutions !== null && (head.agentRunning ?? 0) >= agent.maxConcurrentExecutions) {
    return { key: 'refusal.concurrency', params: { limit: agent.maxConcurrentExecutions } };
  }
  if (agent.dailyTokenBudget !== null && (head.tokensToday ?? 0) >= agent.dailyTokenBudget) {
    return { key: 'refusal.budget', params: { budget: agent.dailyTokenBudget } };
  }
  return null;
}
