import type { Prisma } from '../generated/prisma/client.ts';

/** A transaction or the client itself: each read here is one statement. */
type Db = Pick<Prisma.TransactionClient, '$queryRaw'>;

/**
 * The ids of the messages from the first one down to `messageId`, first to last (a message's
 * parent always has a lower seq, so the path in seq order is the path from the root); with `last`,
 * only the last that many, and the walk up the tree stops there.
 */
export async function pathTo(db: Db, messageId: string | null, last?: number): Promise<string[]> {
  if (messageId === null) return [];
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE path AS (
      SELECT m."id", m."parentId", m."seq", 1 AS "depth" FROM "message" m WHERE m."id" = ${messageId}
      UNION ALL
      SELECT p."id", p."parentId", p."seq", path."depth" + 1 FROM "message" p JOIN path ON p."id" = path."parentId"
      WHERE ${last ?? null}::int IS NULL OR path."depth" < ${last ?? null}::int
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

/**
 * The first `count` messages of the path that ends at `leafId`, first to last, walked down from the
 * first message of the thread: at each step the child last made active (the highest `activeSeq`,
 * then the newest), which is the path's own child, since every change of the leaf stamps the path
 * to it (src/branches/branch-service.ts) and a new turn's messages carry the newest stamp. The walk
 * stops at the leaf. Null when it ends elsewhere, which the stamps rule out: the caller then reads
 * the path up from the leaf.
 */
export async function firstOfPath(db: Db, threadId: string, leafId: string, count: number): Promise<string[] | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE down AS (
      SELECT first."id", 1 AS "n" FROM (
        SELECT "id" FROM "message" WHERE "threadId" = ${threadId} AND "parentId" IS NULL
        ORDER BY "activeSeq" DESC, "seq" DESC LIMIT 1) AS first
      UNION ALL
      SELECT child."id", down."n" + 1 FROM down CROSS JOIN LATERAL (
        SELECT "id" FROM "message" WHERE "threadId" = ${threadId} AND "parentId" = down."id"
        ORDER BY "activeSeq" DESC, "seq" DESC LIMIT 1) AS child
      WHERE down."n" < ${count} AND down."id" <> ${leafId}
    )
    SELECT "id" FROM down ORDER BY "n"`;
  const ids = rows.map((row) => row.id);
  return ids.length === count || ids.at(-1) === leafId ? ids : null;
}

/**
 * The messages of the path that ends at `leafId` from a cursor on it: `take` of them after it
 * (negative: before it), the cursor included, first to last. The path is walked and cut in the
 * database, so only the page's ids leave it. A cursor off the path gets the whole path.
 */
export async function pathAround(db: Db, leafId: string, cursorId: string, take: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE path AS (
      SELECT m."id", m."parentId", m."seq" FROM "message" m WHERE m."id" = ${leafId}
      UNION ALL
      SELECT p."id", p."parentId", p."seq" FROM "message" p JOIN path ON p."id" = path."parentId"
    ), ordered AS (
      SELECT "id", row_number() OVER (ORDER BY "seq") AS "n" FROM path
    ), at AS (
      SELECT "n" FROM ordered WHERE "id" = ${cursorId}
    )
    SELECT ordered."id" FROM ordered
    WHERE NOT EXISTS (SELECT 1 FROM at)
       OR ordered."n" BETWEEN (SELECT "n" FROM at) + LEAST(${take}::int, 0) AND (SELECT "n" FROM at) + GREATEST(${take}::int, 0)
    ORDER BY ordered."n"`;
  return rows.map((row) => row.id);
}
