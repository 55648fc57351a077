import { Prisma } from '../generated/prisma/client.ts';
import type { LoggedEventRow } from './event-statements.ts';
import type { SqlRunner } from './sql-client.ts';

export interface QueueItemToInsert {
  /** At the tail (a new message), or below the current head (a retry, an edit's or a regeneration's turn). */
  at: 'tail' | 'head';
  queueId: string;
  threadId: string;
  userId: string;
  text: string;
  idempotencyKey: string | null;
  /** An edit's or a regeneration's turn: the message its new message will be a sibling of. */
  siblingOfMessageId: string | null;
  /** The thread's title when it has none yet. */
  title: string;
  files: { id: string; filename: string; mediaType: string; size: number; dataBase64: string }[];
  /** Its MessageQueued event's payload. */
  payload: { type: 'MessageQueued' };
  maxQueuedPerThread: number;
  createdAt: Date;
}

/**
 * The one statement that inserts a queue item: locks the thread row (the session lock) while
 * bumping its event counter (and, at the tail, its tail position), inserts the item, its files and
 * its MessageQueued event. The seq of that event, or null when nothing was written (the queue is
 * full, or the thread is gone). A key sent before fails on its unique index (23505).
 */
export async function insertQueueItem(db: SqlRunner, item: QueueItemToInsert): Promise<number | null> {
  const { threadId, createdAt } = item;
  const atTail = item.at === 'tail';
  const [row] = await db.query<{ seq: number }>(Prisma.sql`
    WITH locked AS (
      UPDATE "thread"
      SET "lastEventSeq" = "lastEventSeq" + 1, "queueTailPosition" = "queueTailPosition" + ${atTail ? 1 : 0}::int, "updatedAt" = ${createdAt}::timestamp(3),
          "lastActivityAt" = ${createdAt}::timestamp(3),
          "title" = CASE WHEN "title" = '' THEN ${item.title}::text ELSE "title" END
      WHERE "id" = ${threadId}
        AND (SELECT count(*) FROM "queue_item" WHERE "threadId" = ${threadId}) < ${item.maxQueuedPerThread}::int
      RETURNING "lastEventSeq", "queueTailPosition"
    ), item AS (
      INSERT INTO "queue_item" ("id", "threadId", "userId", "text", "position", "idempotencyKey", "siblingOfMessageId", "createdAt", "updatedAt")
      SELECT ${item.queueId}::text, ${threadId}::text, ${item.userId}::text, ${item.text}::text,
             CASE WHEN ${atTail}::boolean THEN locked."queueTailPosition"
                  ELSE (SELECT COALESCE(MIN(head."position"), 1) - 1 FROM "queue_item" head WHERE head."threadId" = ${threadId}) END,
             ${item.idempotencyKey}::text, ${item.siblingOfMessageId}::text,
             ${createdAt}::timestamp(3), ${createdAt}::timestamp(3)
      FROM locked
      RETURNING "id"
    ), files AS (
      INSERT INTO "attachment" ("id", "queueItemId", "filename", "mediaType", "size", "dataBase64", "createdAt")
      -- One millisecond apart: readers order a message's files by createdAt, so they keep the order they were sent in.
      SELECT f.value->>'id', item."id", f.value->>'filename', f.value->>'mediaType', (f.value->>'size')::int, f.value->>'dataBase64',
             ${createdAt}::timestamp(3) + (f.n - 1) * interval '1 millisecond'
      FROM item, jsonb_array_elements(${JSON.stringify(item.files)}::jsonb) WITH ORDINALITY AS f(value, n)
    )
    INSERT INTO "thread_event" ("threadId", "seq", "type", "payload", "createdAt")
    SELECT ${threadId}::text, locked."lastEventSeq", 'MessageQueued', ${JSON.stringify(item.payload)}::jsonb, ${createdAt}::timestamp(3)
    FROM locked, item
    RETURNING "seq"`);
  return row?.seq ?? null;
}

/** The MessageQueued event of an idempotency key (one probe of the partial unique index on the key, migration 0006). */
export async function queuedEventForKey(db: SqlRunner, threadId: string, idempotencyKey: string): Promise<LoggedEventRow | null> {
  const [row] = await db.query<LoggedEventRow>(Prisma.sql`
    SELECT "seq", "executionId", "parentExecutionId", "createdAt", "payload" FROM "thread_event"
    WHERE "threadId" = ${threadId} AND "type" = 'MessageQueued' AND "payload"->>'idempotencyKey' = ${idempotencyKey}`);
  return row ?? null;
}

export async function countQueued(db: SqlRunner, threadId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS "n" FROM "queue_item" WHERE "threadId" = ${threadId}`);
  return row?.n ?? 0;
}

/**
 * The bytes of every file a user has stored: sent and queued with their messages, and kept from
 * tool results in the replies of their turns.
 */
export async function storedAttachmentBytes(db: SqlRunner, userId: string): Promise<number> {
  const [row] = await db.query<{ bytes: number }>(Prisma.sql`
    SELECT COALESCE(sum(f."size"), 0)::float8 AS "bytes"
    FROM "attachment" f
    LEFT JOIN "queue_item" q ON q."id" = f."queueItemId"
    LEFT JOIN "message" m ON m."id" = f."messageId"
    LEFT JOIN "execution" e ON e."id" = m."executionId"
    WHERE q."userId" = ${userId} OR e."userId" = ${userId}`);
  return Number(row?.bytes ?? 0);
}
