import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ClientTurn } from '../runtime/client-tools.ts';

/**
 * What an AG-UI client offered the turn an execution runs (frontend tools, context), or null. The
 * offer is keyed by its message's idempotency key, which the turn's MessageQueued event carries: a
 * resumed run, on whichever instance, finds the same offer as the run that started the turn.
 */
export async function clientTurnOf(prisma: PrismaClient, execution: { threadId: string; queueItemId: string | null }): Promise<ClientTurn | null> {
  const { threadId, queueItemId } = execution;
  if (queueItemId === null) return null;
  // Admission already told a fresh turn whether its thread has offers; a resumed run asks here.
  const offered = await prisma.agUiTurn.findMany({ where: { threadId }, select: { messageKey: true, tools: true, context: true } });
  if (offered.length === 0) return null;
  const queued = await prisma.threadEvent.findMany({ where: { threadId, type: 'MessageQueued' }, select: { payload: true } });
  const key = queued
    .map(({ payload }) => payload as { queueId?: string; idempotencyKey?: string | null })
    .find((payload) => payload.queueId === queueItemId)?.idempotencyKey;
  const turn = offered.find((offer) => offer.messageKey === key);
  return turn ? { tools: turn.tools as unknown as ClientTurn['tools'], context: turn.context as unknown as ClientTurn['context'] } : null;
}
