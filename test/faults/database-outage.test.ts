import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { describeWithServices } from '../support/backends.ts';
import { conversation, messagesOf, mutate, recordedReply } from '../support/client.ts';
import { ConversationDocument, SendMessageDocument, ViewerDocument } from '../support/documents.ts';
import WebSocket from 'ws';
import { follow, type Follower } from '../support/follower.ts';
import { startRedis } from '../support/instances.ts';
import { startPrivateCluster, type PrivateCluster } from '../support/private-cluster.ts';
import { finishedOf, is, startedWith, type RunEvent } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, request, startTestServer, type TestServer } from '../support/server.ts';

/** The reply of `/slow 3`: 13 chunks, one about every 230 ms. */
const COUNTING_3 = `Counting: ${Array.from({ length: 12 }, (_, index) => index + 1).join(' ')}`;

/** The reply of `/slow 6`. */
const COUNTING_6 = `Counting: ${Array.from({ length: 24 }, (_, index) => index + 1).join(' ')}`;

describeWithServices('Parley through PostgreSQL outages (a cluster of our own, stopped and started)', () => {
  let cluster: PrivateCluster;
  const servers: TestServer[] = [];

  const serverOn = async (env: Record<string, string>) => {
    const server = await startTestServer({
      backend: 'postgres',
      dropSchemaOnStop: false,
      env: { DATABASE_URL: `${cluster.url}?schema=f_${randomUUID().slice(0, 8)}`, PARLEY_LOG_LEVEL: 'silent', ...env },
    });
    servers.push(server);
    const { token, agentId } = await setUpAgent(server);
    return { server, token, agentId };
  };

  const sendMessage = (server: TestServer, token: string, threadId: string, text: string, idempotencyKey?: string) =>
    mutate(server, SendMessageDocument, { threadId, text, idempotencyKey }, token, 'sendMessage');

  /** Stops the cluster for `during`; it is started again whatever `during` throws. */
  const whileDown = async (during: () => Promise<void>) => {
    await cluster.stop();
    try {
      await during();
    } finally {
      await cluster.start();
    }
  };

  /** How the server closes a WebSocket whose `connection_init` carries `token`. */
  const socketClosure = (server: TestServer, token: string) =>
    new Promise<{ code: number; reason: string }>((resolve, reject) => {
      const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws');
      socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) }));
      socket.once('error', reject);
    });

  /**
   * A request refused for the outage: a mutation answers its `ServiceUnavailableError` member, or —
   * when the outage stopped it before it ran (its token had to be looked up) — the GraphQL error.
   */
  const expectUnavailable = (result: { __typename: string; errors?: readonly { extensions?: Record<string, unknown> }[] | null }) => {
    if (result.__typename === 'GraphQLErrors') {
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterS: expect.any(Number) });
    } else {
      expect(result).toMatchObject({ __typename: 'ServiceUnavailableError', code: 'SERVICE_UNAVAILABLE', service: 'database' });
      expect((result as unknown as { retryAfterS: number }).retryAfterS).toBeGreaterThan(0);
    }
  };

  const readiness = async (server: TestServer) => (await fetch(new URL('/ready', server.url))).status;

  /** Every durable event of the thread, replayed from the start by a new subscriber, until `done`. */
  const replay = async (server: TestServer, token: string, threadId: string, done: (events: RunEvent[]) => boolean) => {
    const replayer = follow(server, token, threadId, '0');
    try {
      return await replayer.waitUntil(done);
    } finally {
      await replayer.close();
    }
  };

  const expectNoDuplicateEvents = (events: RunEvent[]) => {
    const cursors = events.filter((event) => /^\d+$/.test(event.cursor) && event.__typename !== 'TextDelta').map((event) => event.cursor);
    expect(new Set(cursors).size).toBe(cursors.length);
  };

  beforeAll(async () => {
    cluster = await startPrivateCluster();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop().catch(() => {})));
    await cluster?.destroy();
  }, 120_000);

  it('answers SERVICE_UNAVAILABLE while PostgreSQL restarts under a streaming run, then records its end once and runs the next message', async () => {
    const { server, token, agentId } = await serverOn({ PARLEY_LEASE_MS: '60000', PARLEY_DB_ACQUIRE_TIMEOUT_MS: '3000' });
    const threadId = await newThread(server, token, agentId);
    const { eventCursor } = await conversation(server, token, threadId);
    const follower: Follower = follow(server, token, threadId, eventCursor, { resume: true });
    try {
      const queued = await sendMessage(server, token, threadId, '/slow 3');
      expect(queued.__typename).toBe('MessageQueued');
      const started = await follower.waitFor(startedWith('/slow 3'));
      const executionId = started.executionId!;
      await follower.waitUntil((events) => events.filter(is('TextDelta', executionId)).length >= 2);

      const idempotencyKey = randomUUID();
      const rawExecutionId = decodeId('executionId', executionId, 'Execution');
      // A token never seen before cannot be looked up from a cache while the database is away.
      const { token: freshToken } = await server.createUser();
      await whileDown(async () => {
      // While it is down: typed, retryable answers, never INTERNAL_SERVER_ERROR.
      expectUnavailable(await sendMessage(server, token, threadId, 'after the outage', idempotencyKey));
      const read = await request(server, ConversationDocument, { threadId }, token);
      expect(read.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterS: expect.any(Number) });
      const unknownViewer = await request(server, ViewerDocument, {}, freshToken);
      expect(unknownViewer.errors?.[0]?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await socketClosure(server, freshToken)).toEqual({ code: 1013, reason: 'Service unavailable: try again later' });
      expect(await readiness(server)).toBe(503);
      // The run streams on to its end, held in memory, which cannot be recorded yet.
      const inMemory = () => server.parley.execution.running.get(rawExecutionId)?.snapshot?.().parts ?? [];
      await eventually(() => inMemory().some((part) => part.type === 'text' && part.text === COUNTING_3), 30_000);
      expect(follower.events.some(finishedOf(executionId))).toBe(false);
      });
      const finished = await follower.waitFor(finishedOf(executionId), 30_000);
      expect(finished).toMatchObject({ status: 'COMPLETED' });
      await eventually(async () => (await readiness(server)) === 200);
      // The client's retry with the same key queues the message once, and it runs.
      const accepted = await sendMessage(server, token, threadId, 'after the outage', idempotencyKey);
      expect(accepted.__typename).toBe('MessageQueued');
      const next = await follower.waitFor(startedWith('after the outage'));
      await follower.waitFor(finishedOf(next.executionId!));

      expect(await recordedReply(server, token, threadId, executionId)).toBe(COUNTING_3);
      const events = await replay(server, token, threadId, (all) => all.some(finishedOf(next.executionId!)));
      expectNoDuplicateEvents(events);
      expect(events.filter(finishedOf(executionId))).toHaveLength(1);
      expect(events.filter(is('ErrorEvent'))).toEqual([]);
      expect(events.filter(startedWith('after the outage'))).toHaveLength(1);
      const recorded = await server.parley.db.prisma.message.count({ where: { executionId: rawExecutionId, role: 'ASSISTANT' } });
      expect(recorded).toBe(1);
    } finally {
      await follower.close();
    }
  }, 90_000);

  it('ends a run INTERRUPTED, with one retryable error, when PostgreSQL stays down for longer than the lease', async () => {
    const { server, token, agentId } = await serverOn({ PARLEY_LEASE_MS: '1500', PARLEY_DB_ACQUIRE_TIMEOUT_MS: '3000' });
    const threadId = await newThread(server, token, agentId);
    const { eventCursor } = await conversation(server, token, threadId);
    const follower = follow(server, token, threadId, eventCursor, { resume: true, maxResubscriptions: 1_000 });
    try {
      // Long enough to be still streaming when the database goes, on a loaded machine too.
      await sendMessage(server, token, threadId, '/slow 6');
      const started = await follower.waitFor(startedWith('/slow 6'));
      const executionId = started.executionId!;
      await follower.waitFor(is('TextDelta', executionId));

      await whileDown(async () => {
        await eventually(() => !server.parley.execution.outagePatience.leaseHeld(), 30_000, 'the lease to run out');
      });

      const finished = await follower.waitFor(finishedOf(executionId), 30_000);
      expect(finished).toMatchObject({ status: 'INTERRUPTED' });
      const state = await conversation(server, token, threadId);
      const reply = messagesOf(state).find((message) => message.executionId === executionId && message.role === 'ASSISTANT')!;
      const errors = reply.parts.filter((part) => part.__typename === 'ErrorPart');
      expect(errors, JSON.stringify(messagesOf(state).map((message) => [message.role, message.executionId, message.parts.map((part) => part.__typename)]))).toHaveLength(1);
      expect(errors[0]).toMatchObject({ retryable: true, messageKey: 'error.interrupted' });
      const events = await replay(server, token, threadId, (all) => all.some(finishedOf(executionId)));
      expectNoDuplicateEvents(events);
      expect(events.filter(is('ErrorEvent', executionId))).toHaveLength(1);
      expect(events.filter(finishedOf(executionId))).toHaveLength(1);
    } finally {
      await follower.close();
    }
  }, 90_000);

  for (const order of ['PostgreSQL first', 'Redis first'] as const) {
    it(`survives PostgreSQL and Redis down together, back in either order (${order})`, async () => {
      const redis = await startRedis();
      try {
        const { server, token, agentId } = await serverOn({
          REDIS_URL: redis.url,
          PARLEY_LEASE_MS: '60000',
          PARLEY_DB_ACQUIRE_TIMEOUT_MS: '3000',
          PARLEY_LIVE_CHANNEL_TIMEOUT_MS: '1000',
        });
        const threadId = await newThread(server, token, agentId);
        const { eventCursor } = await conversation(server, token, threadId);
        const watcher = follow(server, token, threadId, eventCursor);
        let executionId: string;
        try {
          // Long enough to be still streaming when both are down, on a loaded machine too.
          await sendMessage(server, token, threadId, '/slow 6');
          executionId = (await watcher.waitFor(startedWith('/slow 6'))).executionId!;
          // Streaming: the run has read what it needs from the database.
          await watcher.waitFor(is('TextDelta', executionId));
        } finally {
          await watcher.close();
        }
        await redis.stop();
        await whileDown(async () => {
          expectUnavailable(await sendMessage(server, token, threadId, 'during both'));
          const rawExecutionId = decodeId('executionId', executionId, 'Execution');
          // The run streams on to its end, held in memory.
          const inMemory = () => server.parley.execution.running.get(rawExecutionId)?.snapshot?.().parts ?? [];
          await eventually(() => inMemory().some((part) => part.type === 'text' && part.text === COUNTING_6), 30_000).catch((error: Error) => {
            throw new Error(`${error.message}; running: ${server.parley.execution.running.get(rawExecutionId) !== undefined}; in memory: ${JSON.stringify(inMemory())}`);
          });
          if (order === 'Redis first') await redis.restart();
        });
        if (order === 'PostgreSQL first') await redis.restart();
        await eventually(async () => (await readiness(server)) === 200, 30_000, '/ready to say 200');

        const accepted = await sendMessage(server, token, threadId, 'after both');
        expect(accepted.__typename).toBe('MessageQueued');
        const events = await replay(server, token, threadId, (all) => all.some((event) => event.__typename === 'ExecutionFinished' && event.executionId !== executionId));
        expectNoDuplicateEvents(events);
        const errorDetails = JSON.stringify(events.filter(is('ErrorEvent')).map((event) => (event as { detail?: string }).detail));
        expect(events.filter(finishedOf(executionId)), errorDetails).toMatchObject([{ status: 'COMPLETED' }]);
        expect(events.filter(startedWith('after both'))).toHaveLength(1);
        expect(events.filter(is('ErrorEvent'))).toEqual([]);
        expect(await recordedReply(server, token, threadId, executionId)).toBe(COUNTING_6);
      } finally {
        await redis.stop();
      }
    }, 90_000);
  }

  it('answers within the acquisition and statement timeouts, with the typed error, when the pool is saturated', async () => {
    const { server, token, agentId } = await serverOn({
      PARLEY_DB_POOL_SIZE: '2',
      PARLEY_DB_ACQUIRE_TIMEOUT_MS: '1000',
      PARLEY_DB_STATEMENT_TIMEOUT_MS: '1500',
    });
    const threadId = await newThread(server, token, agentId);
    // A second connection holds the thread table: every statement on it waits, and the pool's two
    // connections are soon all waiting.
    const holder = new pg.Client({ connectionString: cluster.url, options: `-c search_path=${new URL(server.env.DATABASE_URL!).searchParams.get('schema')}` });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "thread" IN ACCESS EXCLUSIVE MODE');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          index % 2 === 0
            ? sendMessage(server, token, threadId, `burst ${index}`).then((result) => result.__typename === 'GraphQLErrors' ? result.errors?.[0]?.extensions?.code : result.__typename)
            : request(server, ConversationDocument, { threadId }, token).then((result) => result.errors?.[0]?.extensions?.code ?? 'answered'),
        ),
      );
      for (const answer of answers) expect(['ServiceUnavailableError', 'SERVICE_UNAVAILABLE']).toContain(answer);
      await holder.query('ROLLBACK');
      expect((await sendMessage(server, token, threadId, 'after the burst')).__typename).toBe('MessageQueued');
    } finally {
      await holder.end();
    }
  }, 60_000);
});
