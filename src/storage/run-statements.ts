import { Prisma } from '../generated/prisma/client.ts';
import type { SqlRunner } from './sql-client.ts';

/** A message on the path a fresh turn shows the model. */
export interface TurnPathRow {
  id: string;
  role: 'USER' | 'ASSISTANT';
  parts: unknown[];
  executionId: string | null;
  /** 1 for the path's last message, counting up towards the first. */
  depth: number;
  /** Whether the path ends at the parent of this execution's reply (else at the thread's active leaf). */
  fromReply: boolean;
}

/**
 * One statement: the last `limit` messages of the path that ends at the parent of this
 * execution's reply (a regenerated reply's parent is an earlier turn's message) or, for a run with
 * no reply yet, at the thread's active leaf; first to last. The walk up the tree stops there too,
 * so a long thread costs no more than a short one.
 */
export function turnPath(db: SqlRunner, threadId: string, executionId: string, limit: number): Promise<TurnPathRow[]> {
  return db.query<TurnPathRow>(Prisma.sql`
    WITH RECURSIVE reply AS (
      SELECT "parentId" FROM "message"
      WHERE "threadId" = ${threadId} AND "executionId" = ${executionId} AND "role" = 'ASSISTANT'
      ORDER BY "seq" DESC LIMIT 1
    ), start AS (
      SELECT CASE WHEN EXISTS (SELECT 1 FROM reply) THEN (SELECT "parentId" FROM reply)
                  ELSE (SELECT "activeLeafMessageId" FROM "thread" WHERE "id" = ${threadId}) END AS "id",
             EXISTS (SELECT 1 FROM reply) AS "fromReply"
    ), path AS (
      SELECT m."id", m."parentId", m."role", m."parts", m."executionId", 1 AS "depth"
      FROM "message" m JOIN start ON m."id" = start."id"
      UNION ALL
      SELECT p."id", p."parentId", p."role", p."parts", p."executionId", path."depth" + 1
      FROM "message" p JOIN path ON p."id" = path."parentId"
      WHERE path."depth" < ${limit}::int
    )
    SELECT path."id", path."role"::text AS "role", path."parts", path."executionId", path."depth"::int AS "depth", start."fromReply"
    FROM path, start
    ORDER BY path."depth" DESC`);
}

export interface StoredFileRow {
  filename: string;
  mediaType: string;
  /** The bytes, base64 (see docs/architecture.md). */
  dataBase64: string;
}

/** A message's files, in the order they were sent. */
export function messageFiles(db: SqlRunner, messageId: string): Promise<StoredFileRow[]> {
  return db.query<StoredFileRow>(Prisma.sql`
    SELECT "filename", "mediaType", "dataBase64" FROM "attachment" WHERE "messageId" = ${messageId} ORDER BY "createdAt", "id"`);
}

/** Whether any queued message is reserved for steering into this execution: asked at every step's end. */
export async function hasSteeringReserved(db: SqlRunner, executionId: string): Promise<boolean> {
  const [row] = await db.query<{ reserved: boolean }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "queue_item" WHERE "steeringExecutionId" = ${executionId}) AS "reserved"`);
  return row?.reserved ?? false;
}

/** Under the session lock: the messages reserved for this execution, in queue order, taken out of the queue. */
export function takeSteeringReserved(db: SqlRunner, executionId: string): Promise<{ id: string; text: string }[]> {
  return db.query<{ id: string; text: string }>(Prisma.sql`
    WITH taken AS (
      DELETE FROM "queue_item" WHERE "steeringExecutionId" = ${executionId} RETURNING "id", "text", "position"
    )
    SELECT "id", "text" FROM taken ORDER BY "position"`);
}

/** A running reply's parts as they stand: one plain statement, about once a second per reply. */
export async function writeReplyParts(db: SqlRunner, messageId: string, partsJson: string, at: Date): Promise<void> {
  await db.query(Prisma.sql`
    UPDATE "message" SET "parts" = ${partsJson}::jsonb, "streaming" = true, "updatedAt" = ${at}::timestamp(3) WHERE "id" = ${messageId}`);
}

/** A run's reply as last written (a resumed run's, or one an interruption ends). */
export async function recordedReply(db: SqlRunner, executionId: string): Promise<{ id: string; parts: unknown[] } | null> {
  const [row] = await db.query<{ id: string; parts: unknown[] }>(Prisma.sql`
    SELECT "id", "parts" FROM "message" WHERE "executionId" = ${executionId} AND "role" = 'ASSISTANT' ORDER BY "seq" DESC LIMIT 1`);
  return row ?? null;
}
