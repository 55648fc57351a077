import { Prisma, type Execution, type User } from '../generated/prisma/client.ts';
import { AGENT_COLUMNS, type AgentRow } from './agent-row.ts';
import type { BudgetRow } from './budget-statements.ts';
import { eventAppendCtes, type EventToAppend } from './event-statements.ts';
import type { SqlRunner } from './sql-client.ts';

export interface QueueHeadRow extends AgentRow {
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
  /** The thread's active leaf and event counter, read under the session lock. */
  activeLeafMessageId: string | null;
  lastEventSeq: number;
  /** An edit's or regeneration's item: the message its turn is a sibling of, that message's role and parent. */
  siblingOfMessageId: string | null;
  siblingRole: 'USER' | 'ASSISTANT' | null;
  siblingParentId: string | null;
  /** Top-level runs of the agent now, when the agent has a concurrency limit. */
  agentRunning: number | null;
  /** Tokens the user's runs of the agent used since `dayStart`, when the agent has a daily budget. */
  tokensToday: number | null;
  /** The budgets in money that bind a run of the agent (read here so that a turn checks them without a statement of its own). */
  budgets: BudgetRow[];
  /** Whether an AG-UI client ever offered the thread's turns tools or context (most threads: no, and no look-up follows). */
  clientOffered: boolean;
}

/**
 * The queue's head and what admitting it needs to know, read under the session lock; null when
 * the thread runs an execution or its queue is empty.
 */
export async function queueHead(db: SqlRunner, threadId: string, dayStart: Date): Promise<QueueHeadRow | null> {
  const [head] = await db.query<QueueHeadRow>(Prisma.sql`
    SELECT q."id" AS "queueId", q."text", q."createdAt" AS "queuedAt", q."userId", u."email" AS "userEmail", u."locale"::text AS "userLocale",
           u."createdAt" AS "userCreatedAt", u."name" AS "userName", u."externalIssuer" AS "userExternalIssuer",
           u."externalSubject" AS "userExternalSubject", u."disabledAt" AS "userDisabledAt", ${AGENT_COLUMNS},
           t."activeLeafMessageId", t."lastEventSeq", q."siblingOfMessageId", s."role"::text AS "siblingRole", s."parentId" AS "siblingParentId",
           COALESCE((
             SELECT jsonb_agg(jsonb_build_object('id', f."id", 'filename', f."filename", 'mediaType', f."mediaType", 'size', f."size")
                              ORDER BY f."createdAt", f."id")
             FROM "attachment" f WHERE f."queueItemId" = q."id"), '[]'::jsonb) AS "attachments",
           CASE WHEN a."maxConcurrentExecutions" IS NOT NULL THEN (
             SELECT count(*)::int FROM "execution" r
             WHERE r."agentId" = a."id" AND r."parentExecutionId" IS NULL AND r."status" IN ('RUNNING', 'SUSPENDED')) END AS "agentRunning",
           CASE WHEN a."dailyTokenBudget" IS NOT NULL THEN (
             SELECT COALESCE(sum(r."inputTokens" + r."outputTokens"), 0)::int FROM "execution" r
             WHERE r."agentId" = a."id" AND r."userId" = q."userId" AND r."createdAt" >= ${dayStart}::timestamp(3)) END AS "tokensToday",
           COALESCE((
             SELECT jsonb_agg(jsonb_build_object('id', b."id", 'projectId', b."projectId", 'agentId', b."agentId", 'perUser', b."perUser",
                                                 'period', b."period", 'amount', b."amount"::text, 'warnAtPercent', b."warnAtPercent")
                              ORDER BY b."createdAt", b."id")
             FROM "budget" b WHERE b."projectId" = a."projectId" AND (b."agentId" IS NULL OR b."agentId" = a."id")), '[]'::jsonb) AS "budgets",
           EXISTS (SELECT 1 FROM "ag_ui_turn" o WHERE o."threadId" = t."id") AS "clientOffered"
    FROM "thread" t
    JOIN "agent" a ON a."id" = t."agentId"
    JOIN LATERAL (
      SELECT * FROM "queue_item" WHERE "threadId" = t."id" AND "steeringExecutionId" IS NULL ORDER BY "position" ASC LIMIT 1
    ) q ON true
    JOIN "user" u ON u."id" = q."userId"
    LEFT JOIN "message" s ON s."id" = q."siblingOfMessageId"
    WHERE t."id" = ${threadId}
      AND NOT EXISTS (
        SELECT 1 FROM "execution" e
        WHERE e."threadId" = t."id" AND e."parentExecutionId" IS NULL AND e."status" IN ('RUNNING', 'SUSPENDED'))`);
  return head ?? null;
}

export interface NewMessageRow {
  id: string;
  role: 'USER' | 'ASSISTANT';
  parts: unknown[];
  parentId: string | null;
  activeSeq: number;
}

/**
 * One statement: the execution, its messages (in order, the last becoming the thread's active
 * leaf), the files moved from the item to the user message, the item consumed, and the events
 * appended (bumping the thread's counter). The first new seq.
 */
export async function startExecution(
  db: SqlRunner,
  execution: Execution,
  messages: NewMessageRow[],
  userMessageId: string,
  events: readonly EventToAppend[],
): Promise<number | null> {
  const now = execution.createdAt;
  const leafId = messages.at(-1)!.id;
  const [row] = await db.query<{ firstSeq: number | null }>(Prisma.sql`
    WITH created AS (
      INSERT INTO "execution" ("id", "threadId", "agentId", "userId", "queueItemId", "acceptedText", "status", "refusalKey",
                               "ownerInstanceId", "acceptsSteering", "startedAt", "finishedAt", "createdAt", "updatedAt")
      VALUES (${execution.id}, ${execution.threadId}, ${execution.agentId}, ${execution.userId}, ${execution.queueItemId},
              ${execution.acceptedText}, ${execution.status}::"ExecutionStatus", ${execution.refusalKey}::text,
              ${execution.ownerInstanceId}::text, ${execution.acceptsSteering}, ${now}::timestamp(3),
              ${execution.finishedAt}::timestamp(3), ${now}::timestamp(3), ${now}::timestamp(3))
      RETURNING "id"
    ), messages AS (
      INSERT INTO "message" ("id", "threadId", "executionId", "role", "parts", "parentId", "activeSeq", "createdAt", "updatedAt")
      SELECT m.row->>'id', ${execution.threadId}, created."id", (m.row->>'role')::"MessageRole", m.row->'parts',
             m.row->>'parentId', (m.row->>'activeSeq')::int, ${now}::timestamp(3), ${now}::timestamp(3)
      FROM created, jsonb_array_elements(${JSON.stringify(messages)}::jsonb) WITH ORDINALITY AS m(row, ord)
      ORDER BY m.ord
      RETURNING "id"
    ), files AS (
      UPDATE "attachment" SET "queueItemId" = NULL, "messageId" = ${userMessageId}
      WHERE "queueItemId" = ${execution.queueItemId} AND EXISTS (SELECT 1 FROM messages)
    ), consumed AS (
      DELETE FROM "queue_item" WHERE "id" = ${execution.queueItemId} AND EXISTS (SELECT 1 FROM created)
    ), ${eventAppendCtes(execution.threadId, events, now, Prisma.sql`, "activeLeafMessageId" = ${leafId}, "lastActivityAt" = ${now}::timestamp(3)`)}
    SELECT min("seq")::int AS "firstSeq" FROM appended`);
  return row?.firstSeq ?? null;
}
