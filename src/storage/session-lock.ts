import { Prisma } from '../generated/prisma/client.ts';
import type { SqlClient, Statement } from './sql-client.ts';

/**
 * The thread's session lock: its row, locked for the rest of the transaction. It serializes
 * admission, Stop, the settlement and every queue change of that thread across all instances.
 */
export function threadRowLock(threadId: string): Statement {
  return Prisma.sql`SELECT "id" FROM "thread" WHERE "id" = ${threadId} FOR UPDATE`;
}

/** Runs `work` in a driver transaction holding the thread's session lock. */
export function withThreadLock<T>(sql: SqlClient, threadId: string, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  return sql.transaction(async (tx) => {
    await tx.query(threadRowLock(threadId));
    return work(tx);
  });
}
