import { describe, expect, it } from 'vitest';
import { createParleyClient, type ThreadState } from '../../packages/client/src/index.ts';
import { eventually } from '../support/server.ts';

// The session's own reconnection, against a scripted graphql-ws peer: what it subscribes with
// after each kind of ending, and what it shows meanwhile.

const THREAD = 'thread-1';
const createdAt = '2026-01-01T00:00:00.000Z';
const execution = { threadId: THREAD, createdAt, executionId: 'exec-1', parentExecutionId: null };

type Peer = (socket: FakeSocket, subscribe: { id: string; after: string | null }) => void;

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static peers: Peer[] = [];
  static opened = 0;
  readyState = FakeSocket.CONNECTING;
  protocol = 'graphql-transport-ws';
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  private readonly peer: Peer;

  constructor() {
    this.peer = FakeSocket.peers[FakeSocket.opened++]!;
    setTimeout(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    });
  }

  send(data: string) {
    const message = JSON.parse(data) as { type: string; id?: string; payload?: { variables?: { after?: string | null } } };
    if (message.type === 'connection_init') this.deliver({ type: 'connection_ack' });
    if (message.type === 'subscribe') this.peer(this, { id: message.id!, after: message.payload?.variables?.after ?? null });
  }

  deliver(message: object) {
    setTimeout(() => this.readyState === FakeSocket.OPEN && this.onmessage?.({ data: JSON.stringify(message) }));
  }

  next(id: string, payload: object) {
    this.deliver({ type: 'next', id, payload });
  }

  close(code = 1000, reason = '') {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    setTimeout(() => this.onclose?.({ code, reason, wasClean: code === 1000 }));
  }
}

let conversationReads = 0;
/** The server over HTTP: its first conversation read fails on the network, as a server still starting does. */
const fakeFetch: typeof fetch = async (_url, init) => {
  const { query } = JSON.parse(String(init?.body)) as { query: string };
  if (query.includes('query ThreadConversation') && conversationReads++ === 0) throw new TypeError('fetch failed');
  const data = query.includes('query ThreadConversation')
    ? { conversation: { threadId: THREAD, eventCursor: '5', activeExecutionId: null, openSuspensions: [], messages: { edges: [] } } }
    : { queue: { threadId: THREAD, steerableExecutionId: null, items: [] } };
  return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
};

