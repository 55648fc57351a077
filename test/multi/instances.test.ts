import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { readMigrations } from '../../src/db/migrator.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { cancel, conversation, execution as executionOf, messagesOf, queue, recordedReply, send as sendMessage } from '../support/client.ts';
import {
  EditQueuedMessageDocument,
  RemoveQueuedMessageDocument,
  ReorderQueuedMessageDocument,
} from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import { durableDelivery, startInstance, stopAllChildren, type Instance } from '../support/instances.ts';
import { checkStream, is, overlappingStarts, startedWith } from '../support/run-events.ts';
import { newThread as createThread, setUpAgent } from '../support/scenario.ts';
import { describeWithServices } from '../support/backends.ts';
import { dropSchema, isolatedEnv, requestData } from '../support/server.ts';
import { report } from '../support/report.ts';
import { executionRowsReaching, threadsSettledInDatabase } from '../support/waits.ts';

// Long enough that a busy machine's event-loop stalls do not expire a live instance's lease (which
// would rightly interrupt its runs), short enough to wait for a killed one.
const LEASE_MS = 2_000;
const SWEEP_MS = 100;
const BASE_ENV = {
  PARLEY_LEASE_MS: String(LEASE_MS),
  PARLEY_CONSUMER_SWEEP_MS: String(SWEEP_MS),
  PARLEY_TEXT_FLUSH_MS: '50',
  PARLEY_SHUTDOWN_GRACE_MS: '500',
  PARLEY_MUTATIONS_PER_MINUTE: '100000',
  PARLEY_LOG_LEVEL: 'warn',
};

type Named = Instance & { id: string };

