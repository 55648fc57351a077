import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_SUBSCRIPTIONS_CODE } from '../../src/server/plugins/use-subscriptions-per-user.ts';
import { RunEventsDocument } from '../support/documents.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// One user's subscriptions are bounded over SSE and WebSocket together: an SSE stream is one
// request each, which no socket cap counts.

const MAX = 3;

let server: TestServer;
let token: string;
let threadId: string;
const streams: AbortController[] = [];
const sockets: RawClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { PARLEY_MAX_SUBSCRIPTIONS_PER_USER: String(MAX) } });
  const agent = await setUpAgent(server);
  token = agent.token;
  threadId = await newThread(server, token, agent.agentId);
});

afterAll(async () => {
  for (const stream of streams) stream.abort();
  for (const socket of sockets) socket.close();
  await server?.stop();
});

interface SseStream {
  /** The first `next` event's data, or null while the stream is open and silent. */
  first: Promise<{ errors?: { extensions?: { code?: string } }[]; data?: unknown } | 'open'>;
  abort: AbortController;
}

/** Subscribes over SSE; `first` is the first result, or 'open' once the server has started the stream with nothing to send yet. */
async function subscribeOverSse(bearer: string, thread = threadId): Promise<SseStream> {
  const url = new URL(server.url);
  url.searchParams.set('query', print(RunEventsDocument));
  url.searchParams.set('variables', JSON.stringify({ threadId: thread, after: null }));
  const abort = new AbortController();
  streams.push(abort);
  const response = await fetch(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${bearer}` }, signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const first = (async () => {
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended without a result: ${buffered}`);
      buffered += decoder.decode(value, { stream: true });
      const next = /event: next\ndata: (.*)\n\n/.exec(buffered);
      if (next) return JSON.parse(next[1]!);
      // Yoga opens a stream with a keep-alive comment once the subscription runs.
      if (buffered.startsWith(':')) return 'open' as const;
    }
  })();
  return { first, abort };
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
    const sse = await subscribeOverSse(token);
    expect(await sse.first).not.toHaveProperty('errors');
    // Both WebSocket subscriptions are running: one more of either kind is refused.
    await eventually(async () => (await server.parley.metrics.subscriptionsActive.get()).values.reduce((sum, value) => sum + value.value, 0) === MAX, 10_000, 'three subscriptions running');

    const beyond = await subscribeOverSse(token);
    expect(await beyond.first).toMatchObject({ errors: [{ extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE } }] });
    const beyondOverWebSocket = await subscribeOverWebSocket(token, 'c');
    await eventually(() => beyondOverWebSocket.messagesOf('c').length > 0, 10_000, 'an answer to the fourth subscription');
    expect(beyondOverWebSocket.messagesOf('c')[0]).toMatchObject({ type: 'next', payload: { errors: [{ extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE } }] } });

    // Another user has places of their own.
    const other = await setUpAgent(server);
    const otherThread = await newThread(server, other.token, other.agentId);
    expect(await (await subscribeOverSse(other.token, otherThread)).first).not.toHaveProperty('errors');

    first.complete('a');
    await eventually(async () => {
      const again = await subscribeOverSse(token);
      const result = await again.first;
      if (result !== 'open') again.abort.abort();
      return result === 'open' || !('errors' in result);
    }, 10_000, 'a place free again');
  });
});
