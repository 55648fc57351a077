import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { decodeId } from '../../src/schema/ids.ts';
import { describeWithServices } from '../support/backends.ts';
import { send as sendMessage } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { is, isDurable, ofKind, replyTexts } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, TEST_REDIS_URL, type TestServer } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { ENDED, executionRowsReaching } from '../support/waits.ts';

/**
 * A subscription is never silent: it either receives every durable event after its cursor, or it
 * ends with an error the client can act on (SERVICE_UNAVAILABLE, retryable: resubscribe from the
 * last cursor). Each case injects the delay that would otherwise have left it waiting forever.
 */

/** Blocks this process' event loop, as a loaded machine does to a server now and then. */
function stallEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

function openRawSocket(wsUrl: string): Promise<{ socket: WebSocket; messages: unknown[]; closed: Promise<{ code: number; reason: string }> }> {
  const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
  const messages: unknown[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, messages, closed }));
    socket.once('error', reject);
  });
}


describe('the WebSocket handshake on a busy server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_WS_INIT_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('acknowledges a connection_init that arrived while the event loop was stalled past the init timeout', async () => {
    const { socket, messages, closed } = await openRawSocket(server.wsUrl);
    socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    // The server's init timer expires during the stall while the message waits in the socket: a
    // timer that runs before pending I/O would close a healthy client here (4408).
    stallEventLoop(600);
    const outcome = await Promise.race([
      closed.then((close) => `closed ${close.code} ${close.reason}`),
      eventually(() => messages.length > 0, 15_000, 'connection_ack').then(() => JSON.stringify(messages[0])),
    ]);
    expect(outcome).toBe(JSON.stringify({ type: 'connection_ack' }));
    socket.close();
  });

  it('closes a socket that never initialises with 4408 after the timeout', async () => {
    const { closed } = await openRawSocket(server.wsUrl);
    expect(await closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
  });
});

/**
 * A server whose Redis connections pass through a proxy the test controls, with the given bound
 * for a subscriber without its live channel.
 */
function behindProxy(liveChannelTimeoutMs: number) {
  const setup = {} as {
    proxy: TcpProxy;
    server: TestServer;
    token: string;
    agentId: string;
  };
  beforeAll(async () => {
    const redis = new URL(TEST_REDIS_URL!);
    setup.proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    setup.server = await startTestServer({
      backend: 'postgres',
      env: { REDIS_URL: setup.proxy.url('redis:'), PARLEY_LIVE_CHANNEL_TIMEOUT_MS: String(liveChannelTimeoutMs) },
    });
    ({ token: setup.token, agentId: setup.agentId } = await setUpAgent(setup.server, { project: 'Liveness' }));
    // The instance's own channels (queue kicks, relays) are subscribed: its subscriber is tagged.
    await eventually(() => setup.proxy.open('subscribe') === 1, 15_000, 'the subscriber connection');
  });
  afterAll(async () => {
    await setup.server?.stop();
    await setup.proxy?.close();
  });

  const send = (threadId: string, text: string) => sendMessage(setup.server, setup.token, threadId, text);
  const thread = () => newThread(setup.server, setup.token, setup.agentId);
  const follower = (threadId: string) => follow(setup.server, setup.token, threadId, '0');

  /** Waits (reading the database, not Redis) until the thread has `count` ended executions. */
  const ended = (threadId: string, count: number) =>
    executionRowsReaching(setup.server.parley.db.prisma, decodeId('threadId', threadId, 'Thread'), ENDED, { count, timeoutMs: 15_000 });

  /** A new thread followed from its start, whose first run (`text`) has ended: the subscription is live. */
  async function liveThread(text: string) {
    const threadId = await thread();
    const following = follower(threadId);
    try {
      await send(threadId, text);
      await following.waitFor(is('ExecutionFinished'));
    } catch (error) {
      await following.close();
      throw error;
    }
    return { threadId, follower: following };
  }

  return { setup, send, thread, follower, ended, liveThread };
}

// Bounds far beyond anything these tests wait for, so a slow machine cannot turn a late
// confirmation into a timeout; and one short enough to wait for.
const PATIENT_MS = 120_000;
const STRICT_MS = 1_500;

