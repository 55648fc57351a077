import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { describeWithServices } from '../support/backends.ts';
import { conversation, recordedReply, send } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { durableDelivery, startInstance, startRedis, stopAllChildren, type Instance, type RedisServer } from '../support/instances.ts';
import { startPrivateCluster, type PrivateCluster } from '../support/private-cluster.ts';
import { finishedOf, replyTexts, is, startedWith } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually } from '../support/server.ts';

const RUNS = Number(process.env.FAULT_RUNS ?? 20);

/**
 * What a load balancer does: each new connection goes to the first instance whose /ready answers
 * 200, so an instance that is shutting down (503) gets no new clients.
 */
async function startBalancer(instances: Instance[]): Promise<{ url: string; wsUrl: string; close(): Promise<void> }> {
  const ready = async (instance: Instance) => {
    try {
      return (await fetch(new URL('/ready', instance.url), { signal: AbortSignal.timeout(3_000) })).status === 200;
    } catch {
      return false;
    }
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.pause();
    void (async () => {
      let target: Instance | undefined;
      for (const instance of instances) if (!target && (await ready(instance))) target = instance;
      if (!target) return client.destroy();
      const upstream = net.connect(target.port, '127.0.0.1');
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      client.resume();
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.once('close', end).once('error', end);
      upstream.once('close', end).once('error', end);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeWithServices('SIGTERM under load: two instances, a cluster and a redis-server of our own', () => {
  let cluster: PrivateCluster;
  let redis: RedisServer;
  let db: Database;
  let instances: Instance[] = [];

  beforeAll(async () => {
    [cluster, redis] = await Promise.all([startPrivateCluster(), startRedis()]);
    const env = {
      DATABASE_URL: `${cluster.url}?schema=shutdown`,
      REDIS_URL: redis.url,
      // Long enough that a loaded machine's stalls never expire a live instance's lease: `a` gives its
      // lease up when it exits, so `b` takes over its runs at once anyway.
      PARLEY_LEASE_MS: '10000',
      PARLEY_CONSUMER_SWEEP_MS: '100',
      PARLEY_TEXT_FLUSH_MS: '50',
      // Shorter than most runs: some end COMPLETED within it, the rest are handed over INTERRUPTED.
      PARLEY_SHUTDOWN_GRACE_MS: '1500',
    };
    db = await openDatabase({ databaseUrl: env.DATABASE_URL });
    await db.migrate();
    instances = await Promise.all(['a', 'b'].map((name) => startInstance({ ...env, PARLEY_INSTANCE_ID: `shutdown-${name}` })));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop().catch(() => {})));
    await stopAllChildren();
    await db?.close();
    await cluster?.destroy();
  }, 60_000);

  it('records the end of every run, closes sockets with 1012, and its clients resume on the other instance without a gap', async () => {
    const [a, b] = instances as [Instance, Instance];
    const balancer = await startBalancer([a, b]);
    const { token, agentId } = await setUpAgent(db, { project: 'Shutdown' });
    const followers: Follower[] = [];
    try {
      const threads = await Promise.all(Array.from({ length: RUNS }, () => newThread(a, token, agentId)));
      const cursors = await Promise.all(threads.map(async (threadId) => (await conversation(a, token, threadId)).eventCursor));
      // Every client is connected to `a` (the balancer's first choice while it is ready).
      threads.forEach((threadId, index) => followers.push(follow(balancer, token, threadId, cursors[index]!, { resume: true })));
      await Promise.all(threads.map((threadId, index) => send(index % 2 ? a : b, token, threadId, `/slow ${2 + (index % 2)}`)));
      const started = await Promise.all(followers.map((follower) => follower.waitFor(is('ExecutionStarted'), 60_000)));

      const stopping = a.stop();
      // /ready says 503 first, so that the balancer drains `a` while its runs settle.
      await eventually(async () => (await fetch(new URL('/ready', a.url))).status === 503, 10_000, '/ready to say 503');
      await stopping;
      expect(a.process.exitCode).toBe(0);

      const ends = await Promise.all(
        followers.map((follower, index) => follower.waitFor(finishedOf(started[index]!.executionId!), 60_000)),
      );
      for (const end of ends) expect(['COMPLETED', 'INTERRUPTED']).toContain(end.status);
      const closedWith = new Set<number>();
      for (const [index, follower] of followers.entries()) {
        const executionId = started[index]!.executionId!;
        for (const error of follower.errors) {
          const code = (error as { socketClosed?: { code: number } }).socketClosed?.code;
          if (code !== undefined) closedWith.add(code);
        }
        const rawThreadId = decodeId('threadId', threads[index]!, 'Thread');
        const delivery = await durableDelivery(db.prisma, follower, rawThreadId, Number(cursors[index]));
        expect(delivery.delivered).toEqual(delivery.log);
        expect(follower.events.filter(finishedOf(executionId))).toHaveLength(1);
        // Nothing recorded twice: one reply message, one end.
        const rawExecutionId = decodeId('executionId', executionId, 'Execution');
        const replies = await db.prisma.message.count({ where: { executionId: rawExecutionId, role: 'ASSISTANT' } });
        expect(replies, `replies of ${executionId}, which ended ${ends[index]!.status}`).toBe(1);
        // Across its reconnections a client applies text as the recovery contract says (throws on a gap).
        const texts = replyTexts(follower.events);
        if (ends[index]!.status === 'COMPLETED') {
          expect(texts.get(executionId)).toBe(await recordedReply(b, token, threads[index]!, executionId));
        } else {
          expect(follower.events.filter(is('ErrorEvent', executionId))).toHaveLength(1);
        }
      }
      // The clients of `a` were told to reconnect elsewhere, and did.
      expect([...closedWith]).toContain(1012);
      expect(followers.some((follower) => follower.resubscriptions > 0)).toBe(true);
      // The other instance takes new work.
      const next = await send(b, token, threads[0]!, 'after the shutdown');
      await followers[0]!.waitFor(startedWith('after the shutdown'));
      expect(next.__typename).toBe('MessageQueued');
    } finally {
      await Promise.all(followers.map((follower) => follower.close()));
      await balancer.close();
    }
  }, 120_000);
});
