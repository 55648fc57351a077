import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pino from 'pino';
import { RateLimits } from '../../src/auth/rate-limits.ts';
import { createLiveBus, type InstanceMessage } from '../../src/events/live-bus.ts';
import { parseClusterNodes } from '../../src/events/settings.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { cancel, conversation, recordedReply, send as sendMessage } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { runCli } from '../support/cli.ts';
import { durableDelivery, startInstance, stopAllChildren, type Instance } from '../support/instances.ts';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.ts';
import { brief, checkStream, is, startedWith } from '../support/run-events.ts';
import { newThread as createThread, setUpAgent } from '../support/scenario.ts';
import { describeWithServices } from '../support/backends.ts';
import { dropSchema, eventually, isolatedEnv } from '../support/server.ts';
import { report } from '../support/report.ts';
import { executionRowsReaching } from '../support/waits.ts';

const BASE_ENV = {
  // Long enough that a busy machine's stalls do not expire a live instance's lease.
  PARLEY_LEASE_MS: '2000',
  PARLEY_CONSUMER_SWEEP_MS: '100',
  PARLEY_TEXT_FLUSH_MS: '50',
  PARLEY_SHUTDOWN_GRACE_MS: '500',
  PARLEY_MUTATIONS_PER_MINUTE: '100000',
  PARLEY_LOG_LEVEL: 'warn',
  // The resyncs each fault costs are read from /metrics.
  PARLEY_METRICS: 'true',
};

type Named = Instance & { id: string };

/** The reply of `/slow 6`: 24 chunks, one about every 250 ms. */
const COUNTING = `Counting: ${Array.from({ length: 24 }, (_, index) => index + 1).join(' ')}`;

