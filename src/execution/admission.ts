import { randomUUID } from 'node:crypto';
import type { Agent, Execution, PrismaClient, User } from '../generated/prisma/client.ts';
import { agentOf, AGENT_COLUMNS, type AgentRow } from '../db/agent-row.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { eventAppendCtes, eventRecords, firstSeqOf } from '../events/event-log.ts';
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
    private readonly prisma: PrismaClient,
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
      return await withSessionLock(this.prisma, threadId, async (tx) => {
        const head = await this.readHead(tx, threadId, new Date());
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
        const userMessageId = randomUUID();
        const assistantMessageId = randomUUID();
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
        const records = await this.start(tx, execution, [
          { id: userMessageId, role: 'USER', parts: userParts },
          { id: assistantMessageId, role: 'ASSISTANT', parts: replyParts },
        ], events);
        if (refusal) return { kind: 'refused', events: records } as const;
        return {
          kind: 'admitted',
          run: { execution, agent, user, handle: registered!, assistantMessageId, queuedAt: head.queuedAt },
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

  /** The queue's head and what admitting it needs to know; null when the thread is busy or its queue is empty. */
  private async readHead(tx: Tx, threadId: string, now: Date): Promise<QueueHeadRow | null> {
    const [head] = await tx.$queryRaw<QueueHeadRow[]>`
      SELECT q."id" AS "queueId", q."text", q."createdAt" AS "queuedAt", q."userId", u."email" AS "userEmail", u."locale"::text AS "userLocale",
             u."createdAt" AS "userCreatedAt", u."name" AS "userName", u."externalIssuer" AS "userExternalIssuer",
             u."externalSubject" AS "userExternalSubject", u."disabledAt" AS "userDisabledAt", ${AGENT_COLUMNS},
             COALESCE((
               SELECT jsonb_agg(jsonb_build_object('id', f."id", 'filename', f."filename", 'mediaType', f."mediaType", 'size', f."size")
                                ORDER BY f."createdAt", f."id")
               FROM "attachment" f WHERE f."queueItemId" = q."id"), '[]'::jsonb) AS "attachments",
             CASE WHEN a."maxConcurrentExecutions" IS NOT NULL THEN (
               SELECT count(*)::int FROM "execution" r
               WHERE r."agentId" = a."id" AND r."parentExecutionId" IS NULL AND r."status" IN ('RUNNING', 'SUSPENDED')) END AS "agentRunning",
             CASE WHEN a."dailyTokenBudget" IS NOT NULL THEN (
               SELECT COALESCE(sum(r."inputTokens" + r."outputTokens"), 0)::int FROM "execution" r
               WHERE r."agentId" = a."id" AND r."userId" = q."userId" AND r."createdAt" >= ${startOfUtcDay(now)}::timestamp(3)) END AS "tokensToday"
      FROM "thread" t
      JOIN "agent" a ON a."id" = t."agentId"
      JOIN LATERAL (
        SELECT * FROM "queue_item" WHERE "threadId" = t."id" AND "steeringExecutionId" IS NULL ORDER BY "position" ASC LIMIT 1
      ) q ON true
      JOIN "user" u ON u."id" = q."userId"
      WHERE t."id" = ${threadId}
        AND NOT EXISTS (
          SELECT 1 FROM "execution" e
          WHERE e."threadId" = t."id" AND e."parentExecutionId" IS NULL AND e."status" IN ('RUNNING', 'SUSPENDED'))`;
    return head ?? null;
  }

  /**
   * One statement: the execution, its messages (in order), the files moved from the item to the
   * user message, the item consumed, and the events appended (bumping the thread's counter).
   */
  private async start(
    tx: Tx,
    execution: Execution,
    messages: { id: string; role: 'USER' | 'ASSISTANT'; parts: MessagePart[] }[],
    events: NewThreadEvent[],
  ): Promise<ThreadEvent[]> {
    const now = execution.createdAt;
    const userMessageId = messages[0]!.id;
    const [row] = await tx.$queryRaw<{ firstSeq: number | null }[]>`
      WITH created AS (
        INSERT INTO "execution" ("id", "threadId", "agentId", "userId", "queueItemId", "acceptedText", "status", "refusalKey",
                                 "ownerInstanceId", "acceptsSteering", "startedAt", "finishedAt", "createdAt", "updatedAt")
        VALUES (${execution.id}, ${execution.threadId}, ${execution.agentId}, ${execution.userId}, ${execution.queueItemId},
                ${execution.acceptedText}, ${execution.status}::"ExecutionStatus", ${execution.refusalKey}::text,
                ${execution.ownerInstanceId}::text, ${execution.acceptsSteering}, ${now}::timestamp(3),
                ${execution.finishedAt}::timestamp(3), ${now}::timestamp(3), ${now}::timestamp(3))
        RETURNING "id"
      ), messages AS (
        INSERT INTO "message" ("id", "threadId", "executionId", "role", "parts", "createdAt", "updatedAt")
        SELECT m.row->>'id', ${execution.threadId}, created."id", (m.row->>'role')::"MessageRole", m.row->'parts',
               ${now}::timestamp(3), ${now}::timestamp(3)
        FROM created, jsonb_array_elements(${JSON.stringify(messages)}::jsonb) WITH ORDINALITY AS m(row, ord)
        ORDER BY m.ord
        RETURNING "id"
      ), files AS (
        UPDATE "attachment" SET "queueItemId" = NULL, "messageId" = ${userMessageId}
        WHERE "queueItemId" = ${execution.queueItemId} AND EXISTS (SELECT 1 FROM messages)
      ), consumed AS (
        DELETE FROM "queue_item" WHERE "id" = ${execution.queueItemId} AND EXISTS (SELECT 1 FROM created)
      ), ${eventAppendCtes(execution.threadId, events, now)}
      SELECT min("seq")::int AS "firstSeq" FROM appended`;
    return eventRecords(execution.threadId, firstSeqOf(execution.threadId, row?.firstSeq), now, events);
  }
}

interface QueueHeadRow extends AgentRow {
  queueId: string;
  text: string;
  queuedAt: Date;
  userId: string;
  userEmail: string | null;
  userLocale: User['locale'];
  userCreatedAt: Date;
  userName: string | null;
  userExternalIssuer: string | null;
  userExternalSubject: string | null;
  userDisabledAt: Date | null;
  attachments: { id: string; filename: string; mediaType: string; size: number }[];
  /** Top-level runs of the agent now, when the agent has a concurrency limit. */
  agentRunning: number | null;
  /** Tokens the user's runs of the agent used today, when the agent has a daily budget. */
  tokensToday: number | null;
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