describe('the session reconnects by itself', () => {
  it('retries its first read, waits retryAfterS on SERVICE_UNAVAILABLE, backs off after a dropped socket, and always resumes from its last durable cursor', async () => {
    const afters: (string | null)[] = [];
    let unavailableAt = 0;
    let resubscribedAt = 0;
    FakeSocket.opened = 0;
    FakeSocket.peers = [
      (socket, { id, after }) => {
        afters.push(after);
        socket.next(id, {
          data: { runEvents: { __typename: 'ExecutionStarted', cursor: '6', ...execution, queueId: 'q-1', acceptedText: 'hi', userMessageId: 'user-1' } },
        });
        socket.next(id, { data: { runEvents: { __typename: 'TextDelta', cursor: '6.1', ...execution, messageId: 'reply-1', text: 'Hel', offset: 0 } } });
        setTimeout(() => {
          unavailableAt = Date.now();
          socket.next(id, { errors: [{ message: 'The live channel is unavailable.', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfterS: 0.3 } }] });
          socket.deliver({ type: 'complete', id });
        }, 20);
      },
      (socket, { id, after }) => {
        resubscribedAt = Date.now();
        afters.push(after);
        // The replay and a snapshot, then the socket drops without a word.
        socket.next(id, {
          data: {
            runEvents: {
              __typename: 'MessageSnapshot',
              cursor: '6.1',
              ...execution,
              messageId: 'reply-1',
              textLength: 5,
              parts: [{ __typename: 'TextPart', text: 'Hello' }],
            },
          },
        });
        socket.next(id, { data: { runEvents: { __typename: 'ExecutionFinished', cursor: '7', ...execution, status: 'COMPLETED' } } });
        setTimeout(() => socket.close(1006, ''), 20);
      },
      (_socket, { after }) => {
        afters.push(after);
      },
    ];
    const client = createParleyClient({ url: 'http://parley.test/graphql', token: 'plr_test', webSocketImpl: FakeSocket, fetch: fakeFetch, reconnectDelayMs: 10 });
    const session = client.thread(THREAD);
    const seen: ThreadState['connection'][] = [];
    session.subscribe(() => {
      const { connection } = session.getSnapshot();
      if (seen.at(-1) !== connection) seen.push(connection);
    });
    try {
      await eventually(() => afters.length === 3, 10_000, 'the third subscription');
      expect(afters).toEqual(['5', '6', '7']);
      expect(seen[0]).toMatchObject({ status: 'reconnecting', error: { message: 'fetch failed' } });
      const unavailable = seen.find((connection) => connection.status === 'unavailable');
      expect(unavailable).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
      expect(unavailable!.retryAt! - unavailableAt).toBeGreaterThanOrEqual(300);
      expect(resubscribedAt - unavailableAt).toBeGreaterThanOrEqual(290);
      expect(seen.some((connection) => connection.status === 'reconnecting')).toBe(true);
      const state = session.getSnapshot();
      expect(state.messages.map((message) => [message.role, message.outcome])).toEqual([
        ['USER', 'COMPLETED'],
        ['ASSISTANT', 'COMPLETED'],
      ]);
      expect(state.executions['exec-1']!.text).toBe('Hello');
      expect(state.cursor).toBe('7');
    } finally {
      await session.close();
    }
  });
});

describe('the session waits out an outage', () => {
  it('sends again after a ServiceUnavailableError, with the same idempotency key, and reconnects after a 1012 close', async () => {
    const sends: { idempotencyKey: string }[] = [];
    const sentAt: number[] = [];
    const outageFetch: typeof fetch = async (url, init) => {
      const { query, variables } = JSON.parse(String(init?.body)) as { query: string; variables: { idempotencyKey: string } };
      if (!query.includes('mutation SendThreadMessage')) return fakeFetch(url, init);
      sends.push(variables);
      sentAt.push(Date.now());
      const sendMessage =
        sends.length === 1
          ? { __typename: 'ServiceUnavailableError', message: 'The database is unavailable for now.', code: 'SERVICE_UNAVAILABLE', retryAfterS: 0.2 }
          : { __typename: 'MessageQueued', queueId: 'q-2', threadId: THREAD, cursor: '8' };
      return new Response(JSON.stringify({ data: { sendMessage } }), { headers: { 'content-type': 'application/json' } });
    };
    const afters: (string | null)[] = [];
    FakeSocket.opened = 0;
    FakeSocket.peers = [
      (socket, { id, after }) => {
        afters.push(after);
        socket.next(id, { data: { runEvents: { __typename: 'ExecutionFinished', cursor: '6', ...execution, status: 'COMPLETED' } } });
        // The instance shuts down: "Service Restart", reconnect (elsewhere).
        setTimeout(() => socket.close(1012, 'Service restart: reconnect'), 20);
      },
      (_socket, { after }) => {
        afters.push(after);
      },
    ];
    const client = createParleyClient({ url: 'http://parley.test/graphql', token: 'plr_test', webSocketImpl: FakeSocket, fetch: outageFetch, reconnectDelayMs: 10 });
    const session = client.thread(THREAD);
    try {
      const result = await session.send('hello');
      expect(result).toMatchObject({ __typename: 'MessageQueued', queueId: 'q-2' });
      expect(sends).toHaveLength(2);
      expect(sends[1]!.idempotencyKey).toBe(sends[0]!.idempotencyKey);
      expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(190);
      await eventually(() => afters.length === 2, 10_000, 'the resubscription after the 1012 close');
      expect(afters[1]).toBe('6');
    } finally {
      await session.close();
    }
  });
});
