import type { PrismaClient } from '../generated/prisma/client.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { RunningExecutions } from '../execution/running-executions.ts';
import { InvalidInputError, ServiceUnavailableError } from '../domain/errors.ts';
import { readThreadEvents } from './event-log.ts';
import type { LiveBus } from './live-bus.ts';
import type { RunEventRecord } from './run-event.ts';

export interface DeliveredRunEvent extends RunEventRecord {
  /** Resume point: `runEvents(after: cursor)` continues right after this event. */
  cursor: string;
}

export function parseCursor(value: string): { seq: number } {
  const match = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(value);
  if (!match) throw new InvalidInputError('after', 'is not a cursor returned by Parley.');
  return { seq: Number(match[1]) };
}

// How long a subscriber waits for the running instance's snapshot before it settles for the
// recorded one (which may be up to one text flush behind).
const SNAPSHOT_WAIT_MS = 1_500;

/**
 * A thread's events for one subscriber, gapless and without duplicates: it listens first, then
 * replays the durable log after the cursor and snapshots of the running reply, then goes live.
 * Durable events are delivered strictly in seq order; a hole is filled from the log. Streamed
 * text is delivered so that the client's text never has a hole: a delta beyond what the client
 * has waits for a fresh snapshot from the instance that runs the execution.
 */
