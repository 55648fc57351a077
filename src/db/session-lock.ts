import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export type Tx = Prisma.TransactionClient;

// PGlite runs every transaction on its one connection, so waits can be long under load; a failed
// wait is reported to the caller, never retried silently.
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * Runs `work` in a transaction holding the thread's session lock (a row lock on the thread), which
 * serializes admission, Stop and every queue change of that thread across all instances.
 */
export async function withSessionLock<T>(
  prisma: PrismaClient,
  threadId: string,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "thread" WHERE "id" = ${threadId} FOR UPDATE`;
    return work(tx);
  }, TRANSACTION_OPTIONS);
}
