import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParleyClient } from '../../packages/client/src/index.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { cancel, conversation, recordedReply, send as sendMessage } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import {
  durableDelivery,
  startInstance,
  startRedis,
  stopAllChildren,
  type Instance,
  type RedisServer,
} from '../support/instances.ts';
import { brief, checkStream, is, startedWith } from '../support/run-events.ts';
import { newThread as createThread, setUpAgent } from '../support/scenario.ts';
import { describeWithServices } from '../support/backends.ts';
import { dropSchema, eventually, isolatedEnv } from '../support/server.ts';
import { report } from '../support/report.ts';
import { until } from '../support/session.ts';
import { ENDED, executionReaching, executionRowsReaching } from '../support/waits.ts';

const BASE_ENV = {
  // Long enough that a busy machine's stalls do not expire a live instance's lease.
  PARLEY_LEASE_MS: '2000',
  PARLEY_CONSUMER_SWEEP_MS: '100',
  PARLEY_TEXT_FLUSH_MS: '50',
  PARLEY_SHUTDOWN_GRACE_MS: '500',
  PARLEY_LOG_LEVEL: 'warn',
};

type Named = Instance & { id: string };

/** The reply of `/slow 8`: 33 chunks, one about every 240 ms. */
const COUNTING = `Counting: ${Array.from({ length: 32 }, (_, index) => index + 1).join(' ')}`;