export function streamThreadEvents(options: StreamOptions): AsyncIterableIterator<DeliveredRunEvent> {
  // An async generator parked in an await cannot run its `return()` until its next event, which on
  // a quiet thread may never come: closing wakes it so it unsubscribes at once.
  const closed = new AbortController();
  const events = threadEvents(options, closed.signal);
  return {
    next: () => events.next(),
    return: (value?: unknown) => {
      closed.abort();
      return events.return(value as never);
    },
    throw: (error?: unknown) => {
      closed.abort();
      return events.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

interface StreamOptions {
  prisma: PrismaClient;
  bus: LiveBus;
  running: RunningExecutions;
  threadId: string;
  after: string | null;
  /**
   * How long a subscriber may be without its live channel (at its start, or through a Redis
   * outage) before it ends with a retryable ServiceUnavailableError: never silent for longer.
   */
  liveChannelTimeoutMs: number;
}

async function* threadEvents(options: StreamOptions, closed: AbortSignal): AsyncGenerator<DeliveredRunEvent> {
  const { prisma, bus, running, threadId } = options;
  const requested = options.after === null ? null : parseCursor(options.after);
  const subscription = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
  // A null entry asks for a catch-up from the durable log (live delivery may have had a gap).
  const buffered: (RunEventRecord | null)[] = [];
  const waiter: { wake: (() => void) | null } = { wake: null };
  const wake = () => waiter.wake?.();
  closed.addEventListener('abort', wake);
  let ended = false;
  // Since when live delivery has been lost (a Redis outage), if it is.
  let liveLostAt: number | null = null;
  const stopOutage = bus.onOutage(() => {
    liveLostAt ??= Date.now();
    wake();
  });
  const stopResync = bus.onResync(() => {
    liveLostAt = null;
    buffered.push(null);
    wake();
  });
  const pump = (async () => {
    try {
      for (;;) {
        const next = await subscription.next();
        if (next.done) break;
        buffered.push(next.value);
        wake();
      }
    } finally {
      ended = true;
      wake();
    }
  })();

  // Characters of each execution's text and reasoning the client has (`text:<id>`, `reasoning:<id>`).
  // A delegated child's text lives on its card in the parent's message, so keys are execution ids.
  const have = new Map<string, number>();
  // Deltas held back per execution until a snapshot covers the hole before them.
  const held = new Map<string, { events: RunEventRecord[]; deadline: number }>();
  let lastSeq = 0;
  let transientCount = 0;
  const deliver = (event: RunEventRecord): DeliveredRunEvent => {
    if (event.seq !== null) {
      lastSeq = event.seq;
      transientCount = 0;
      return { ...event, cursor: String(event.seq) };
    }
    return { ...event, cursor: `${lastSeq}.${++transientCount}` };
  };
  const applySnapshot = (snapshot: RunEventRecord) => {
    for (const [key, length] of snapshotLengths(snapshot)) have.set(key, length);
  };

  /** The delta as far as it is new to the client; 'gap' when text before it is missing. */
  const fit = (event: RunEventRecord): RunEventRecord | null | 'gap' => {
    const payload = event.payload;
    if (payload.type !== 'TextDelta' && payload.type !== 'ReasoningDelta') return event;
    const key = `${payload.type === 'TextDelta' ? 'text' : 'reasoning'}:${event.executionId}`;
    const known = have.get(key) ?? 0;
    if (payload.offset > known) return 'gap';
    const end = payload.offset + payload.text.length;
    if (end <= known) return null;
    have.set(key, end);
    if (payload.offset === known) return event;
    return { ...event, payload: { ...payload, text: payload.text.slice(known - payload.offset), offset: known } };
  };

  /** Replays logged events; each replayed run end comes with its reply as recorded (its deltas are gone). */
  async function* replay(events: RunEventRecord[]): AsyncGenerator<DeliveredRunEvent> {
    const finished = events.flatMap((event) =>
      event.payload.type === 'ExecutionFinished' && event.executionId ? [event.executionId] : [],
    );
    const replies = await recordedSnapshots(prisma, threadId, finished);
    for (const event of events) {
      const snapshot = event.payload.type === 'ExecutionFinished' ? replies.get(event.executionId ?? '') : undefined;
      if (snapshot) {
        applySnapshot(snapshot);
        yield deliver(snapshot);
      }
      yield deliver(event);
    }
  }

  async function* live(event: RunEventRecord): AsyncGenerator<DeliveredRunEvent> {
    if (event.payload.type === 'MessageSnapshot') {
      applySnapshot(event);
      yield deliver(event);
      yield* release(event.executionId!);
      return;
    }
    const executionId = event.executionId ?? '';
    const waiting = held.get(executionId);
    if (waiting) {
      waiting.events.push(event);
      return;
    }
    const fitted = fit(event);
    if (fitted === 'gap') {
      held.set(executionId, { events: [event], deadline: Date.now() + SNAPSHOT_WAIT_MS });
      bus.pubsub.publish('instance', 'all', { kind: 'snapshot', executionId });
      return;
    }
    if (fitted) yield deliver(fitted);
  }

  /** Delivers the deltas held for an execution once a snapshot arrived (or the wait ran out). */
  async function* release(executionId: string): AsyncGenerator<DeliveredRunEvent> {
    const waiting = held.get(executionId);
    if (!waiting) return;
    held.delete(executionId);
    for (const event of waiting.events) {
      const fitted = fit(event);
      // Still a hole after the best snapshot there is: deliver it, the client sees what was lost.
      if (fitted === 'gap') yield deliver(event);
      else if (fitted) yield deliver(fitted);
    }
  }

  async function* expired(): AsyncGenerator<DeliveredRunEvent> {
    for (const [executionId, waiting] of [...held]) {
      if (waiting.deadline > Date.now()) continue;
      const snapshot = await freshestSnapshot(prisma, running, threadId, executionId);
      if (snapshot) {
        applySnapshot(snapshot);
        yield deliver(snapshot);
      }
      yield* release(executionId);
    }
  }

  try {
    await bus.threadChannelReady(threadId, options.liveChannelTimeoutMs);
    // Running replies are read before the log: a run that ends in between is then in the replay,
    // with its recorded reply; read after, it would be in neither.
    // (Live only: the position is read first, so a run that ends after it still ends live.)
    if (requested === null) {
      const thread = await prisma.thread.findUniqueOrThrow({ where: { id: threadId }, select: { lastEventSeq: true } });
      lastSeq = thread.lastEventSeq;
    }
    const runningReplies = await runningSnapshots(prisma, running, threadId);
    const endedInReplay = new Set<string>();
    if (requested !== null) {
      lastSeq = requested.seq;
      const logged = await readThreadEvents(prisma, threadId, lastSeq);
      for (const event of logged) {
        if (event.payload.type === 'ExecutionFinished' && event.executionId) endedInReplay.add(event.executionId);
      }
      yield* replay(logged);
    }
    for (const snapshot of runningReplies) {
      if (endedInReplay.has(snapshot.executionId ?? '')) continue;
      applySnapshot(snapshot);
      yield deliver(snapshot);
    }

    for (;;) {
      while (buffered.length > 0) {
        const event = buffered.shift()!;
        if (event === null) {
          yield* replay(await readThreadEvents(prisma, threadId, lastSeq));
        } else if (event.seq === null) {
          yield* live(event);
        } else if (event.seq > lastSeq) {
          if (event.seq > lastSeq + 1) {
            yield* replay(await readThreadEvents(prisma, threadId, lastSeq, event.seq - 1));
          }
          yield deliver(event);
        }
      }
      yield* expired();
      if (ended || closed.aborted) return;
      if (liveLostAt !== null && Date.now() - liveLostAt >= options.liveChannelTimeoutMs) {
        throw new ServiceUnavailableError('live delivery', 1);
      }
      // Events that came while expired() yielded must not wait for the next one to wake us.
      if (buffered.length > 0) continue;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiter.wake = resolve;
        const deadlines = [...held.values()].map((waiting) => waiting.deadline);
        if (liveLostAt !== null) deadlines.push(liveLostAt + options.liveChannelTimeoutMs);
        const nextDeadline = Math.min(...deadlines);
        if (Number.isFinite(nextDeadline)) timer = setTimeout(resolve, Math.max(0, nextDeadline - Date.now()));
      });
      clearTimeout(timer);
      waiter.wake = null;
    }
  } finally {
    closed.removeEventListener('abort', wake);
    stopOutage();
    stopResync();
    await subscription.return?.();
    await pump;
  }
}

/** Characters per execution in a snapshot: its own text and reasoning, and its children's cards. */
function snapshotLengths(record: RunEventRecord): Map<string, number> {
  const lengths = new Map<string, number>();
  if (record.payload.type !== 'MessageSnapshot') return lengths;
  const parts = record.payload.parts as MessagePart[];
  const lengthOf = (type: 'text' | 'reasoning') =>
    parts.reduce((sum, part) => sum + (part.type === type ? part.text.length : 0), 0);
  lengths.set(`text:${record.executionId}`, lengthOf('text'));
  lengths.set(`reasoning:${record.executionId}`, lengthOf('reasoning'));
  for (const part of parts) {
    if (part.type !== 'delegation') continue;
    lengths.set(`text:${part.childExecutionId}`, part.text.length);
    lengths.set(`reasoning:${part.childExecutionId}`, part.reasoning.length);
  }
  return lengths;
}

export function snapshotRecord(
  threadId: string,
  executionId: string,
  messageId: string,
  parts: MessagePart[],
): RunEventRecord {
  const textLength = parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  return {
    threadId,
    seq: null,
    executionId,
    createdAt: new Date().toISOString(),
    payload: { type: 'MessageSnapshot', messageId, parts, textLength },
  };
}

async function runningSnapshots(
  prisma: PrismaClient,
  running: RunningExecutions,
  threadId: string,
): Promise<RunEventRecord[]> {
  const executions = await prisma.execution.findMany({
    where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  const snapshots: RunEventRecord[] = [];
  for (const { id } of executions) {
    const snapshot = await freshestSnapshot(prisma, running, threadId, id);
    if (snapshot) snapshots.push(snapshot);
  }
  return snapshots;
}

/** This instance's live reply if it runs the execution, else the recorded one. */
async function freshestSnapshot(
  prisma: PrismaClient,
  running: RunningExecutions,
  threadId: string,
  executionId: string,
): Promise<RunEventRecord | null> {
  const local = running.get(executionId)?.snapshot?.();
  if (local?.messageId) return snapshotRecord(threadId, executionId, local.messageId, local.parts);
  return recordedSnapshot(prisma, threadId, executionId);
}

/** The recorded replies of several executions in one query. */
async function recordedSnapshots(
  prisma: PrismaClient,
  threadId: string,
  executionIds: string[],
): Promise<Map<string, RunEventRecord>> {
  if (executionIds.length === 0) return new Map();
  const replies = await prisma.message.findMany({
    where: { executionId: { in: executionIds }, role: 'ASSISTANT' },
    orderBy: { seq: 'asc' },
    select: { id: true, parts: true, executionId: true },
  });
  return new Map(
    replies.map((reply) => [
      reply.executionId!,
      snapshotRecord(threadId, reply.executionId!, reply.id, reply.parts as MessagePart[]),
    ]),
  );
}

async function recordedSnapshot(prisma: PrismaClient, threadId: string, executionId: string): Promise<RunEventRecord | null> {
  const recorded = await prisma.message.findFirst({
    where: { executionId, role: 'ASSISTANT' },
    orderBy: { seq: 'desc' },
    select: { id: true, parts: true },
  });
  return recorded ? snapshotRecord(threadId, executionId, recorded.id, recorded.parts as MessagePart[]) : null;
}
