import { appendEvents, readEvents, type LoggedEventRow } from '../storage/event-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import { TRANSIENT_EVENT_TYPES, type NewThreadEvent, type ThreadEvent } from './thread-event.ts';

/** Live-only kinds never enter the log. */
export function assertDurable(events: readonly NewThreadEvent[]): void {
  for (const event of events) {
    if (TRANSIENT_EVENT_TYPES.has(event.payload.type)) throw new Error(`${event.payload.type} is not a durable event`);
  }
}

/**
 * Appends durable events to a thread's log, inside the caller's transaction or as a statement of
 * its own (src/storage/event-statements.ts): seq order is commit order.
 */
export async function appendThreadEvents(db: SqlRunner, threadId: string, events: NewThreadEvent[]): Promise<ThreadEvent[]> {
  if (events.length === 0) return [];
  assertDurable(events);
  const createdAt = new Date();
  const firstSeq = await appendEvents(db, threadId, events, createdAt);
  return eventRecords(threadId, firstSeqOf(threadId, firstSeq), createdAt, events);
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

/** An event as the log holds it, as subscribers receive it. */
export function loggedEvent(threadId: string, row: LoggedEventRow): ThreadEvent {
  return {
    threadId,
    seq: row.seq,
    executionId: row.executionId,
    parentExecutionId: row.parentExecutionId,
    createdAt: row.createdAt.toISOString(),
    payload: row.payload as ThreadEvent['payload'],
  };
}

export async function readThreadEvents(db: SqlRunner, threadId: string, afterSeq: number, untilSeq?: number): Promise<ThreadEvent[]> {
  const rows = await readEvents(db, threadId, afterSeq, untilSeq ?? null);
  return rows.map((row) => loggedEvent(threadId, row));
}
