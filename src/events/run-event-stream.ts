import type { PrismaClient } from '../generated/prisma/client.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { RunningExecutions } from '../execution/running-executions.ts';
import { InvalidInputError } from '../domain/errors.ts';
import { readThreadEvents } from './event-log.ts';
import type { LiveBus } from './live-bus.ts';
import type { RunEventRecord } from './run-event.ts';

export interface DeliveredRunEvent extends RunEventRecord {
  /** Resume point: `runEvents(after: cursor)` continues right after this event. */
  cursor: string;
}

interface Cursor {
  seq: number;
}

export function parseCursor(value: string): Cursor {
  const match = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(value);
  if (!match) throw new InvalidInputError('after', 'is not a cursor returned by Parley.');
  return { seq: Number(match[1]) };
}

/**
 * A thread's events for one subscriber, gapless and without duplicates: it listens first, then
 * replays the durable log after the cursor (and a snapshot of the running reply), then goes live.
 * Durable events are delivered strictly in seq order; a hole is filled from the log.
 */
export async function* streamThreadEvents(options: {
  prisma: PrismaClient;
  bus: LiveBus;
  running: RunningExecutions;
  threadId: string;
  after: string | null;
}): AsyncGenerator<DeliveredRunEvent> {
  const { prisma, bus, running, threadId } = options;
  const requested = options.after === null ? null : parseCursor(options.after);
  const subscription = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
  // A null entry asks for a catch-up from the durable log (live delivery may have had a gap).
  const buffered: (RunEventRecord | null)[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  let ended = false;
  const stopResync = bus.onResync(() => {
    buffered.push(null);
    waiter.wake?.();
  });
  const pump = (async () => {
    try {
      for (;;) {
        const next = await subscription.next();
        if (next.done) break;
        buffered.push(next.value);
        waiter.wake?.();
      }
    } finally {
      ended = true;
      waiter.wake?.();
    }
  })();

  // Characters of each execution's text/reasoning the client already has (from a snapshot); a
  // delegated child's text lives on its card in the parent's message, so keys are execution ids.
  const covered = new Map<string, number>();
  let lastSeq: number;
  let transientCount = 0;
  const transientCursor = () => `${lastSeq}.${++transientCount}`;

  // A replayed run end comes with the reply as recorded, since its live deltas are gone.
  async function* replayed(event: RunEventRecord): AsyncGenerator<DeliveredRunEvent> {
    if (event.payload.type === 'ExecutionFinished' && event.executionId) {
      const snapshot = await recordedSnapshot(prisma, threadId, event.executionId);
      if (snapshot) {
        cover(snapshot);
        yield { ...snapshot.record, cursor: transientCursor() };
      }
    }
    lastSeq = event.seq!;
    transientCount = 0;
    yield { ...event, cursor: String(event.seq) };
  }
  const cover = (snapshot: Snapshot) => {
    for (const [key, length] of snapshot.lengths) covered.set(key, length);
  };

  try {
    if (requested === null) {
      const thread = await prisma.thread.findUniqueOrThrow({ where: { id: threadId }, select: { lastEventSeq: true } });
      lastSeq = thread.lastEventSeq;
    } else {
      lastSeq = requested.seq;
      for (const event of await readThreadEvents(prisma, threadId, lastSeq)) {
        yield* replayed(event);
      }
      for (const snapshot of await runningSnapshots(prisma, running, threadId)) {
        cover(snapshot);
        yield { ...snapshot.record, cursor: transientCursor() };
      }
    }

    for (;;) {
      while (buffered.length > 0) {
        const event = buffered.shift()!;
        if (event === null) {
          for (const missed of await readThreadEvents(prisma, threadId, lastSeq)) yield* replayed(missed);
          continue;
        }
        if (event.seq === null) {
          const trimmed = trimCovered(event, covered);
          if (trimmed) yield { ...trimmed, cursor: transientCursor() };
          continue;
        }
        if (event.seq <= lastSeq) continue;
        if (event.seq > lastSeq + 1) {
          for (const missed of await readThreadEvents(prisma, threadId, lastSeq, event.seq - 1)) {
            yield* replayed(missed);
          }
        }
        lastSeq = event.seq;
        transientCount = 0;
        yield { ...event, cursor: String(event.seq) };
      }
      if (ended) return;
      await new Promise<void>((resolve) => {
        waiter.wake = resolve;
      });
      waiter.wake = null;
    }
  } finally {
    stopResync();
    await subscription.return?.();
    await pump;
  }
}

/** Drops the part of a delta the client already has from a snapshot. */
function trimCovered(event: RunEventRecord, covered: Map<string, number>): RunEventRecord | null {
  const payload = event.payload;
  if (payload.type !== 'TextDelta' && payload.type !== 'ReasoningDelta') return event;
  const key = `${payload.type === 'TextDelta' ? 'text' : 'reasoning'}:${event.executionId}`;
  const have = covered.get(key);
  if (have === undefined || payload.offset >= have) return event;
  const end = payload.offset + payload.text.length;
  if (end <= have) return null;
  return { ...event, payload: { ...payload, text: payload.text.slice(have - payload.offset), offset: have } };
}

interface Snapshot {
  record: RunEventRecord;
  /** `text:<executionId>` / `reasoning:<executionId>` → characters the snapshot holds. */
  lengths: Map<string, number>;
}

async function runningSnapshots(prisma: PrismaClient, running: RunningExecutions, threadId: string): Promise<Snapshot[]> {
  const executions = await prisma.execution.findMany({
    where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  const snapshots: Snapshot[] = [];
  for (const { id } of executions) {
    const local = running.get(id)?.snapshot?.();
    const snapshot =
      local?.messageId && local.parts
        ? snapshotOf(threadId, id, local.messageId, local.parts)
        : await recordedSnapshot(prisma, threadId, id);
    if (snapshot) snapshots.push(snapshot);
  }
  return snapshots;
}

async function recordedSnapshot(prisma: PrismaClient, threadId: string, executionId: string): Promise<Snapshot | null> {
  const recorded = await prisma.message.findFirst({
    where: { executionId, role: 'ASSISTANT' },
    orderBy: { seq: 'desc' },
    select: { id: true, parts: true },
  });
  return recorded ? snapshotOf(threadId, executionId, recorded.id, recorded.parts as MessagePart[]) : null;
}

function snapshotOf(threadId: string, executionId: string, messageId: string, parts: MessagePart[]): Snapshot {
  const lengthOf = (type: 'text' | 'reasoning') =>
    parts.reduce((sum, part) => sum + (part.type === type ? part.text.length : 0), 0);
  const textLength = lengthOf('text');
  const lengths = new Map([
    [`text:${executionId}`, textLength],
    [`reasoning:${executionId}`, lengthOf('reasoning')],
  ]);
  for (const part of parts) {
    if (part.type !== 'delegation') continue;
    lengths.set(`text:${part.childExecutionId}`, part.text.length);
    lengths.set(`reasoning:${part.childExecutionId}`, part.reasoning.length);
  }
  return {
    record: {
      threadId,
      seq: null,
      executionId,
      createdAt: new Date().toISOString(),
      payload: { type: 'MessageSnapshot', messageId, parts, textLength },
    },
    lengths,
  };
}
