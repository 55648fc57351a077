import { Prisma } from '../generated/prisma/client.ts';
import { eventAppendCtes, type EventToAppend } from './event-statements.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';

/**
 * One statement: a message's parts with a compaction made or undone, and its event. Only a turn
 * whose history passed its agent's threshold, or a compaction by hand, runs it.
 */
export async function writeCompaction(
  db: SqlRunner,
  threadId: string,
  holderMessageId: string,
  partsJson: string,
  events: readonly EventToAppend[],
  at: Date,
): Promise<number | null> {
  const [row] = await db.query<{ firstSeq: number | null }>(Prisma.sql`
    WITH ${eventAppendCtes(threadId, events, at)}, written AS (
      UPDATE "message" SET "parts" = ${partsJson}::jsonb, "updatedAt" = ${at}::timestamp(3)
      WHERE "id" = ${holderMessageId} AND "threadId" = ${threadId} RETURNING "id"
    )
    SELECT min("seq")::int AS "firstSeq" FROM appended, written`);
  return row?.firstSeq ?? null;
}

/** What a compaction was planned on; its write is refused when the thread moved on since. */
export interface CompactionBasis {
  /** The holder's parts as read: a compaction made or undone since (by another request) refuses this one. */
  holderParts: unknown;
  /** A compaction by hand: also refused when a run is active on the thread, or its active leaf moved from this one. */
  byHand: { leafMessageId: string | null } | null;
}

/**
 * `writeCompaction`, only if the thread is as the compaction found it. The thread's row is locked
 * first: a turn's admission bumps it too, so a run admitted before this write is seen here, and
 * one admitted after it waits for it. Null (nothing written) when the thread moved on.
 */
export async function writeCompactionIfUnchanged(
  db: SqlClient,
  threadId: string,
  holderMessageId: string,
  partsJson: string,
  events: readonly EventToAppend[],
  at: Date,
  basis: CompactionBasis,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const byHand = basis.byHand !== null;
    const [found] = await tx.query<{ unchanged: boolean }>(Prisma.sql`
      SELECT (m."parts" = ${JSON.stringify(basis.holderParts)}::jsonb
        AND (NOT ${byHand}::boolean OR (
          t."activeLeafMessageId" IS NOT DISTINCT FROM ${basis.byHand?.leafMessageId ?? null}::text
          AND NOT EXISTS (SELECT 1 FROM "execution" e WHERE e."threadId" = t."id" AND e."parentExecutionId" IS NULL AND e."status" IN ('RUNNING', 'SUSPENDED'))
        ))) AS "unchanged"
      FROM "thread" t JOIN "message" m ON m."id" = ${holderMessageId} AND m."threadId" = t."id"
      WHERE t."id" = ${threadId}
      FOR UPDATE OF t`);
    if (!found?.unchanged) return null;
    return writeCompaction(tx, threadId, holderMessageId, partsJson, events, at);
  });
}
