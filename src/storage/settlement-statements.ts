import { Prisma } from '../generated/prisma/client.ts';
import { eventAppendCtes, type EventToAppend } from './event-statements.ts';
import { modelCallInsertCte, type ModelCallToWrite } from './model-call-statements.ts';
import type { SqlRunner } from './sql-client.ts';

/** What a run's settlement reads under the thread's session lock. */
export interface SettlementFactsRow {
  /** Null when the execution's row is gone. */
  status: string | null;
  reserved: boolean;
  queued: boolean;
  cancelRequested: boolean;
}

/** One read: the execution's status and Stop, whether messages are reserved for it, and whether one waits in the queue. */
export async function settlementFacts(db: SqlRunner, threadId: string, executionId: string): Promise<SettlementFactsRow> {
  const [row] = await db.query<SettlementFactsRow>(Prisma.sql`
    SELECT e."status"::text AS "status", e."cancelRequestedAt" IS NOT NULL AS "cancelRequested",
           EXISTS (SELECT 1 FROM "queue_item" WHERE "steeringExecutionId" = ${executionId}) AS "reserved",
           EXISTS (SELECT 1 FROM "queue_item" WHERE "threadId" = ${threadId} AND "steeringExecutionId" IS NULL) AS "queued"
    FROM (SELECT 1) AS one LEFT JOIN "execution" e ON e."id" = ${executionId}`);
  return row!;
}

/** Everything a run's end writes. */
export interface EndToWrite {
  threadId: string;
  executionId: string;
  status: string;
  finishedAt: Date | null;
  usage: { inputTokens: number; outputTokens: number };
  /** The failure as stored on the execution (JSON), and its reason. */
  failure: { reason: string } | null;
  reply: { messageId: string; parts: unknown[] } | null;
  releaseReservations: boolean;
  interruptChildren: boolean;
  card: { id: string; kind: string; toolCallId: string; toolName: string; payload: unknown; checkpoint: unknown } | null;
  events: readonly EventToAppend[];
  /** The run's model calls not recorded yet (those since its last boundary). */
  modelCalls: readonly ModelCallToWrite[];
  at: Date;
}

/**
 * The settlement's one statement: the execution's end, the reply's final parts, reservations
 * returned, children interrupted, a suspension's card, the model calls, and the events. The first new seq.
 */
export async function writeEnd(db: SqlRunner, end: EndToWrite): Promise<number | null> {
  const { threadId, executionId, at, card } = end;
  const [row] = await db.query<{ firstSeq: number | null }>(Prisma.sql`
    WITH ended AS (
      UPDATE "execution"
      SET "status" = ${end.status}::"ExecutionStatus", "acceptsSteering" = false, "finishedAt" = ${end.finishedAt}::timestamp(3),
          "error" = COALESCE(${end.failure ? JSON.stringify(end.failure) : null}::jsonb, "error"),
          "errorReason" = COALESCE(${end.failure?.reason ?? null}::text, "errorReason"),
          "inputTokens" = "inputTokens" + ${end.usage.inputTokens}::int,
          "outputTokens" = "outputTokens" + ${end.usage.outputTokens}::int,
          "updatedAt" = ${at}::timestamp(3)
      WHERE "id" = ${executionId}
    ), reply AS (
      UPDATE "message" SET "parts" = ${JSON.stringify(end.reply?.parts ?? [])}::jsonb, "streaming" = false, "updatedAt" = ${at}::timestamp(3)
      WHERE "id" = ${end.reply?.messageId ?? null}::text
    ), released AS (
      UPDATE "queue_item" SET "steeringExecutionId" = NULL
      WHERE "steeringExecutionId" = ${executionId} AND ${end.releaseReservations}::boolean
    ), children AS (
      UPDATE "execution" SET "status" = 'INTERRUPTED', "finishedAt" = ${at}::timestamp(3), "updatedAt" = ${at}::timestamp(3)
      WHERE "parentExecutionId" = ${executionId} AND "status" IN ('RUNNING', 'SUSPENDED') AND ${end.interruptChildren}::boolean
    ), card AS (
      INSERT INTO "suspension" ("id", "threadId", "executionId", "toolCallId", "toolName", "kind", "payload", "checkpoint", "createdAt")
      SELECT ${card?.id ?? null}::text, ${threadId}, ${executionId}, ${card?.toolCallId ?? null}::text, ${card?.toolName ?? null}::text,
             ${card?.kind ?? null}::"SuspensionKind", ${JSON.stringify(card?.payload ?? null)}::jsonb, ${JSON.stringify(card?.checkpoint ?? null)}::jsonb,
             ${at}::timestamp(3)
      WHERE ${card !== null}::boolean
    ), ${modelCallInsertCte(end.modelCalls)}, ${eventAppendCtes(threadId, end.events, at)}
    SELECT min("seq")::int AS "firstSeq" FROM appended`);
  return row?.firstSeq ?? null;
}
