import type { Prisma } from '../generated/prisma/client.ts';
import { TRANSIENT_EVENT_TYPES, type NewRunEvent, type RunEventRecord } from './run-event.ts';

type Tx = Prisma.TransactionClient;

/**
 * Appends durable events to a thread's log inside the caller's transaction. The seq comes from a
 * counter on the thread row, so seq order is commit order: a subscriber that sees seq n+2 knows n+1
 * is already committed and can read it.
 */
export async function appendThreadEvents(tx: Tx, threadId: string, events: NewRunEvent[]): Promise<RunEventRecord[]> {
  if (events.length === 0) return [];
  for (const event of events) {
    if (TRANSIENT_EVENT_TYPES.has(event.payload.type)) throw new Error(`${event.payload.type} is not a durable event`);
  }
  const thread = await tx.thread.update({
    where: { id: threadId },
    data: { lastEventSeq: { increment: events.length } },
    select: { lastEventSeq: true },
  });
  const firstSeq = thread.lastEventSeq - events.length + 1;
  const createdAt = new Date();
  const rows = events.map((event, index) => ({
    threadId,
    seq: firstSeq + index,
    type: event.payload.type,
    executionId: event.executionId,
    parentExecutionId: event.parentExecutionId ?? null,
    payload: event.payload as unknown as Prisma.InputJsonValue,
    createdAt,
  }));
  await tx.threadEvent.createMany({ data: rows });
  return rows.map((row, index) => ({
    threadId,
    seq: row.seq,
    executionId: row.executionId,
    parentExecutionId: row.parentExecutionId,
    createdAt: createdAt.toISOString(),
    payload: events[index]!.payload,
  }));
}

export async function readThreadEvents(
  db: Tx,
  threadId: string,
  afterSeq: number,
  untilSeq?: number,
): Promise<RunEventRecord[]> {
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
    payload: row.payload as unknown as RunEventRecord['payload'],
  }));
}