describeWithServices('two Parley instances on PostgreSQL and a Redis Cluster of our own (3 masters, 3 replicas)', () => {
  const run = randomUUID().slice(0, 6);
  let cluster: RedisCluster;
  let env: Record<string, string>;
  let db: Database;
  let token: string;
  let agentId: string;
  let instances: Named[] = [];
  const timings: Record<string, number> = {};

  const byId = (id: string | null | undefined) => instances.find((instance) => instance.id === id);
  const send = async (via: Instance, threadId: string, text: string) => (await sendMessage(via, token, threadId, text)).queueId;
  const raw = (threadId: string) => decodeId('threadId', threadId, 'Thread');
  const recordedTextLength = async (rawExecutionId: string) => {
    const message = await db.prisma.message.findFirst({
      where: { executionId: rawExecutionId, role: 'ASSISTANT' },
      orderBy: { seq: 'desc' },
      select: { parts: true },
    });
    const parts = (message?.parts ?? []) as { type: string; text?: string }[];
    return parts.filter((part) => part.type === 'text').reduce((sum, part) => sum + (part.text?.length ?? 0), 0);
  };
  /** Times live delivery came back on `instance` after it saw its subscriptions fail. */
  const resyncs = async (instance: Instance) => {
    const text = await (await fetch(new URL('/metrics', instance.url))).text();
    return Number(/^parley_redis_reconnects_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
  };
  const everyInstanceReady = async (status: 200 | 503, timeoutMs: number) => {
    for (const instance of instances) {
      await eventually(async () => (await fetch(new URL('/ready', instance.url))).status === status, timeoutMs, `/ready ${status} on ${instance.id}`);
    }
  };
  const diagnostics = () => instances.map((instance) => `--- ${instance.id}\n${instance.stderr().slice(-3_000)}`).join('\n');

  /**
   * `/slow 6` sent through one instance, followed from the other (not the one running it); `fault`
   * runs once the follower has two deltas. The follower must see the whole reply once, in order, and
   * every durable event of the log exactly once; then a Stop sent through the instance that does not
   * run the next reply ends it promptly.
   */
  async function streamThrough(
    name: string,
    fault: (context: { threadId: string; channelSlot: number; executionId: string }) => Promise<void>,
    options: { resyncs: 'none' | 'some' | 'any' } = { resyncs: 'none' },
  ) {
    const threadId = await createThread(instances[0]!, token, agentId);
    const cursor = (await conversation(instances[0]!, token, threadId)).eventCursor;
    await send(instances[1]!, threadId, '/slow 6');
    const [running] = await executionRowsReaching(db.prisma, raw(threadId), 'RUNNING', { timeoutMs: 15_000 });
    const owner = byId(running.ownerInstanceId);
    expect(owner, `owner ${running.ownerInstanceId}`).toBeDefined();
    const watcher = instances.find((instance) => instance !== owner)!;
    const follower: Follower = follow(watcher, token, threadId, cursor, { resume: true });
    try {
      const started = await follower.waitFor(is('ExecutionStarted'));
      const executionId = started.executionId!;
      await follower.waitUntil((events) => events.filter(is('TextDelta', executionId)).length >= 2);
      const resyncsBefore = await resyncs(watcher);
      const t0 = performance.now();
      await fault({ threadId, channelSlot: await cluster.slotOf(`thread:${raw(threadId)}`), executionId: running.id });
      timings[`${name}FaultMs`] = Math.round(performance.now() - t0);
      const finished = await follower.waitFor(is('ExecutionFinished', executionId), 20_000);
      timings[`${name}FinishedAfterFaultMs`] = Math.round(performance.now() - t0);
      expect(finished, diagnostics()).toMatchObject({ status: 'COMPLETED' });
      // The subscriber's instance noticed the fault (its subscription ended) and caught up, or had nothing to notice.
      const resynced = (await resyncs(watcher)) - resyncsBefore;
      if (options.resyncs === 'some') expect(resynced).toBeGreaterThanOrEqual(1);
      else if (options.resyncs === 'none') expect(resynced).toBe(0);

      const events = [...follower.events];
      // Throws on a repeated cursor or an out-of-order seq; collects gaps and overlaps of the text.
      const textProblems: string[] = [];
      const texts = checkStream(events, textProblems);
      const delivery = await durableDelivery(db.prisma, follower, raw(threadId), Number(cursor));
      expect(delivery.delivered).toEqual(delivery.log);
      expect(await recordedReply(watcher, token, threadId, executionId)).toBe(COUNTING);
      expect(textProblems, `the reply as the subscriber shows it: "${texts.get(executionId)}"`).toEqual([]);
      expect(texts.get(executionId), events.map(brief).join(' | ')).toBe(COUNTING);

      // Stop works across instances on the cluster as it is now.
      await send(watcher, threadId, '/slow 30');
      const next = await follower.waitFor(startedWith('/slow 30'), 15_000);
      await follower.waitFor(is('TextDelta', next.executionId!), 15_000);
      const [nextRunning] = await executionRowsReaching(db.prisma, raw(threadId), 'RUNNING', { timeoutMs: 15_000 });
      const nextOwner = byId(nextRunning.ownerInstanceId);
      const other = instances.find((instance) => instance !== nextOwner)!;
      const t1 = performance.now();
      expect(await cancel(other, token, next.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      const cancelled = await follower.waitFor(is('ExecutionFinished', next.executionId!), 10_000);
      timings[`${name}StopMs`] = Math.round(performance.now() - t1);
      expect(cancelled).toMatchObject({ status: 'CANCELLED' });
      checkStream(follower.events);
      const snapshots = events.filter(is('MessageSnapshot', executionId)).length;
      report(
        `redis cluster, ${name}: run on ${owner!.id}, subscriber on ${watcher.id}; fault took ${timings[`${name}FaultMs`]} ms, ` +
          `ExecutionFinished ${timings[`${name}FinishedAfterFaultMs`]} ms after it began; ${snapshots} snapshot(s), ` +
          `${follower.resubscriptions} resubscription(s), ${resynced} resync(s) of the subscriber's instance; Stop via ${other.id} landed in ${timings[`${name}StopMs`]} ms`,
      );
    } finally {
      await follower.close();
    }
  }

  beforeAll(async () => {
    const t0 = performance.now();
    cluster = await startRedisCluster();
    timings.clusterStartMs = Math.round(performance.now() - t0);
    const { REDIS_URL: _single, ...database } = isolatedEnv('postgres');
    env = { ...database, REDIS_CLUSTER_NODES: cluster.seeds };
    instances = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const id = `cluster-${name}-${run}`;
        return { ...(await startInstance({ ...env, ...BASE_ENV, PARLEY_INSTANCE_ID: id })), id };
      }),
    );
    db = await openDatabase({ databaseUrl: env.DATABASE_URL });
    ({ token, agentId } = await setUpAgent(db, { project: 'Cluster' }));
  }, 120_000);

  afterAll(async () => {
    report(`redis-cluster timings: ${JSON.stringify(timings)}`);
    await Promise.all(instances.map((instance) => instance.stop()));
    await stopAllChildren();
    await cluster?.stop();
    await db?.close();
    if (env) await dropSchema(env.DATABASE_URL);
  }, 30_000);

  it('streams a reply to a subscriber on the other instance over sharded channels, and a Stop lands across instances', async () => {
    // The first probe also opens the command connections to every node: on a busy machine it may miss its 2 s.
    for (const instance of instances) {
      await eventually(async () => (await fetch(new URL('/ready', instance.url))).status === 200, 15_000, `/ready 200 on ${instance.id}`).catch(
        (error: Error) => expect.fail(`${error.message}\n${diagnostics()}`),
      );
    }
    await streamThrough('healthy', async ({ channelSlot, threadId }) => {
      // The thread's channel is a sharded one, held on the master that owns its slot; no classic channel is used.
      const owner = cluster.connect(await cluster.masterOf(channelSlot));
      try {
        const channel = `thread:${raw(threadId)}`;
        const [, sharded] = (await owner.call('PUBSUB', 'SHARDNUMSUB', channel)) as [string, number];
        expect(Number(sharded)).toBeGreaterThanOrEqual(1);
        expect(await owner.call('PUBSUB', 'CHANNELS')).toEqual([]);
      } finally {
        owner.disconnect();
      }
    });
  }, 60_000);

  it('parley doctor reports the cluster, and rate limits count once for all instances on it', async () => {
    const doctor = await runCli(['doctor'], { DATABASE_URL: env.DATABASE_URL!, REDIS_CLUSTER_NODES: cluster.seeds });
    const line = doctor.stdout.split('\n').find((row) => row.startsWith('redis '));
    expect(line, doctor.stdout + doctor.stderr).toMatch(/PASS\s+cluster_state:ok; 6\/6 nodes reachable, 3 masters; sharded pub\/sub round trip in \d+ ms/);
    expect(doctor.stdout).toContain('Redis Cluster (seeds');

    // Two instances' counters on one cluster: the budget of 3 is shared, whichever instance counts.
    const clients = [0, 1].map(() => new Cluster(parseClusterNodes(cluster.seeds)));
    try {
      const scope = `cluster-test-${run}`;
      const [first, second] = clients.map((redis) => new RateLimits({ mutationsPerMinute: 3, queriesPerMinute: 3, scope, redis }));
      await Promise.all(clients.map((client) => eventually(() => client.status === 'ready')));
      const subject = { userId: 'u1' };
      expect(await first!.consume('mutation', subject)).toBeNull();
      expect(await second!.consume('mutation', subject)).toBeNull();
      expect(await first!.consume('mutation', subject)).toBeNull();
      expect(await second!.consume('mutation', subject)).toMatchObject({ retryAfterS: expect.any(Number) });
      expect(await clients[0]!.exists(`parley:rate:${scope}:mutation:user:u1`)).toBe(1);
    } finally {
      for (const client of clients) client.disconnect();
    }
  }, 60_000);

  it('hears, on another instance, every instance message announced before instanceMessagesHeard answers true', async () => {
    const buses = [0, 1].map(() => createLiveBus({ REDIS_CLUSTER_NODES: cluster.seeds }, pino({ level: 'silent' })));
    try {
      const [announcer, listener] = buses as [ReturnType<typeof createLiveBus>, ReturnType<typeof createLiveBus>];
      await eventually(() => listener.instanceMessagesHeard(), 10_000, 'the instance channel to be confirmed');
      const heard: InstanceMessage[] = [];
      listener.onInstanceMessage((message) => heard.push(message));
      for (let index = 0; index < 20; index++) await announcer.announceToInstances({ kind: 'token-revoked', tokenId: `t${index}` });
      expect(await listener.instanceMessagesHeard()).toBe(true);
      expect(heard.map((message) => (message as { tokenId: string }).tokenId)).toEqual(Array.from({ length: 20 }, (_, index) => `t${index}`));
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
    }
  }, 30_000);

  it('loses nothing and repeats nothing when the thread channel\'s slot migrates to another master mid-stream', async () => {
    await streamThrough('slot migration', async ({ channelSlot }) => {
      const source = await cluster.masterOf(channelSlot);
      const masters = await Promise.all([0, 8_000, 16_000].map((slot) => cluster.masterOf(slot)));
      const target = masters.find((master) => master !== source)!;
      await cluster.migrateSlot(channelSlot, target);
      expect((await cluster.masterOf(channelSlot)).port).toBe(target.port);
    }, { resyncs: 'some' });
  }, 60_000);

  it('loses nothing and repeats nothing when the master of the thread channel\'s slot is killed mid-stream and its replica promoted', async () => {
    await streamThrough('master killed', async ({ channelSlot }) => {
      const master = await cluster.masterOf(channelSlot);
      await cluster.kill(master);
      const promoted = await cluster.promoteReplicaOf(master);
      expect((await cluster.masterOf(channelSlot)).port).toBe(promoted.port);
    }, { resyncs: 'some' });
  }, 60_000);

  it('loses nothing and repeats nothing when the whole cluster is killed mid-stream and started again', async () => {
    await streamThrough('cluster killed and restarted', async () => {
      await cluster.killAll();
      try {
        await everyInstanceReady(503, 10_000);
      } finally {
        await cluster.restartAll();
      }
      await everyInstanceReady(200, 20_000);
    }, { resyncs: 'some' });
  }, 90_000);

  it('loses nothing and repeats nothing when the whole cluster stops answering for a while mid-stream', async () => {
    await streamThrough('cluster paused', async ({ executionId }) => {
      const before = await recordedTextLength(executionId);
      cluster.pause();
      try {
        // The reply goes on recording while nothing in the cluster answers: about four more chunks.
        await eventually(async () => (await recordedTextLength(executionId)) >= before + 10, 15_000, 'the reply to record on');
        await everyInstanceReady(503, 10_000);
      } finally {
        await cluster.resume();
      }
      await everyInstanceReady(200, 15_000);
      // Open connections deliver what the cluster buffered; should the nodes, waking, elect a new
      // master meanwhile, that is a failover as above, with a resync.
    }, { resyncs: 'any' });
  }, 90_000);
});