describeWithServices('several Parley instances on one PostgreSQL and Redis', () => {
  const run = randomUUID().slice(0, 6);
  let env: Record<string, string>;
  let db: Database;
  let token: string;
  let agentId: string;
  const instances: Named[] = [];
  const timings: Record<string, number> = {};

  const launch = async (name: string) => {
    const id = `multi-${name}-${run}`;
    const instance = { ...(await startInstance({ ...env, ...BASE_ENV, PARLEY_INSTANCE_ID: id })), id };
    instances.push(instance);
    return instance;
  };
  const alive = () => instances.filter((instance) => instance.process.exitCode === null && instance.process.signalCode === null);
  const byId = (id: string | null | undefined) => instances.find((instance) => instance.id === id);
  const diagnostics = () => instances.map((instance) => `--- ${instance.id}\n${instance.stderr().slice(-4_000)}`).join('\n');

  const newThread = (via: Instance) => createThread(via, token, agentId);
  const cursorOf = async (via: Instance, threadId: string) => (await conversation(via, token, threadId)).eventCursor;
  const send = async (via: Instance, threadId: string, text: string) => (await sendMessage(via, token, threadId, text)).queueId;
  const execution = (via: Instance, id: string) => executionOf(via, token, id);
  /** Follows from `after` on `via`, resuming from its last cursor whenever the subscription drops. */
  const followOn = (via: Instance, threadId: string, after: string) => follow(via, token, threadId, after, { resume: true });

  beforeAll(async () => {
    env = isolatedEnv('postgres');
    // Both instances start at once on the fresh schema: both migrate under the advisory lock.
    const started = performance.now();
    await Promise.all([launch('a'), launch('b')]);
    timings.concurrentStartMs = Math.round(performance.now() - started);
    db = await openDatabase({ databaseUrl: env.DATABASE_URL });
    ({ token, agentId } = await setUpAgent(db, { project: 'Multi' }));
  }, 120_000);

  afterAll(async () => {
    report(`multi-instance timings: ${JSON.stringify(timings)}`);
    await Promise.all(alive().map((instance) => instance.stop()));
    await stopAllChildren();
    await db?.close();
    if (env) await dropSchema(env.DATABASE_URL);
  }, 30_000);

  it('lets two instances start at once on a fresh schema: both come up and every migration is applied once', async () => {
    const [a, b] = instances;
    for (const instance of [a, b]) {
      const ready = await fetch(new URL('/ready', instance.url));
      expect(ready.status, diagnostics()).toBe(200);
    }
    const rows = await db.withConnection((connection) =>
      connection.query<{ name: string; count: string }>(
        'SELECT "name", count(*)::text AS "count" FROM "_parley_migrations" GROUP BY "name" ORDER BY "name"',
      ),
    );
    const expected = (await readMigrations()).map((migration) => migration.name);
    expect(rows.map((row) => row.name)).toEqual(expected);
    expect(rows.every((row) => row.count === '1')).toBe(true);
    const leases = await db.prisma.instance.findMany({ where: { id: { in: [a.id, b.id] } } });
    expect(leases).toHaveLength(2);
  });

  it('delivers every event of a run claimed anywhere to a subscriber on another instance: once, in order, gapless', async () => {
    const [a, b] = instances;
    const threadId = await newThread(a);
    const cursor = await cursorOf(a, threadId);
    const follower = followOn(a, threadId, cursor);
    try {
      await send(b, threadId, '/slow 1');
      await send(b, threadId, '/tokens 40');
      const started = await follower.waitFor(is('ExecutionStarted'));
      const finishedAll = (await follower.waitUntil((events) => events.filter(is('ExecutionFinished')).length >= 2)).filter(is('ExecutionFinished'));
      const events = [...follower.events];
      const texts = checkStream(events);
      // Every durable event of the thread after the cursor, exactly as the log has them.
      const delivery = await durableDelivery(db.prisma, follower, decodeId('threadId', threadId, 'Thread'), Number(cursor));
      expect(delivery.delivered).toEqual(delivery.log);
      expect(events.filter(is('MessageQueued'))).toHaveLength(2);
      expect(events.filter(is('ExecutionStarted'))).toHaveLength(2);
      const owners: string[] = [];
      for (const finished of finishedAll) {
        expect(finished.status).toBe('COMPLETED');
        const recorded = await recordedReply(a, token, threadId, finished.executionId!);
        expect(texts.get(finished.executionId!)).toBe(recorded);
        expect(recorded.length).toBeGreaterThan(0);
        owners.push((await execution(b, finished.executionId!)).ownerInstanceId ?? '(none)');
      }
      expect(started.acceptedText).toBe('/slow 1');
      // In order also means: the second run starts (in the log every client sees) after the first finished.
      expect.soft(overlappingStarts(events), 'ExecutionStarted before the previous ExecutionFinished').toEqual([]);
      expect(follower.resubscriptions).toBe(0);
      timings.subscribeEvents = events.length;
      report(`runs claimed by: ${owners.join(', ')} (subscriber on ${a.id}, sent via ${b.id}); log: ${delivery.log.join(', ')}`);
    } finally {
      await follower.close();
    }
  }, 60_000);

  it('cancels, promptly, an execution running on one instance through a Stop sent to another', async () => {
    const [a, b] = instances;
    const threadId = await newThread(b);
    const cursor = await cursorOf(b, threadId);
    const follower = followOn(a, threadId, cursor);
    try {
      await send(b, threadId, '/slow 30');
      await send(b, threadId, 'after the stop');
      const started = await follower.waitFor(is('ExecutionStarted'));
      const executionId = started.executionId!;
      await follower.waitFor(is('TextDelta', executionId));
      const owner = byId((await execution(a, executionId)).ownerInstanceId);
      expect(owner, 'the owner is one of our instances').toBeDefined();
      const other = [a, b].find((instance) => instance !== owner)!;
      const t0 = performance.now();
      expect(await cancel(other, token, executionId)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      const finished = await follower.waitFor(is('ExecutionFinished', executionId), 5_000);
      timings.crossInstanceStopMs = Math.round(performance.now() - t0);
      expect(finished).toMatchObject({ status: 'CANCELLED' });
      expect((await execution(other, executionId)).status).toBe('CANCELLED');
      // Promptly: far sooner than the 30 s run would end (the number is reported; it is ~100-300 ms on
      // an idle machine).
      expect(timings.crossInstanceStopMs).toBeLessThan(5_000);
      // The pending message stays and runs next.
      const next = await follower.waitFor(startedWith('after the stop'));
      const nextFinished = await follower.waitFor(is('ExecutionFinished', next.executionId!));
      expect(nextFinished).toMatchObject({ status: 'COMPLETED' });
      checkStream(follower.events);
      expect.soft(overlappingStarts(follower.events), 'ExecutionStarted before the previous ExecutionFinished').toEqual([]);
      report(`stop: execution on ${owner!.id}, Stop via ${other.id}, CANCELLED after ${timings.crossInstanceStopMs} ms`);
    } finally {
      await follower.close();
    }
  }, 60_000);

  it('interrupts, from another instance, the run of an instance killed with SIGKILL, once, and runs the queued message', async () => {
    await launch('c');
    const c = instances[2];
    const threadId = await newThread(c);
    const cursor = await cursorOf(c, threadId);
    await send(c, threadId, '/slow 30');
    await send(c, threadId, 'after the crash');
    const rawThreadId = decodeId('threadId', threadId, 'Thread');
    const [running] = await executionRowsReaching(db.prisma, rawThreadId, 'RUNNING', { timeoutMs: 15_000 });
    const owner = byId(running.ownerInstanceId);
    expect(owner, `owner ${running.ownerInstanceId} is one of ours`).toBeDefined();
    const survivors = alive().filter((instance) => instance !== owner);
    const follower = followOn(survivors[0], threadId, cursor);
    try {
      const started = await follower.waitFor(is('ExecutionStarted'));
      const executionId = started.executionId!;
      expect(decodeId('executionId', executionId, 'Execution')).toBe(running.id);
      await follower.waitFor(is('TextDelta', executionId)); // mid-run
      const t0 = performance.now();
      await owner!.kill();
      // The dead instance's last lease, as it left it (nothing renews it any more).
      const lease = await db.prisma.instance.findUniqueOrThrow({ where: { id: owner!.id }, select: { expiresAt: true } });
      const interrupted = await follower.waitFor(is('ExecutionFinished', executionId), 10_000);
      timings.interruptionLatencyMs = Math.round(performance.now() - t0);
      expect(interrupted).toMatchObject({ status: 'INTERRUPTED' });
      // Not before the lease expired: a live instance's runs are never taken from it.
      const finished = await db.prisma.execution.findUniqueOrThrow({ where: { id: running.id }, select: { finishedAt: true } });
      expect(finished.finishedAt!.getTime()).toBeGreaterThanOrEqual(lease.expiresAt.getTime());

      const next = await follower.waitFor(startedWith('after the crash'));
      const nextFinished = await follower.waitFor(is('ExecutionFinished', next.executionId!), 10_000);
      expect(nextFinished).toMatchObject({ status: 'COMPLETED' });

      const events = [...follower.events];
      checkStream(events);
      expect.soft(overlappingStarts(events), 'ExecutionStarted before the previous ExecutionFinished').toEqual([]);
      const errors = events.filter(is('ErrorEvent'));
      expect(errors.map((error) => [error.executionId, error.messageKey])).toEqual([[executionId, 'error.interrupted']]);
      const recorded = messagesOf(await conversation(survivors[0], token, threadId)).filter((message) => message.executionId === executionId);
      const errorParts = recorded.flatMap((message) => message.parts).filter((part) => part.__typename === 'ErrorPart');
      expect(errorParts).toHaveLength(1);
      expect(errorParts[0]).toMatchObject({ messageKey: 'error.interrupted' });
      const executions = await db.prisma.execution.findMany({
        where: { threadId: rawThreadId },
        orderBy: { createdAt: 'asc' },
        select: { acceptedText: true, status: true, ownerInstanceId: true },
      });
      expect(executions.map((row) => [row.acceptedText, row.status])).toEqual([
        ['/slow 30', 'INTERRUPTED'],
        ['after the crash', 'COMPLETED'],
      ]);
      expect(executions[1].ownerInstanceId).not.toBe(owner!.id);
      expect(await db.prisma.queueItem.count({ where: { threadId: rawThreadId } })).toBe(0);
      const interrupter = survivors.find((instance) => instance.stderr().includes('execution interrupted'));
      report(
        `kill -9: ${owner!.id} killed mid-run; INTERRUPTED after ${timings.interruptionLatencyMs} ms` +
          ` (lease ${LEASE_MS} ms, sweep ${SWEEP_MS} ms) by ${interrupter?.id ?? '(not logged)'}; next run on ${executions[1].ownerInstanceId}`,
      );
    } finally {
      await follower.close();
    }
  }, 120_000);

  it('keeps the queue invariants under a bounded random soak through random instances', async () => {
    const pool = alive().slice(0, 2);
    expect(pool).toHaveLength(2);
    const random = mulberry32(20_240_611);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const THREADS = 5;
    const OPERATIONS = 60;

    interface Sent {
      queueId: string;
      threadId: string;
      text: string;
      removed: boolean;
    }
    const threads: string[] = [];
    const followers: Follower[] = [];
    const sent: Sent[] = [];
    const outcomes: Record<string, number> = {};
    const count = (key: string) => (outcomes[key] = (outcomes[key] ?? 0) + 1);
    let maxActive = 0;
    const streamOverlaps: string[] = [];
    for (let index = 0; index < THREADS; index++) {
      const threadId = await newThread(pick(pool));
      threads.push(threadId);
      followers.push(followOn(pick(pool), threadId, '0'));
    }
    const rawThreads = threads.map((threadId) => decodeId('threadId', threadId, 'Thread'));
    const observeActive = async () => {
      const active = await db.prisma.execution.groupBy({
        by: ['threadId'],
        where: { threadId: { in: rawThreads }, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
        _count: { _all: true },
      });
      for (const row of active) maxActive = Math.max(maxActive, row._count._all);
      expect(active.every((row) => row._count._all <= 1)).toBe(true);
    };

    try {
      const started = performance.now();
      let lastBurstThread: string | null = null;
      for (let step = 0; step < OPERATIONS; step++) {
        const via = pick(pool);
        const roll = random();
        // Queue operations mostly go to the thread that got the latest burst: it most likely has
        // messages waiting, however fast or slow this machine runs the replies.
        const threadId: string = roll >= 0.35 && lastBurstThread && random() < 0.7 ? lastBurstThread : pick(threads);
        const mine = sent.filter((item) => item.threadId === threadId && !item.removed);
        // Edits and removals aim at messages the queue still shows (they may start meanwhile).
        const pendingOf = async () => {
          const pending = new Set((await queue(via, token, threadId)).items.map((item) => item.id));
          const candidates = mine.filter((item) => pending.has(item.queueId));
          return pick(candidates.length > 0 ? candidates : mine);
        };
        if (roll < 0.35 || (roll < 0.65 && mine.length === 0)) {
          // A burst, so that messages wait behind a running one and the queue operations find them.
          const burst = 1 + Math.floor(random() * 4);
          lastBurstThread = threadId;
          for (let index = 0; index < burst; index++) {
            // Now and then a longer run holds the thread, so that edits, removals and reorders find
            // pending messages however fast or slow this machine is.
            const kind = random();
            const text = kind < 0.2 ? `/slow 1.5 b${step}.${index}` : kind < 0.55 ? `/slow 0.2 s${step}.${index}` : `m${step}.${index}`;
            sent.push({ queueId: await send(via, threadId, text), threadId, text, removed: false });
            count('send');
          }
        } else if (roll < 0.5) {
          const item = await pendingOf();
          const text = random() < 0.5 ? `edited ${step}` : `/slow 0.2 e${step}`;
          const result = (await requestData(via, EditQueuedMessageDocument, { queueId: item.queueId, text }, token)).editQueuedMessage;
          if (result.__typename === 'QueueItem') item.text = text;
          else expect(result.__typename).toBe('ConflictError');
          count(`edit:${result.__typename}`);
        } else if (roll < 0.62) {
          const item = await pendingOf();
          const result = (await requestData(via, RemoveQueuedMessageDocument, { queueId: item.queueId }, token))
            .removeQueuedMessage;
          if (result.__typename === 'QueueItemRemoved') item.removed = true;
          else expect(result.__typename).toBe('ConflictError');
          count(`remove:${result.__typename}`);
        } else if (roll < 0.77) {
          const items = (await queue(via, token, threadId)).items;
          if (items.length < 2) {
            count('reorder:skipped');
            continue;
          }
          const from = pick(items);
          const to = pick(items.filter((item) => item !== from));
          const result = (
            await requestData(
              via,
              ReorderQueuedMessageDocument,
              { queueId: from.id, targetQueueId: to.id, expectedQueueIds: items.map((item) => item.id) },
              token,
            )
          ).reorderQueuedMessage;
          expect(['Queue', 'QueueChangedError', 'ConflictError']).toContain(result.__typename);
          count(`reorder:${result.__typename}`);
        } else {
          const active = (await conversation(via, token, threadId)).activeExecutionId;
          if (!active) {
            count('stop:idle');
            continue;
          }
          const result = await cancel(via, token, active);
          expect(['CancelRequested', 'ConflictError']).toContain(result.__typename);
          count(`stop:${result.__typename}`);
        }
        await observeActive();
      }
      timings.soakOperationsMs = Math.round(performance.now() - started);

      // Idle: nothing pending, nothing running.
      await threadsSettledInDatabase(db.prisma, rawThreads, { eachPoll: observeActive });
      timings.soakUntilIdleMs = Math.round(performance.now() - started);

      const executions = await db.prisma.execution.findMany({
        where: { threadId: { in: rawThreads } },
        select: { id: true, threadId: true, queueItemId: true, acceptedText: true, status: true, parentExecutionId: true },
      });
      // Every accepted, non-removed message ran exactly once, with its last accepted text; removed ones never.
      const accepted = sent.filter((item) => !item.removed);
      const byQueueItem = new Map<string, typeof executions>();
      for (const row of executions) byQueueItem.set(row.queueItemId ?? '(none)', [...(byQueueItem.get(row.queueItemId ?? '(none)') ?? []), row]);
      for (const item of sent) {
        const ran = byQueueItem.get(decodeId('queueId', item.queueId, 'QueueItem')) ?? [];
        expect(ran.length, `${item.text} (${item.removed ? 'removed' : 'accepted'})`).toBe(item.removed ? 0 : 1);
        if (!item.removed) expect(ran[0].acceptedText).toBe(item.text);
      }
      expect(executions).toHaveLength(accepted.length);
      expect(executions.every((row) => row.parentExecutionId === null)).toBe(true);
      // Every execution is terminal; nothing was interrupted or failed while all instances lived.
      const statuses: Record<string, number> = {};
      for (const row of executions) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      expect(Object.keys(statuses).every((status) => status === 'COMPLETED' || status === 'CANCELLED'), JSON.stringify(statuses)).toBe(
        true,
      );
      // One user message per execution, and a completed reply says exactly what its input asked for.
      const messages = await db.prisma.message.findMany({
        where: { threadId: { in: rawThreads } },
        select: { executionId: true, role: true, parts: true },
      });
      for (const row of executions) {
        const own = messages.filter((message) => message.executionId === row.id);
        expect(own.filter((message) => message.role === 'USER')).toHaveLength(1);
        expect(own.filter((message) => message.role === 'ASSISTANT').length).toBeLessThanOrEqual(1);
        if (row.status === 'COMPLETED') {
          const parts = (own.find((message) => message.role === 'ASSISTANT')?.parts ?? []) as { type: string; text?: string }[];
          const text = parts.filter((part) => part.type === 'text').map((part) => part.text).join('');
          const said = /^\/slow [\d.]+ (.*)$/.exec(row.acceptedText)?.[1] ?? row.acceptedText;
          expect(text).toBe(`You said: "${said}"`);
        }
      }

      // Each thread's subscriber (on a random instance) saw the whole log once, in order, and never two
      // executions active at once.
      for (const [index, follower] of followers.entries()) {
        const rawThreadId = rawThreads[index];
        const own = executions.filter((row) => row.threadId === rawThreadId);
        await follower.waitUntil((events) => events.filter(is('ExecutionFinished')).length >= own.length);
        const events = [...follower.events];
        checkStream(events);
        const delivery = await durableDelivery(db.prisma, follower, rawThreadId, 0);
        expect(delivery.delivered).toEqual(delivery.log);
        // A subscriber must never see a second execution start before the first one finished (the
        // log's seq order is what every client sees). Soft, so that the other invariants still report.
        const overlaps = overlappingStarts(events);
        if (overlaps.length > 0) streamOverlaps.push(`thread ${index}: ${overlaps.join('\n  ')}`);
        expect(events.filter(is('ExecutionStarted'))).toHaveLength(own.length);
        expect(follower.resubscriptions).toBe(0);
      }
      const overlapCount = streamOverlaps.reduce((sum, entry) => sum + entry.split('\n').length, 0);
      expect
        .soft(overlapCount, `subscribers saw an ExecutionStarted before the previous execution's ExecutionFinished:\n${streamOverlaps.slice(0, 2).join('\n')}`)
        .toBe(0);
      report(
        `soak: ${sent.length} sent, ${executions.length} executions ${JSON.stringify(statuses)}, ops ${JSON.stringify(outcomes)}, ` +
          `max active per thread ${maxActive} (database), starts before the previous finish in the event log: ${overlapCount}`,
      );
    } finally {
      await Promise.all(followers.map((follower) => follower.close()));
    }
  }, 120_000);
});

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
