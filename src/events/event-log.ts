import { Prisma } from '../generated/prisma/client.ts';
import { TRANSIENT_EVENT_TYPES, type NewThreadEvent, type ThreadEvent } from './thread-event.ts';

type Tx = Prisma.TransactionClient;
/** A transaction or the client itself: a single statement needs no transaction of its own. */
type Db = Pick<Tx, '$queryRaw'>;

/**
 * Appends durable events to a thread's log, inside the caller's transaction or as a statement of
 * its own. The seq comes from a counter on the thread row, so seq order is commit order: a
 * subscriber that sees seq n+2 knows n+1 is already committed and can read it. One statement bumps
 * the counter (taking the thread's row lock, the session lock) and inserts the events.
 */
export async function appendThreadEvents(db: Db, threadId: string, events: NewThreadEvent[]): Promise<ThreadEvent[]> {
  if (events.length === 0) return [];
  const createdAt = new Date();
  const [appended] = await db.$queryRaw<{ firstSeq: number | null }[]>`
    WITH ${eventAppendCtes(threadId, events, createdAt)}
    SELECT min("seq")::int AS "firstSeq" FROM appended`;
  return eventRecords(threadId, firstSeqOf(threadId, appended?.firstSeq), createdAt, events);
}

/**
 * The event append as two common table expressions, `bumped` and `appended` (the new seqs), for
 * statements that write other rows with it (admission, the settlement) and so stay one statement.
 */
export function eventAppendCtes(
  threadId: string,
  events: NewThreadEvent[],
  createdAt: Date,
  /** More `, "column" = value` assignments to the thread row: a statement may update that row only once. */
  alsoSetOnThread: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  for (const event of events) {
    if (TRANSIENT_EVENT_TYPES.has(event.payload.type)) throw new Error(`${event.payload.type} is not a durable event`);
  }
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

/** The first seq an append answered; none means the thread does not exist (and nothing was written). */
export function firstSeqOf(threadId: string, firstSeq: number | null | undefined): number {
  if (firstSeq === null || firstSeq === undefined) throw new Error(`thread ${threadId} does not exist`);
  return firstSeq;
}

/** The records of events appended from `firstSeq` on, as subscribers receive them. */
export function eventRecords(threadId: string, firstSeq: number, createdAt: Date, events: NewThreadEvent[]): ThreadEvent[] {
  return events.map((event, index) => ({
    threadId,
    seq: firstSeq + index,
    executionId: event.executionId,
    parentExecutionId: event.parentExecutionId ?? null,
    createdAt: createdAt.toISOString(),
    payload: event.payload,
  }));
}

export async function readThreadEvents(
  db: Tx,
  threadId: string,
  afterSeq: number,
  untilSeq?: number,
): Promise<ThreadEvent[]> {
  const rows = await db.threadEvent.findMany({
    where: { threadId, seq: { gt: afterSeq, ...(untilSeq !== undefined ? { lte: untilSeq } : {}) } },
    orderBy: { seq: 'asc' },
  });
  return rows.map((row) => ({
    threadId,
    seq: row.seq,
    executionId: row.executionId,
    parentExecutionId: row.parentExecutionId,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload as unknown as ThreadEvent['payload'],
  }));
}
