import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLiveBus, type LiveBus } from '../../src/events/live-bus.ts';
import type { ThreadEvent } from '../../src/events/thread-event.ts';
import { createLogger } from '../../src/observability/logging.ts';
import { describeWithServices } from '../support/backends.ts';
import { runCli } from '../support/cli.ts';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster.ts';
import { dropSchema, eventually, isolatedEnv } from '../support/server.ts';

describeWithServices('a Redis Cluster of our own that requires a password (REDIS_CLUSTER_PASSWORD)', () => {
  const password = `cluster-secret-${randomUUID()}`;
  const wrongPassword = `not-the-secret-${randomUUID()}`;
  let cluster: RedisCluster;
  let databaseUrl: string;
  const buses: LiveBus[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster({ password });
    databaseUrl = isolatedEnv('postgres').DATABASE_URL!;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await cluster?.stop();
    if (databaseUrl) await dropSchema(databaseUrl);
  }, 30_000);

  /** A bus as an instance opens it, with its log (Parley's logger, at debug) kept so a test can read what it wrote. */
  function bus(signIn: { REDIS_CLUSTER_PASSWORD?: string }) {
    const log: string[] = [];
    const opened = createLiveBus(
      { REDIS_CLUSTER_NODES: cluster.seeds, ...signIn },
      createLogger('debug', { write: (line: string) => void log.push(line) }),
    );
    buses.push(opened);
    return { bus: opened, log };
  }

  function queueUpdated(threadId: string): ThreadEvent {
    return { threadId, seq: 1, executionId: null, parentExecutionId: null, createdAt: new Date().toISOString(), payload: { type: 'QueueUpdated' } };
  }

  it('carries a thread’s events and the instance messages between instances that sign in with it', async () => {
    const [receiving, sending] = [bus({ REDIS_CLUSTER_PASSWORD: password }), bus({ REDIS_CLUSTER_PASSWORD: password })];
    const threadId = `auth-${randomUUID()}`;
    const received: ThreadEvent[] = [];
    receiving.bus.subscribeThread(threadId, (event) => received.push(event));
    await receiving.bus.threadChannelReady(threadId, 15_000);
    sending.bus.publishThreadEvents([queueUpdated(threadId)]);
    await eventually(() => received.length === 1, 10_000, 'the event on the other instance');
    expect(received.map((event) => [event.threadId, event.payload.type])).toEqual([[threadId, 'QueueUpdated']]);
    await eventually(() => receiving.bus.instanceMessagesHeard(), 10_000, 'the instance channel to be confirmed');
    for (const { log } of [receiving, sending]) expect(log.join('')).not.toContain(password);
  });

  it('refuses an instance without the password or with a wrong one, and never writes the password down', async () => {
    for (const signIn of [{}, { REDIS_CLUSTER_PASSWORD: wrongPassword }]) {
      const { bus: refused, log } = bus(signIn);
      const threadId = `refused-${randomUUID()}`;
      refused.subscribeThread(threadId, () => {});
      await expect(refused.threadChannelReady(threadId, 2_000)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      // The refusal is in the log, the password it was refused for is not.
      await eventually(() => log.some((line) => /NOAUTH|WRONGPASS/.test(line)), 10_000, 'the refusal in the log');
      expect(log.join('')).not.toContain(wrongPassword);
    }
  });

  it('parley doctor signs in and checks the cluster, names the user, and reports a wrong password without printing it', async () => {
    const env = { DATABASE_URL: databaseUrl, REDIS_CLUSTER_NODES: cluster.seeds };
    const signedIn = await runCli(['doctor'], { ...env, REDIS_CLUSTER_PASSWORD: password });
    const line = signedIn.stdout.split('\n').find((row) => row.startsWith('redis '));
    // Every node it knows of answers; a replica still syncing with its master may not be listed yet.
    expect(line, signedIn.stdout + signedIn.stderr).toMatch(/PASS\s+cluster_state:ok; (\d)\/\1 nodes reachable, 3 masters; sharded pub\/sub round trip in \d+ ms/);
    expect(signedIn.stdout).toContain(`Redis Cluster (seeds ${cluster.seeds}, signed in as default)`);
    expect(signedIn.stdout + signedIn.stderr).not.toContain(password);

    const wrong = await runCli(['doctor'], { ...env, REDIS_CLUSTER_PASSWORD: wrongPassword });
    const refusal = wrong.stdout.split('\n').find((row) => row.startsWith('redis '));
    expect(refusal, wrong.stdout + wrong.stderr).toMatch(/FAIL\s+.*(WRONGPASS|invalid username-password)/);
    expect(wrong.stdout + wrong.stderr).not.toContain(wrongPassword);
  }, 60_000);
});
