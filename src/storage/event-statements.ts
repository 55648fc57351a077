import { Prisma } from '../generated/prisma/client.ts';
import type { SqlRunner, Statement } from './sql-client.ts';

/** An event to append to a thread's log; its payload is JSON whose `type` names it. */
export interface EventToAppend {
  executionId: string | null;
  parentExecutionId?: string | null;
  payload: { type: string };
}

/** An event as the log holds it. */
export interface LoggedEventRow {
  seq: number;
  executionId: string | null;
  parentExecutionId: string | null;
  createdAt: Date;
  payload: unknown;
}

/**
 * The event append as two common table expressions, `bumped` and `appended` (the new seqs), for
 * statements that write other rows with it (admission, the settlement) and so stay one statement.
 * The seq comes from a counter on the thread row, so seq order is commit order: a subscriber that
 * sees seq n+2 knows n+1 is already committed. Bumping it takes the thread's row lock (the session
 * lock).
 */
export function eventAppendCtes(
  threadId: string,
  events: readonly EventToAppend[],
  createdAt: Date,
  /** More `, "column" = value` assignments to the thread row: a statement may update that row only once. */
  alsoSetOnThread: Statement = Prisma.empty,
): Statement {
  const rows = JSON.stringify(
    events.map((event) => ({
      type: event.payload.type,
      executionId: event.executionId,
      parentExecutionId: event.parentExecutionId ?? null,
      payload: event.payload,
    })),
  );
  return Prisma.sql`bumped AS (
      UPDATE "thread" SET "lastEventSeq" = "lastEventSeq" + ${events.length}::int, "updatedAt" = ${createdAt}::timestamp(3)${alsoSetOnThread}
      WHERE "id" = ${threadId} AND ${events.length}::int > 0
      RETURNING "lastEventSeq"
    ), appended AS (
      INSERT INTO "thread_event" ("threadId", "seq", "type", "executionId", "parentExecutionId", "payload", "createdAt")
      SELECT ${threadId}, bumped."lastEventSeq" - ${events.length}::int + e.ord::int, e.row->>'type', e.row->>'executionId',
             e.row->>'parentExecutionId', e.row->'payload', ${createdAt}::timestamp(3)
      FROM bumped, jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS e(row, ord)
      RETURNING "seq"
    )`;
}

/** One statement: the events appended; the first new seq, or null when the thread does not exist. */
export async function appendEvents(db: SqlRunner, threadId: string, events: readonly EventToAppend[], createdAt: Date): Promise<number | null> {
  const [row] = await db.query<{ firstSeq: number | null }>(Prisma.sql`
    WITH ${eventAppendCtes(threadId, events, createdAt)}
    SELECT min("seq")::int AS "firstSeq" FROM appended`);
  return row?.firstSeq ?? null;
}

/** The log's events after `afterSeq` (up to `untilSeq`), in seq order. */
export function readEvents(db: SqlRunner, threadId: string, afterSeq: number, untilSeq: number | null): Promise<LoggedEventRow[]> {
  return db.query<LoggedEventRow>(Prisma.sql`
    SELECT "seq", "executionId", "parentExecutionId", "createdAt", "payload" FROM "thread_event"
    WHERE "threadId" = ${threadId} AND "seq" > ${afterSeq}::int AND (${untilSeq}::int IS NULL OR "seq" <= ${untilSeq}::int)
    ORDER BY "seq"`);
}
