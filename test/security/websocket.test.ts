import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { send } from '../support/client.ts';
import { checkStream, finishedOf, ofKind, type RunEvent } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { SseSubscription } from '../support/sse.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';

// Attacks on the WebSocket edge: a wrong token, too many operations or sockets, a reader that stops reading.

describe('WebSocket authentication at connection_init', () => {
  let server: TestServer;
  let token: string;
  const clients: RawClient[] = [];
  const client = () => {
    const created = new RawClient(server.wsUrl);
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    server = await startTestServer();
    ({ token } = await setUpAgent(server));
  });

  afterAll(async () => {
    clients.forEach((each) => each.close());
    await server?.stop();
  });

  it.each([
    { label: 'an unknown token', payload: { authorization: 'Bearer pky_thisTokenWasNeverIssuedToAnyoneAtAll' } },
    { label: 'a malformed token', payload: { authorization: 'Bearer not a token' } },
    { label: 'a token of the wrong type', payload: { authorization: 42 } },
    { label: 'an unknown bare token in `token`', payload: { token: 'pky_unknown' } },
  ])('refuses $label with 4403 and never acknowledges', async ({ payload }) => {
    const refused = client();
    expect(await refused.init(payload)).toEqual({ code: 4403, reason: 'Forbidden' });
    expect(refused.received.map((message) => message.type)).not.toContain('connection_ack');
  });

  it('acknowledges a valid token, and a connection_init without any token (anonymous)', async () => {
    expect(await client().init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    expect(await client().init({})).toBe('acknowledged');
    expect(await client().init({ authorization: '' })).toBe('acknowledged');
  });

  it('an anonymous socket gets UNAUTHENTICATED for runEvents, and stays open', async () => {
    const anonymous = client();
    await anonymous.init();
    anonymous.subscribe('1', 'VGhyZWFkOjAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMA==', null);
    const refusal = await anonymous.firstAnswer('1');
    expect(JSON.stringify(refusal)).toContain('UNAUTHENTICATED');
    expect(anonymous.closed).toBeNull();
  });
});

describe('WebSocket caps', () => {
  let server: TestServer;
  let token: string;
  let threadId: string;
  const clients: RawClient[] = [];
  const client = () => {
    const created = new RawClient(server.wsUrl);
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_WS_MAX_SUBSCRIPTIONS: '3', PARLEY_WS_MAX_SOCKETS_PER_USER: '2' } });
    let agentId: string;
    ({ token, agentId } = await setUpAgent(server));
    threadId = await newThread(server, token, agentId);
  });

  afterAll(async () => {
    clients.forEach((each) => each.close());
    await server?.stop();
  });

  it('refuses the operation beyond PARLEY_WS_MAX_SUBSCRIPTIONS on one socket with TOO_MANY_SUBSCRIPTIONS; the socket stays open', async () => {
    const busy = client();
    await busy.init({ authorization: `Bearer ${token}` });
    // The server registers a socket's operations in the order their messages come.
    for (const id of ['1', '2', '3', '4']) busy.subscribe(id, threadId, '0');
    const refused = await busy.firstAnswer('4');
    expect(refused.type).toBe('error');
    expect(refused.payload).toEqual([
      expect.objectContaining({ extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', requestId: expect.any(String) }, message: expect.stringContaining('3') }),
    ]);
    expect(busy.closed).toBeNull();

    // The first three still receive events, and a freed place can be taken again.
    const queued = await send(server, token, threadId, 'still here');
    for (const id of ['1', '2', '3']) {
      await eventually(() => busy.events(id).some((event) => event.__typename === 'MessageQueued' && event.queueId === queued.queueId));
    }
    // The server handles a socket's messages in order, so the completed one is gone when the next comes.
    busy.complete('1');
    busy.subscribe('5', threadId, '0');
    const again = await send(server, token, threadId, 'again');
    await eventually(() => busy.events('5').some((event) => event.__typename === 'MessageQueued' && event.queueId === again.queueId));
    expect(busy.messagesOf('5').filter((message) => message.type === 'error')).toEqual([]);
    expect(busy.closed).toBeNull();
  });

  it('refuses the socket beyond PARLEY_WS_MAX_SOCKETS_PER_USER with 4429; a closed socket frees its place', async () => {
    const { token: other } = await server.createUser();
    const first = client();
    const second = client();
    expect(await first.init({ authorization: `Bearer ${other}` })).toBe('acknowledged');
    expect(await second.init({ authorization: `Bearer ${other}` })).toBe('acknowledged');
    const third = client();
    expect(await third.init({ authorization: `Bearer ${other}` })).toEqual({ code: 4429, reason: 'Too many open sockets for this user' });
    expect(third.received.map((message) => message.type)).not.toContain('connection_ack');

    // Another user is not affected, nor are anonymous sockets.
    expect(await client().init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
    expect(await client().init({})).toBe('acknowledged');

    first.close();
    await eventually(async () => (await client().init({ authorization: `Bearer ${other}` })) === 'acknowledged');
  });
});

describe('a peer that stops answering pings', () => {
  let server: TestServer;
  let token: string;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_WS_KEEPALIVE_MS: '300', PARLEY_WS_MAX_SOCKETS_PER_USER: '2' } });
    ({ token } = await setUpAgent(server));
  });

  afterAll(async () => {
    clients.forEach((each) => each.close());
    await server?.stop();
  });

  it('is terminated after PARLEY_WS_KEEPALIVE_MS without a pong, freeing its place; a peer that answers stays', async () => {
    const connect = async () => {
      const created = new RawClient(server.wsUrl);
      clients.push(created);
      return { client: created, answer: await created.init({ authorization: `Bearer ${token}` }) };
    };
    const answering = await connect();
    const silent = await connect();
    expect([answering.answer, silent.answer]).toEqual(['acknowledged', 'acknowledged']);
    expect((await connect()).answer).toMatchObject({ code: 4429 });
    // A paused socket reads nothing, pings included: its pong never comes.
    silent.client.pause();
    await eventually(async () => (await connect()).answer === 'acknowledged', 60_000, 'the silent socket’s place to be free');
    expect(answering.client.closed).toBeNull();
  });
});

