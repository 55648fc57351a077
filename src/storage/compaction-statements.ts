import { Prisma } from '../generated/prisma/client.ts';
import { eventAppendCtes, type EventToAppend } from './event-statements.ts';
import type { SqlRunner } from './sql-client.ts';

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