describeWithServices('live delivery through a misbehaving Redis, within the bound', () => {
  const { setup, send, thread, follower, ended, liveThread } = behindProxy(PATIENT_MS);

  it('a subscriber whose SUBSCRIBE is confirmed late still gets every event once, in order', async () => {
    const { proxy } = setup;
    const threadId = await thread();
    proxy.hold();
    const following = follower(threadId);
    try {
      // The whole run happens while the subscriber waits for its confirmation.
      const queued = await send(threadId, '/tokens 3');
      await ended(threadId, 1);
      proxy.release();
      const finished = await following.waitFor(is('ExecutionFinished'));
      expect(finished.status).toBe('COMPLETED');
      const durable = following.events.filter(isDurable);
      expect(durable.map((event) => event.__typename)).toEqual([
        'MessageQueued',
        'ExecutionStarted',
        'QueueUpdated',
        'ExecutionFinished',
      ]);
      expect(durable[0]).toMatchObject({ queueId: queued.queueId });
      expect(new Set(durable.map((event) => event.cursor)).size).toBe(durable.length);
      expect(replyTexts(following.events).get(finished.executionId!)).toBe('t1 t2 t3 ');
    } finally {
      proxy.release();
      await following.close();
    }
  });

  it('events whose PUBLISH failed are published again once Redis is back, for other instances; a subscriber here has them at once', async () => {
    const { proxy } = setup;
    const { threadId, follower: following } = await liveThread('/tokens 2');
    // What another instance's subscription to the thread hears, straight from Redis.
    const elsewhere = new Redis(TEST_REDIS_URL!);
    const heard: string[] = [];
    elsewhere.on('message', (_channel: string, message: string) => heard.push(message));
    await elsewhere.subscribe(`thread:${decodeId('threadId', threadId, 'Thread')}`);
    const heardFinished = () => heard.filter((message) => message.includes('"ExecutionFinished"')).length;
    try {
      // Only the publishing connection goes: the subscribing one stays connected and would never
      // be told to catch up from the log.
      proxy.refuse();
      proxy.cut('publish');
      await send(threadId, '/slow 1 while the publisher is away');
      await ended(threadId, 2);
      // This instance's own subscriber never waits for Redis (src/events/local-first.ts)…
      await following.waitUntil((events) => ofKind(events, 'ExecutionFinished').length === 2);
      expect(heardFinished()).toBe(0);
      // …and the other instances get what could not be published once the publisher is back.
      proxy.accept();
      await eventually(() => heardFinished() === 1, 15_000, 'the run’s end published again');
      const durable = following.events.filter(isDurable).map((event) => Number(event.cursor));
      expect(durable).toEqual(durable.map((_, index) => index + 1));
    } finally {
      proxy.accept();
      elsewhere.disconnect();
      await following.close();
    }
  });

  it('a Redis outage shorter than the bound is caught up from the log, without an error', async () => {
    const { proxy } = setup;
    const { threadId, follower: following } = await liveThread('/tokens 1');
    try {
      proxy.cut();
      await send(threadId, 'sent during a short outage');
      const both = ofKind(await following.waitUntil((events) => ofKind(events, 'ExecutionFinished').length === 2), 'ExecutionFinished');
      expect(both.map((finished) => finished.status)).toEqual(['COMPLETED', 'COMPLETED']);
      expect(following.errors).toEqual([]);
    } finally {
      await following.close();
    }
  });
});

describeWithServices('live delivery through a misbehaving Redis, past the bound', () => {
  const { setup, send, thread, follower, liveThread } = behindProxy(STRICT_MS);

  it('a subscriber whose SUBSCRIBE is never confirmed ends with SERVICE_UNAVAILABLE, and resubscribing catches up', async () => {
    const { proxy } = setup;
    const threadId = await thread();
    proxy.hold();
    const following = follower(threadId);
    try {
      await send(threadId, 'while the channel is unconfirmed');
      await expect(following.waitUntil(() => false)).rejects.toThrow(/SERVICE_UNAVAILABLE/);
      const [error] = following.errors as { extensions?: { code?: string; retryAfterS?: number } }[];
      expect(error?.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', retryAfterS: 1, requestId: expect.any(String) });
    } finally {
      proxy.release();
      await following.close();
    }
    const again = follower(threadId);
    try {
      const finished = await again.waitFor(is('ExecutionFinished'));
      expect(finished.status).toBe('COMPLETED');
      expect(ofKind(again.events, 'MessageQueued')).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('a Redis outage longer than the bound ends the subscription with SERVICE_UNAVAILABLE', async () => {
    const { proxy } = setup;
    const { follower: following } = await liveThread('/tokens 1');
    try {
      proxy.refuse();
      proxy.cut();
      await expect(following.waitUntil(() => false)).rejects.toThrow(/SERVICE_UNAVAILABLE/);
    } finally {
      proxy.accept();
      await following.close();
    }
  });
});