describeEachBackend('a reader that stops reading', (backend) => {
  const TOKENS = 20_000;
  /** The reply `/tokens n` streams, as the demo model writes it. */
  const fullReply = Array.from({ length: TOKENS }, (_, index) => `t${index + 1} `).join('');
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    // The reader stops reading for as long as the long reply takes, which on a busy machine is more
    // than the default keepalive would wait for its pong.
    // Each chunk a delta of its own (PARLEY_DELTA_WINDOW_MS 0): joined, the reply's events would fit
    // in the loopback socket's buffers, and the server would never see a reader falling behind.
    server = await startTestServer({
      backend,
      env: { PARLEY_MAX_BUFFERED_EVENT_BYTES: String(256 * 1024), PARLEY_WS_KEEPALIVE_MS: '600000', PARLEY_DELTA_WINDOW_MS: '0' },
    });
    ({ token, agentId } = await setUpAgent(server));
  });

  afterAll(async () => {
    await server?.stop();
  });

  /**
   * Waits until the thread's latest reply is recorded whole; returns its execution id. Read from
   * the database: what is tested is the slow reader's stream, and this wait must not add requests
   * of its own to the server it watches.
   */
  async function recordedWhole(threadId: string): Promise<string> {
    const rawThreadId = decodeId('threadId', threadId, 'Thread');
    return eventually(
      async () => {
        const reply = await server.parley.db.prisma.message.findFirst({
          where: { threadId: rawThreadId, role: 'ASSISTANT' },
          orderBy: { seq: 'desc' },
        });
        const parts = (reply?.parts ?? []) as { type: string; text?: string }[];
        const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
        return reply && text === fullReply ? encodeId('Execution', reply.executionId!) : null;
      },
      540_000,
      'the reply to be recorded whole',
    );
  }

  /** Times this server dropped the events waiting for a slow reader (parley_slow_reader_drops_total). */
  async function slowReaderDrops(): Promise<number> {
    return (await server.parley.metrics.slowReadersDropped.get()).values[0]?.value ?? 0;
  }

  /**
   * Stops the reader, has the agent stream the long reply, and waits until the server has dropped
   * what waited for the reader and the reply is recorded whole; returns its execution id. The
   * drop is read from the server, not from how many deltas got through: the socket buffers between
   * server and reader (the kernel's, and Node's stream buffers, larger from Node 22 on) hold
   * thousands of deltas before the server's bound comes into play, and their size is not the
   * server's to decide.
   */
  async function replyWhileStopped(threadId: string, stopReading: () => void): Promise<string> {
    const dropsBefore = await slowReaderDrops();
    stopReading();
    await send(server, token, threadId, `/tokens ${TOKENS}`);
    await eventually(async () => (await slowReaderDrops()) > dropsBefore, 540_000, 'the server to drop the events waiting for the reader');
    return recordedWhole(threadId);
  }

  /** The reader has the whole reply, with no hole, though deltas were dropped: a snapshot stood in for them. */
  function expectWholeThroughSnapshot(events: readonly RunEvent[], executionId: string): void {
    expect(checkStream(events).get(executionId)).toBe(fullReply);
    expect(ofKind(events, 'TextDelta').filter((event) => event.executionId === executionId).length).toBeLessThan(TOKENS);
    expect(ofKind(events, 'MessageSnapshot').some((event) => event.executionId === executionId)).toBe(true);
  }

  it('over WebSocket: past the bound its waiting deltas are dropped; reading again, it gets the whole reply with no hole', async () => {
    const threadId = await newThread(server, token, agentId);
    const reader = new RawClient(server.wsUrl);
    try {
      await reader.init({ authorization: `Bearer ${token}` });
      reader.subscribe('1', threadId, '0');
      await send(server, token, threadId, 'warm up');
      await eventually(() => reader.events('1').some((event) => event.__typename === 'ExecutionFinished'));
      const executionId = await replyWhileStopped(threadId, () => reader.pause());
      reader.resume();
      await eventually(() => reader.events('1').some(finishedOf(executionId)), 540_000, 'ExecutionFinished to reach the reader');
      expectWholeThroughSnapshot(reader.events('1'), executionId);
      expect(reader.closed).toBeNull();
    } finally {
      reader.close();
    }
  }, 600_000);
  it('over SSE: the same bound holds, and reading again it gets the whole reply with no hole', async () => {
    const threadId = await newThread(server, token, agentId);
    const reader = new SseSubscription(server, token, threadId);
    try {
      await send(server, token, threadId, 'warm up');
      await eventually(() => reader.events.some((event) => event.__typename === 'ExecutionFinished'));
      const executionId = await replyWhileStopped(threadId, () => reader.pause());
      reader.resume();
      await eventually(() => reader.events.some(finishedOf(executionId)), 540_000, 'ExecutionFinished to reach the reader');
      expectWholeThroughSnapshot(reader.events, executionId);
    } finally {
      reader.close();
    }
  }, 600_000);
});
