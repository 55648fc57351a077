import type { PrismaClient } from '../generated/prisma/client.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import type { MessagePart } from '../conversation/parts.ts';
import { NotFoundError, ServiceUnavailableError } from '../domain/errors.ts';
import { readThreadEvents } from './event-log.ts';
import type { LiveBus } from './live-bus.ts';
import type { EventBacklog } from './event-backlog.ts';
import { CATCH_UP, Departure, DROPPED, LiveThreadFeed } from './live-thread-feed.ts';
import type { ThreadEvent } from './thread-event.ts';
import { parseCursor, SubscriberLedger, type RunEvent } from './subscriber-ledger.ts';

/** The replies this instance is producing, by execution id (the execution layer's running executions). */
export interface RunningReplies {
  get(executionId: string): { snapshot?: () => { messageId: string | null; parts: MessagePart[] } } | undefined;
}

/**
 * A thread's events for one subscriber, gapless and without duplicates: it listens first, then
 * replays the durable log after the cursor and snapshots of the running reply, then goes live.
 * Durable events are delivered strictly in seq order; a hole is filled from the log. Streamed
 * text is delivered so that the client's text never has a hole: a delta beyond what the client
 * has waits for a fresh snapshot from the instance that runs the execution.
 */
export function streamThreadEvents(options: StreamOptions): AsyncIterableIterator<RunEvent> {
  // An async generator parked in an await cannot run its `return()` until its next event, which on
  // a quiet thread may never come: closing wakes it so it unsubscribes at once.
  const departure = new Departure();
  const events = threadEvents(options, departure);
  return {
    next: () => events.next(),
    return: (value?: unknown) => {
      departure.leave();
      return events.return(value as never);
    },
    throw: (error?: unknown) => {
      departure.leave();
      return events.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

interface StreamOptions {
  prisma: PrismaClient;
  /** The driver under Prisma, for the log's reads (src/storage/). */
  sql: SqlRunner;
  bus: LiveBus;
  running: RunningReplies;
  threadId: string;
  after: string | null;
  /**
   * How long a subscriber may be without its live channel (at its start, or through a Redis
   * outage) before it ends with a retryable ServiceUnavailableError: never silent for longer.
   */
  liveChannelTimeoutMs: number;
  /**
   * The connection's bound on events waiting for a slow reader; past it the live events waiting
   * are dropped, and the reader gets the log and snapshots of the running replies instead.
   */
  backlog?: EventBacklog;
}

async function* threadEvents(options: StreamOptions, departure: Departure): AsyncGenerator<RunEvent> {
  const { prisma, sql, bus, running, threadId, liveChannelTimeoutMs } = options;
  const requested = options.after === null ? null : parseCursor(options.after);
  const feed = new LiveThreadFeed(bus, threadId, departure, options.backlog ?? null);
  const ledger = new SubscriberLedger();

  const replay = (events: ThreadEvent[]) => replayLogged(prisma, threadId, ledger, events);

  try {
    await bus.threadChannelReady(threadId, liveChannelTimeoutMs);
    // Running replies are read before the log: a run that ends in between is then in the replay,
    // with its recorded reply; read after, it would be in neither.
    // (Live only: the position is read first, so a run that ends after it still ends live.)
    if (requested === null) {
      const thread = await prisma.thread.findUniqueOrThrow({ where: { id: threadId }, select: { lastEventSeq: true } });
      ledger.startAfter(thread.lastEventSeq);
    }
    const runningReplies = await runningSnapshots(prisma, running, threadId, bus);
    let endedInReplay = new Set<string>();
    if (requested !== null) {
      ledger.startAfter(requested.seq);
      const logged = await readThreadEvents(sql, threadId, requested.seq);
      endedInReplay = new Set(finishedExecutionIds(logged));
      yield* replay(logged);
    }
    for (const reply of runningReplies) {
      if (!endedInReplay.has(reply.executionId ?? '')) yield ledger.snapshot(reply);
    }

    for (;;) {
      for (let event = feed.take(); event !== undefined; event = feed.take()) {
        if (event === CATCH_UP) {
          // Live delivery may have lost its way here meanwhile: the running instances learn it again.
          askRunners(await unfinishedExecutions(prisma, threadId), running, bus);
          yield* replay(await readThreadEvents(sql, threadId, ledger.lastSeq));
        } else if (event === DROPPED) {
          // Replies before the log, as at the start: a run that ends in between is in the replay.
          const replies = await runningSnapshots(prisma, running, threadId, bus);
          const logged = await readThreadEvents(sql, threadId, ledger.lastSeq);
          yield* replay(logged);
          const ended = new Set(finishedExecutionIds(logged));
          for (const reply of replies) {
            if (!ended.has(reply.executionId ?? '')) yield ledger.snapshot(reply);
          }
        } else if (event.payload.type === 'ThreadDeleted') {
          throw new NotFoundError('Thread', threadId);
        } else if (event.seq === null) {
          const { deliver, askForSnapshot } = ledger.live(event, Date.now());
          if (askForSnapshot !== null) {
            bus.relayToInstances({ kind: 'snapshot', executionId: askForSnapshot });
          }
          yield* deliver;
        } else if (event.seq > ledger.lastSeq) {
          if (event.seq > ledger.lastSeq + 1) {
            yield* replay(await readThreadEvents(sql, threadId, ledger.lastSeq, event.seq - 1));
          }
          yield ledger.durable(event);
        }
      }
      for (const executionId of ledger.heldExecutions()) {
        if (!ledger.isOverdue(executionId, Date.now())) continue;
        yield* ledger.settle(executionId, await freshestSnapshot(prisma, running, threadId, executionId));
      }
      if (feed.isOver) return;
      if (feed.lostAt !== null && Date.now() - feed.lostAt >= liveChannelTimeoutMs) {
        throw new ServiceUnavailableError('live delivery', 1);
      }
      // Events that came while overdue deltas were delivered must not wait for the next one to wake us.
      if (feed.hasArrivals) continue;
      const liveLostDeadline = feed.lostAt === null ? Infinity : feed.lostAt + liveChannelTimeoutMs;
      await feed.park(Math.min(ledger.nextDeadline(), liveLostDeadline));
    }
  } finally {
    feed.close();
  }
}

/** Replays logged events; each replayed run end comes with its reply as recorded (its deltas are gone). */
async function* replayLogged(
  prisma: PrismaClient,
  threadId: string,
  ledger: SubscriberLedger,
  events: ThreadEvent[],
): AsyncGenerator<RunEvent> {
  const replies = await recordedSnapshots(prisma, threadId, finishedExecutionIds(events));
  for (const event of events) {
    const reply = event.payload.type === 'ExecutionFinished' ? replies.get(event.executionId ?? '') : undefined;
    if (reply) yield ledger.snapshot(reply);
    yield ledger.durable(event);
  }
}

function finishedExecutionIds(events: ThreadEvent[]): string[] {
  return events.flatMap((event) =>
    event.payload.type === 'ExecutionFinished' && event.executionId ? [event.executionId] : [],
  );
}

export function snapshotRecord(
  threadId: string,
  executionId: string,
  messageId: string,
  parts: MessagePart[],
): ThreadEvent {
  const textLength = parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  return {
    threadId,
    seq: null,
    executionId,
    parentExecutionId: null,
    createdAt: new Date().toISOString(),
    payload: { type: 'MessageSnapshot', messageId, parts, textLength },
  };
}

/** The thread's root executions that are running or suspended, oldest first. */
function unfinishedExecutions(prisma: PrismaClient, threadId: string): Promise<{ id: string; status: string }[]> {
  return prisma.execution.findMany({
    where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
    select: { id: true, status: true },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * Asks the instances that run these executions for a fresh snapshot, which also tells them that
 * someone here listens: their deltas then come this way too (src/events/local-first.ts).
 */
function askRunners(executions: { id: string; status: string }[], running: RunningReplies, bus: LiveBus): void {
  for (const { id, status } of executions) if (status === 'RUNNING' && !running.get(id)) bus.relayToInstances({ kind: 'snapshot', executionId: id });
}

/** Snapshots of the thread's running replies (the instances that run the others are asked for fresh ones). */
async function runningSnapshots(prisma: PrismaClient, running: RunningReplies, threadId: string, bus: LiveBus): Promise<ThreadEvent[]> {
  const executions = await unfinishedExecutions(prisma, threadId);
  askRunners(executions, running, bus);
  const snapshots: ThreadEvent[] = [];
  for (const { id } of executions) {
    const snapshot = await freshestSnapshot(prisma, running, threadId, id);
    if (snapshot) snapshots.push(snapshot);
  }
  return snapshots;
}

/** This instance's live reply if it runs the execution, else the recorded one. */
async function freshestSnapshot(
  prisma: PrismaClient,
  running: RunningReplies,
  threadId: string,
  executionId: string,
): Promise<ThreadEvent | null> {
  const local = running.get(executionId)?.snapshot?.();
  if (local?.messageId) return snapshotRecord(threadId, executionId, local.messageId, local.parts);
  return recordedSnapshot(prisma, threadId, executionId);
}

/** The recorded replies of several executions in one query. */
async function recordedSnapshots(
  prisma: PrismaClient,
  threadId: string,
  executionIds: string[],
): Promise<Map<string, ThreadEvent>> {
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

async function recordedSnapshot(prisma: PrismaClient, threadId: string, executionId: string): Promise<ThreadEvent | null> {
  const recorded = await prisma.message.findFirst({
    where: { executionId, role: 'ASSISTANT' },
    orderBy: { seq: 'desc' },
    select: { id: true, parts: true },
  });
  return recorded ? snapshotRecord(threadId, executionId, recorded.id, recorded.parts as MessagePart[]) : null;
}
