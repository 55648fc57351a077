import type { Prisma } from '../generated/prisma/client.ts';

/** A transaction or the client itself: each read here is one statement. */
type Db = Pick<Prisma.TransactionClient, '$queryRaw'>;

/**
 * The ids of the messages from the first one down to `messageId`, first to last: a message's
 * parent always has a lower seq, so the path in seq order is the path from the root.
 */
export async function pathTo(db: Db, messageId: string | null): Promise<string[]> {
  if (messageId === null) return [];
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE path AS (
      SELECT m."id", m."parentId", m."seq" FROM "message" m WHERE m."id" = ${messageId}
      UNION ALL
      SELECT p."id", p."parentId", p."seq" FROM "message" p JOIN path ON p."id" = path."parentId"
    )
    SELECT "id" FROM path ORDER BY "seq" ASC`;
  return rows.map((row) => row.id);
}

/** The thread's active path: from the first message to the thread's active leaf. */
export async function activePath(db: Db, threadId: string): Promise<string[]> {
  const [thread] = await db.$queryRaw<{ leaf: string | null }[]>`
    SELECT "activeLeafMessageId" AS "leaf" FROM "thread" WHERE "id" = ${threadId}`;
  return pathTo(db, thread?.leaf ?? null);
}