describeWithServices('Parley instances through a Redis outage (a redis-server of our own)', () => {
  const run = randomUUID().slice(0, 6);
  let redis: RedisServer;
  let env: Record<string, string>;
  let db: Database;
  let token: string;
  let agentId: string;
  let instances: Named[] = [];
  const timings: Record<string, number | string> = {};

  const byId = (id: string | null | undefined) => instances.find((instance) => instance.id === id);
  const newThread = (via: Instance) => createThread(via, token, agentId);
  const cursorOf = async (via: Instance, threadId: string) => (await conversation(via, token, threadId)).eventCursor;
  const send = async (via: Instance, threadId: string, text: string) => (await sendMessage(via, token, threadId, text)).queueId;
  /** Follows from `after` on `via`, resuming from its last cursor whenever the subscription drops. */
  const followOn = (via: Instance, threadId: string, after: string) => follow(via, token, threadId, after, { resume: true });
  const rawThreadId = (threadId: string) => decodeId('threadId', threadId, 'Thread');
  const recordedTextLength = async (rawExecutionId: string) => {
    const message = await db.prisma.message.findFirst({
      where: { executionId: rawExecutionId, role: 'ASSISTANT' },
      orderBy: { seq: 'desc' },
      select: { parts: true },
    });
    const parts = (message?.parts ?? []) as { type: string; text?: string }[];
    return parts.filter((part) => part.type === 'text').reduce((sum, part) => sum + (part.text?.length ?? 0), 0);
  };
  const readiness = async (instance: Instance) => {
    const response = await fetch(new URL('/ready', instance.url));
    return { status: response.status, body: (await response.json()) as { redis: boolean; database: boolean } };
  };

  beforeAll(async () => {
    redis = await startRedis();
    env = { ...isolatedEnv('postgres'), REDIS_URL: redis.url };
    const [a, b] = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const id = `outage-${name}-${run}`;
        return { ...(await startInstance({ ...env, ...BASE_ENV, PARLEY_INSTANCE_ID: id })), id };
      }),
    );
    instances = [a, b];
    db = await openDatabase({ databaseUrl: env.DATABASE_URL });
    ({ token, agentId } = await setUpAgent(db, { project: 'Outage' }));
  }, 120_000);

  afterAll(async () => {
    report(`redis-outage timings: ${JSON.stringify(timings)}`);
    await Promise.all(instances.map((instance) => instance.stop()));
    await stopAllChildren();
    await db?.close();
    if (env) await dropSchema(env.DATABASE_URL);
  }, 30_000);

  it('lets a subscriber on one instance follow a run on the other through a Redis restart, without a gap or a duplicate', async () => {
    const [a, b] = instances;
    const threadId = await newThread(b);
    const cursor = await cursorOf(b, threadId);
    await send(b, threadId, '/slow 8');
    const [running] = await executionRowsReaching(db.prisma, rawThreadId(threadId), 'RUNNING', { timeoutMs: 15_000 });
    const owner = byId(running.ownerInstanceId);
    expect(owner, `owner ${running.ownerInstanceId}`).toBeDefined();
    const watcher = owner === a ? b : a;
    const follower = followOn(watcher, threadId, cursor);
    try {
      const started = await follower.waitFor(is('ExecutionStarted'));
      const executionId = started.executionId!;
      await follower.waitUntil((events) => events.filter(is('TextDelta', executionId)).length >= 2);
      const deltasBefore = follower.events.filter(is('TextDelta')).length;
      const haveBefore = checkStream(follower.events).get(executionId)!.length;
      // Redis goes away while the run streams on: it stays down until the owner has recorded about
      // five more chunks (over a second: longer than ioredis keeps commands in its offline queue, so
      // live deltas are lost for good), then it comes back while the run still has seconds to go.
      const t0 = performance.now();
      await redis.stop();
      await eventually(async () => (await recordedTextLength(running.id)) >= haveBefore + 14, 15_000);
      timings.redisDownMs = Math.round(performance.now() - t0);
      await redis.restart();
      timings.redisRestartMs = Math.round(performance.now() - t0);
      for (const instance of instances) await eventually(async () => (await readiness(instance)).status === 200);
      timings.readyAfterRestartMs = Math.round(performance.now() - t0);
      const textAtReady = await recordedTextLength(running.id);
      const finished = await follower.waitFor(is('ExecutionFinished', executionId), 15_000);
      timings.finishedAfterRestartMs = Math.round(performance.now() - t0);
      expect(finished).toMatchObject({ status: 'COMPLETED' });

      const events = [...follower.events];
      // Throws on a repeated cursor or out-of-order seq; collects gaps and overlaps of the text.
      const textProblems: string[] = [];
      const texts = checkStream(events, textProblems);
      const delivery = await durableDelivery(db.prisma, follower, rawThreadId(threadId), Number(cursor));
      expect(delivery.delivered).toEqual(delivery.log);
      expect(await recordedReply(watcher, token, threadId, executionId)).toBe(COUNTING);
      // The deltas lost while Redis was away must come back as a snapshot after the reconnect, so the
      // client's text has no hole (soft: the rest below still runs and reports).
      expect.soft(textProblems, `the reply as the subscriber shows it: "${texts.get(executionId)}"`).toEqual([]);
      expect.soft(texts.get(executionId), events.map(brief).join(' | ')).toBe(COUNTING);

      // Live delivery works again after the restart.
      await send(b, threadId, '/tokens 5');
      const next = await follower.waitFor(startedWith('/tokens 5'), 15_000);
      await follower.waitFor(is('ExecutionFinished', next.executionId!), 15_000);
      const all = checkStream(follower.events, []);
      expect(all.get(next.executionId!)).toBe('t1 t2 t3 t4 t5 ');

      const how =
        follower.resubscriptions > 0
          ? `the socket/subscription dropped ${follower.socketClosures}x and was resumed ${follower.resubscriptions}x with runEvents(after: lastCursor)`
          : 'the subscription stayed open; the server caught up after Redis reconnected';
      const snapshots = events.filter(is('MessageSnapshot', executionId)).length;
      const deltas = events.filter(is('TextDelta', executionId)).length;
      timings.outageRecovery =
        `${how}; ${deltasBefore} deltas before Redis stopped, ${deltas} in all, ${snapshots} snapshot(s)` +
        (textProblems.length > 0 ? `; text problems: ${textProblems.join('; ')}` : '; no gap');
      report(
        `redis restart: run on ${owner!.id}, subscriber on ${watcher.id}: ${timings.outageRecovery}; ` +
          `Redis down ${timings.redisDownMs} ms (back after ${timings.redisRestartMs} ms, both /ready 200 after ${timings.readyAfterRestartMs} ms, ` +
          `${textAtReady}/${COUNTING.length} characters recorded then), ExecutionFinished ${timings.finishedAfterRestartMs} ms after it went down`,
      );
    } finally {
      await follower.close();
    }
  }, 60_000);

  it('while Redis is down: /ready is 503, a Stop through the other instance still lands, and a sent message runs', async () => {
    const threadId = await newThread(instances[0]);
    await send(instances[1], threadId, '/slow 30');
    const [running] = await executionRowsReaching(db.prisma, rawThreadId(threadId), 'RUNNING', { timeoutMs: 15_000 });
    const owner = byId(running.ownerInstanceId);
    expect(owner, `owner ${running.ownerInstanceId}`).toBeDefined();
    const other = instances.find((instance) => instance !== owner)!;
    const executionId = (await conversation(other, token, threadId)).activeExecutionId!;
    expect(decodeId('executionId', executionId, 'Execution')).toBe(running.id);

    await redis.stop();
    try {
      for (const instance of instances) {
        const ready = await eventually(async () => {
          const probe = await readiness(instance);
          return probe.status === 503 ? probe : null;
        });
        expect(ready.body).toMatchObject({ redis: false, database: true });
      }

      const t0 = performance.now();
      expect(await cancel(other, token, executionId)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      const cancelled = await executionReaching(other, token, executionId, ENDED, 10_000);
      timings.stopWhileRedisDownMs = Math.round(performance.now() - t0);
      expect(cancelled).toMatchObject({ status: 'CANCELLED' });

      const t1 = performance.now();
      await send(other, threadId, 'sent while redis is down');
      const [ran] = await executionRowsReaching(db.prisma, rawThreadId(threadId), ENDED, { acceptedText: 'sent while redis is down', timeoutMs: 10_000 });
      timings.messageWhileRedisDownMs = Math.round(performance.now() - t1);
      expect(ran.status).toBe('COMPLETED');
      expect(await recordedReply(other, token, threadId, encodeId('Execution', ran.id))).toBe('You said: "sent while redis is down"');
      for (const instance of instances) expect((await readiness(instance)).status).toBe(503);
      report(
        `redis down: run on ${owner!.id}, Stop via ${other.id} CANCELLED after ${timings.stopWhileRedisDownMs} ms; ` +
          `message sent via ${other.id} ran on ${ran.ownerInstanceId} within ${timings.messageWhileRedisDownMs} ms`,
      );
    } finally {
      if (!redis.running()) await redis.restart();
    }

    const t2 = performance.now();
    for (const instance of instances) {
      const ready = await eventually(async () => {
        const probe = await readiness(instance);
        return probe.status === 200 ? probe : null;
      });
      expect(ready.body).toMatchObject({ redis: true, database: true });
    }
    timings.readyAgainMs = Math.round(performance.now() - t2);

    // What happened during the outage is all in the log: a subscriber from the start sees it in order.
    const follower = followOn(instances[0], threadId, '0');
    try {
      const last = await follower.waitFor(
        (event) => is('ExecutionFinished')(event) && event.executionId !== executionId,
        15_000,
      );
      expect(last).toMatchObject({ status: 'COMPLETED' });
      const events = [...follower.events];
      checkStream(events);
      expect(events.filter(is('ExecutionFinished')).map((event) => event.status)).toEqual(['CANCELLED', 'COMPLETED']);
      const delivery = await durableDelivery(db.prisma, follower, rawThreadId(threadId), 0);
      expect(delivery.delivered).toEqual(delivery.log);
    } finally {
      await follower.close();
    }
  }, 60_000);

  it('the shipped client on one instance shows a run on the other through a Redis restart: the whole reply, each message once', async () => {
    const [a, b] = instances;
    const threadId = await newThread(b);
    await send(b, threadId, '/slow 8');
    const [running] = await executionRowsReaching(db.prisma, rawThreadId(threadId), 'RUNNING', { timeoutMs: 15_000 });
    const watcher = byId(running.ownerInstanceId) === a ? b : a;
    const client = createParleyClient({ url: watcher.url, token, webSocketImpl: WebSocket, reconnectDelayMs: 50 });
    const session = client.thread(threadId);
    try {
      await session.ready();
      const executionId = encodeId('Execution', running.id);
      await until(session, (state) => (state.executions[executionId]?.text.length ?? 0) > 0, 15_000);
      const haveBefore = await recordedTextLength(running.id);
      await redis.stop();
      await eventually(async () => (await recordedTextLength(running.id)) >= haveBefore + 14, 15_000);
      await redis.restart();
      const done = await until(
        session,
        (state) => state.messages.find((message) => message.role === 'ASSISTANT' && message.executionId === executionId)?.outcome === 'COMPLETED',
        30_000,
      );
      expect(done.executions[executionId]!.text).toBe(COUNTING);
      expect(done.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    } finally {
      await session.close();
    }
  }, 90_000);

});
