import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { threadRowLock } from '../storage/session-lock.ts';

export type Tx = Prisma.TransactionClient;

// PGlite runs every transaction on its one connection, so waits can be long under load; a failed
// wait is reported to the caller, never retried silently.
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * Runs `work` in a Prisma transaction holding the thread's session lock (src/storage/session-lock.ts),
 * for the services whose changes are Prisma's; the turn's own transactions hold it on the driver.
 */
export async function withSessionLock<T>(
  prisma: PrismaClient,
  threadId: string,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw(threadRowLock(threadId));
    return work(tx);
  }, TRANSACTION_OPTIONS);
}
