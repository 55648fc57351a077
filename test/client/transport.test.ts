import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { ThreadQueueDocument, ThreadRunEventsDocument } from '../../packages/client/src/documents.ts';
import { createRequest, followSubscription, retryDecision, type Failure } from '../../packages/client/src/transport.ts';
import { eventually } from '../support/server.ts';
import { startScriptedServer } from './scripted-server.ts';

// The transport alone: one request over HTTP (JSON or multipart), the one retry rule, and a
// subscription that comes back on a fresh socket with the variables of its next attempt.

const failure = (code: string | null, retryAfterS: number | null = null): Failure => ({ message: 'x', code, retryAfterS });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('retryDecision', () => {
  it('is final for what waiting cannot fix', () => {
    for (const code of ['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'BAD_USER_INPUT']) expect(retryDecision(failure(code), 0)).toEqual({ final: true });
  });

  it('waits out an outage for its retryAfterS, and backs off with jitter up to 10 s otherwise', () => {
    expect(retryDecision(failure('SERVICE_UNAVAILABLE', 3), 5)).toEqual({ final: false, delayMs: 3000, unavailable: true });
    for (let attempt = 0; attempt < 8; attempt++) {
      const decision = retryDecision(failure(null), attempt, 100);
      const base = Math.min(10_000, 100 * 2 ** attempt);
      expect(decision).toMatchObject({ final: false, unavailable: false });
      if (decision.final) continue;
      expect(decision.delayMs).toBeGreaterThanOrEqual(base * 0.75);
      expect(decision.delayMs).toBeLessThanOrEqual(base * 1.25);
    }
  });
});

describe('createRequest', () => {
  it('answers the data, a GraphQL error as a RequestError with its code, and a network failure as one without', async () => {
    const server = await startScriptedServer((_request, index) =>
      index === 0
        ? { body: { data: { queue: { threadId: 't', steerableExecutionId: null, items: [] } } } }
        : { status: 503, body: { errors: [{ message: 'Down.', extensions: { code: 'SERVICE_UNAVAILABLE', retryAfterS: 2 } }] } },
    );
    closers.push(server.close);
    const request = createRequest({ url: server.url, token: 'plr_t' });
    expect(await request(ThreadQueueDocument, { threadId: 't' })).toEqual({ queue: { threadId: 't', steerableExecutionId: null, items: [] } });
    expect(server.seen[0]).toMatchObject({ contentType: 'application/json', authorization: 'Bearer plr_t', operation: { variables: { threadId: 't' } } });
    expect(await request(ThreadQueueDocument, { threadId: 't' })).toEqual({ __typename: 'RequestError', message: 'Down.', code: 'SERVICE_UNAVAILABLE', retryAfterS: 2 });
    await server.close();
    closers.length = 0;
    expect(await request(ThreadQueueDocument, { threadId: 't' })).toMatchObject({ __typename: 'RequestError', code: null, retryAfterS: null });
  });

  it('sends files as a GraphQL multipart request: the operation with nulls, the map, then each file', async () => {
    const server = await startScriptedServer(() => ({ body: { data: { queue: null } } }));
    closers.push(server.close);
    const request = createRequest({ url: server.url, token: 'plr_t' });
    const file = Object.assign(new Blob(['the notes']), { name: 'notes.txt' });
    await request(ThreadQueueDocument, { threadId: 't' }, [{ variablePath: 'attachments.0', file }]);
    const [seen] = server.seen;
    expect(seen!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen!.body).toContain('name="operations"');
    expect(seen!.body).toContain(JSON.stringify({ 0: ['variables.attachments.0'] }));
    expect(seen!.body).toMatch(/name="0"; filename="notes.txt"[\s\S]*the notes/);
  });
});

/** A graphql-ws peer on a free loopback port: each subscription is handed to the next script. */
async function startSocketPeer(scripts: ((socket: WebSocket, id: string, variables: Record<string, unknown>) => void)[]) {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'graphql-transport-ws' });
  let next = 0;
  server.on('connection', (socket) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { type: string; id?: string; payload?: { variables?: Record<string, unknown> } };
      if (message.type === 'connection_init') socket.send(JSON.stringify({ type: 'connection_ack' }));
      if (message.type === 'subscribe') scripts[next++]?.(socket, message.id!, message.payload?.variables ?? {});
    });
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}/graphql`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('followSubscription', () => {
  it('comes back on a fresh socket after a drop, asking for its variables again, and gives up on a final error', async () => {
    const variablesSeen: Record<string, unknown>[] = [];
    const peer = await startSocketPeer([
      (socket, id, variables) => {
        variablesSeen.push(variables);
        socket.send(JSON.stringify({ type: 'next', id, payload: { data: { runEvents: { cursor: '4' } } } }));
        socket.close(1011, 'gone');
      },
      (socket, id, variables) => {
        variablesSeen.push(variables);
        socket.send(JSON.stringify({ type: 'next', id, payload: { errors: [{ message: 'No.', extensions: { code: 'FORBIDDEN' } }] } }));
        socket.send(JSON.stringify({ type: 'complete', id }));
      },
    ]);
    closers.push(peer.close);
    let cursor = '1';
    const seen: string[] = [];
    let gaveUp: Failure | null = null;
    const followed = followSubscription({ url: 'http://unused.invalid/graphql', wsUrl: peer.url, token: 'plr_t', webSocketImpl: WebSocket, reconnectDelayMs: 10 }, ThreadRunEventsDocument, {
      variables: () => ({ threadId: 't', after: cursor }),
      next: (data) => {
        cursor = data.runEvents.cursor;
        seen.push(`event ${cursor}`);
      },
      live: () => seen.push('live'),
      waiting: (why, delayMs) => seen.push(`waiting ${why.message} ${delayMs > 0}`),
      retrying: () => seen.push('retrying'),
      gaveUp: (why) => {
        gaveUp = why;
      },
    });
    closers.push(followed.stop);
    await eventually(() => gaveUp, 10_000, 'the final error');
    expect(gaveUp).toEqual({ message: 'No.', code: 'FORBIDDEN', retryAfterS: null });
    expect(variablesSeen).toEqual([
      { threadId: 't', after: '1' },
      { threadId: 't', after: '4' },
    ]);
    expect(seen).toEqual(['live', 'event 4', 'waiting The connection closed (1011: gone). true', 'retrying', 'live']);
  });
});
