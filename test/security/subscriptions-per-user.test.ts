import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_SUBSCRIPTIONS_CODE } from '../../src/server/plugins/use-subscriptions-per-user.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { SseSubscription } from '../support/sse.ts';

// One user's subscriptions are bounded over SSE and WebSocket together: an SSE stream is one
// request each, which no socket cap counts.

const MAX = 3;

let server: TestServer;
let token: string;
let threadId: string;
const streams: SseSubscription[] = [];
const sockets: RawClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { PARLEY_MAX_SUBSCRIPTIONS_PER_USER: String(MAX) } });
  const agent = await setUpAgent(server);
  token = agent.token;
  threadId = await newThread(server, token, agent.agentId);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const socket of sockets) socket.close();
  await server?.stop();
});

/** Subscribes over SSE, from now on. */
function subscribeOverSse(bearer: string, thread = threadId): SseSubscription {
  const stream = new SseSubscription(server, bearer, thread, null);
  streams.push(stream);
  return stream;
}

async function subscribeOverWebSocket(bearer: string, id: string): Promise<RawClient> {
  const socket = new RawClient(server.wsUrl);
  sockets.push(socket);
  expect(await socket.init({ authorization: `Bearer ${bearer}` })).toBe('acknowledged');
  socket.subscribe(id, threadId, null);
  return socket;
}

describe('PARLEY_MAX_SUBSCRIPTIONS_PER_USER', () => {
  it('counts SSE streams and WebSocket subscriptions together, refuses the one beyond, and frees a place when one ends', async () => {
    const first = await subscribeOverWebSocket(token, 'a');
    await subscribeOverWebSocket(token, 'b');
    expect(await subscribeOverSse(token).firstAnswer()).not.toHaveProperty('errors');
    // Both WebSocket subscriptions are running: one more of either kind is refused.
    await eventually(async () => (await server.parley.metrics.subscriptionsActive.get()).values.reduce((sum, value) => sum + value.value, 0) === MAX, 10_000, 'three subscriptions running');

    expect(await subscribeOverSse(token).firstAnswer()).toMatchObject({ errors: [{ extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE } }] });
    const beyondOverWebSocket = await subscribeOverWebSocket(token, 'c');
    expect(await beyondOverWebSocket.firstAnswer('c', 10_000)).toMatchObject({
      type: 'next',
      payload: { errors: [{ extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE } }] },
    });

    // Another user has places of their own.
    const other = await setUpAgent(server);
    const otherThread = await newThread(server, other.token, other.agentId);
    expect(await subscribeOverSse(other.token, otherThread).firstAnswer()).not.toHaveProperty('errors');

    first.complete('a');
    await eventually(async () => {
      const again = subscribeOverSse(token);
      const result = await again.firstAnswer();
      if (result !== 'open') again.close();
      return result === 'open' || !('errors' in result);
    }, 10_000, 'a place free again');
  });
});
