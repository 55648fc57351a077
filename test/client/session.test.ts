import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  createParleyClient,
  textOfParts,
  type ParleyClient,
  type ThreadSession,
  type ThreadState,
} from '../../packages/client/src/index.ts';
import { ThreadQueueDocument } from '../../packages/client/src/documents.ts';
import { describeEachBackend } from '../support/backends.ts';
import { recordedReply, send } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { until } from '../support/session.ts';

const replyOf = (state: ThreadState, executionId: string | null) =>
  state.messages.find((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
const lastTurn = (state: ThreadState) => state.messages.findLast((message) => message.role === 'USER');
const finished = (state: ThreadState, text: string) =>
  state.messages.some((message) => message.role === 'USER' && textOfParts(message.parts) === text && message.outcome !== 'RUNNING');

/** A WebSocket that records the `after` of every subscription it sends. */
function recordingWebSocket(afters: (string | null)[]) {
  return class extends WebSocket {
    override send(data: unknown, ...rest: unknown[]) {
      const message = typeof data === 'string' ? (JSON.parse(data) as { type?: string; payload?: { variables?: { after?: string | null } } }) : null;
      if (message?.type === 'subscribe') afters.push(message.payload?.variables?.after ?? null);
      return (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  };
}

describeEachBackend('the shipped client against a real server', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let client: ParleyClient;
  const sessions: ThreadSession[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    ({ token, agentId } = await setUpAgent(server, { project: 'Client' }));
    client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await server?.stop();
  });

  const open = async (threadId: string, using = client) => {
    const session = using.thread(threadId);
    sessions.push(session);
    await session.ready();
    return session;
  };

  /** A client whose WebSocket goes through a proxy that can cut it or hold it back. */
  async function proxiedClient(afters: (string | null)[] = []) {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    proxies.push(proxy);
    const wsUrl = `${proxy.url('ws:')}/graphql`;
    return { proxy, client: createParleyClient({ url: server.url, wsUrl, token, webSocketImpl: recordingWebSocket(afters), reconnectDelayMs: 50 }) };
  }

  it('streams a reply to completion', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    const sent = await session.send('hello there');
    expect(sent.__typename).toBe('MessageQueued');
    const state = await until(session, (s) => finished(s, 'hello there'));
    const executionId = lastTurn(state)!.executionId;
    expect(replyOf(state, executionId)).toMatchObject({ outcome: 'COMPLETED' });
    expect(state.executions[executionId!]!.text).toBe(await recordedReply(server, token, threadId, executionId!));
    expect(state.executions[executionId!]!.text).toContain('hello there');
    expect(state.activeExecutionId).toBeNull();
    expect(state.connection.status).toBe('live');
  });

  it('sends attachments as a GraphQL multipart request; files over the limit are refused and nothing is queued', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    const notes = new File(['some notes'], 'notes.txt', { type: 'text/plain' });
    const tooMany = Array.from({ length: 11 }, (_, index) => new File(['x'], `f${index}.txt`, { type: 'text/plain' }));
    const refused = await session.send('too many', { attachments: tooMany });
    expect(refused).toMatchObject({ __typename: 'InvalidInputError', field: 'attachments' });
    expect((await client.request(ThreadQueueDocument, { threadId })) as unknown).toMatchObject({ queue: { items: [] } });

    expect((await session.send('with notes', { attachments: [notes] })).__typename).toBe('MessageQueued');
    await until(session, (s) => finished(s, 'with notes'));
    // The finished turn's record (read on ExecutionFinished) carries the attachment.
    const state = await until(session, (s) => s.messages.some((message) => message.parts.some((part) => part.__typename === 'AttachmentPart')));
    const question = state.messages.find((message) => message.role === 'USER')!;
    expect(question.parts).toContainEqual(
      expect.objectContaining({ __typename: 'AttachmentPart', filename: 'notes.txt', mediaType: 'text/plain', size: 10 }),
    );
  });

  it('a session opened mid-stream (a reload) ends with the same text as the one that saw it all', async () => {
    const threadId = await newThread(server, token, agentId);
    const first = await open(threadId);
    await first.send('/slow 3 streaming along');
    const midway = await until(first, (s) => s.activeExecutionId && (s.executions[s.activeExecutionId]?.text.length ?? 0) > 0);
    const executionId = midway.activeExecutionId!;
    const reloaded = await open(threadId);
    const [seenAll, seenFromMidway] = await Promise.all([
      until(first, (s) => s.executions[executionId]?.status === 'COMPLETED'),
      until(reloaded, (s) => s.executions[executionId]?.status === 'COMPLETED'),
    ]);
    const recorded = await recordedReply(server, token, threadId, executionId);
    expect(seenAll.executions[executionId]!.text).toBe(recorded);
    expect(seenFromMidway.executions[executionId]!.text).toBe(recorded);
    expect(seenFromMidway.messages.filter((message) => message.role === 'USER')).toHaveLength(1);
  });

  it('when the server side drops the socket mid-stream, the session resubscribes from its durable cursor: nothing twice', async () => {
    const afters: (string | null)[] = [];
    const { proxy, client: proxied } = await proxiedClient(afters);
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, 'a first turn');
    const session = await open(threadId, proxied);
    await until(session, (s) => finished(s, 'a first turn'));
    await session.send('/slow 3 dropped midway');
    await until(session, (s) => s.activeExecutionId && (s.executions[s.activeExecutionId]?.text.length ?? 0) > 0);
    const cursorAtDrop = session.getSnapshot().cursor;
    proxy.cut();
    await until(session, (s) => s.connection.status === 'reconnecting');
    const state = await until(session, (s) => finished(s, '/slow 3 dropped midway') && s.connection.status === 'live');
    const executionId = lastTurn(state)!.executionId!;
    expect(afters.length).toBeGreaterThanOrEqual(2);
    // The resubscription starts where the session was, never from the first `after` again.
    expect(afters[1]).not.toBe(afters[0]);
    expect(Number(afters[1])).toBeGreaterThanOrEqual(Number(cursorAtDrop));
    expect(afters.every((after) => after !== null && /^\d+$/.test(after))).toBe(true);
    expect(state.messages.filter((message) => message.role === 'USER').map((message) => textOfParts(message.parts))).toEqual([
      'a first turn',
      '/slow 3 dropped midway',
    ]);
    expect(state.messages.filter((message) => message.role === 'ASSISTANT')).toHaveLength(2);
    expect(state.executions[executionId]!.text).toBe(await recordedReply(server, token, threadId, executionId));
  });

  it('two clients on one thread: a reorder from a stale queue is refused, reported and refreshed', async () => {
    const threadId = await newThread(server, token, agentId);
    const { proxy, client: stale } = await proxiedClient();
    const alice = await open(threadId, stale);
    const bob = await open(threadId);
    await bob.send('/slow 60 keep the queue waiting'); // stopped at the end: on a busy machine a short one could end mid-test
    await until(bob, (s) => s.activeExecutionId);
    for (const text of ['one', 'two', 'three']) expect((await bob.send(text)).__typename).toBe('MessageQueued');
    await until(alice, (s) => s.queue?.items.length === 3);
    // Alice's screen stops hearing of changes; Bob moves "three" to the front.
    proxy.hold();
    const [one, , three] = (await until(bob, (s) => s.queue?.items.length === 3)).queue!.items;
    const moved = await bob.reorder(three!.id, one!.id);
    expect(moved.__typename).toBe('Queue');
    const shown = alice.getSnapshot().queue!.items.map((item) => item.text);
    expect(shown).toEqual(['one', 'two', 'three']);
    const refused = await alice.reorder(three!.id, one!.id);
    expect(refused.__typename).toBe('QueueChangedError');
    expect(refused).toMatchObject({ currentQueueIds: bob.getSnapshot().queue!.items.map((item) => item.id) });
    // Refreshed: Alice sees Bob's order without waiting for her events.
    expect(alice.getSnapshot().queue!.items.map((item) => item.text)).toEqual(['three', 'one', 'two']);
    proxy.release();
    await bob.stop();
  });

  it('stop ends the reply as CANCELLED, and a reload shows it so', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    await session.send('/slow 10 long enough to stop');
    await until(session, (s) => s.activeExecutionId);
    const stopped = await session.stop();
    expect(stopped.__typename).toBe('CancelRequested');
    const state = await until(session, (s) => finished(s, '/slow 10 long enough to stop'));
    expect(lastTurn(state)!.outcome).toBe('CANCELLED');
    const reloaded = await open(threadId);
    expect(lastTurn(reloaded.getSnapshot())!.outcome).toBe('CANCELLED');
  });

  it('an approval card is resolved through the client and the reply completes', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    await session.send('/approve x');
    const waiting = await until(session, (s) => s.openSuspensions.length === 1);
    const card = waiting.openSuspensions[0]!;
    const resolved = await session.resolve(card.id, { decision: 'APPROVE' });
    expect(resolved.__typename).toBe('SuspensionResolved');
    const state = await until(session, (s) => lastTurn(s)?.outcome === 'COMPLETED');
    expect(state.openSuspensions).toEqual([]);
    expect(replyOf(state, card.executionId)?.outcome).toBe('COMPLETED');
  });

  it('a rate-limited failure shows retryAt = occurredAt + 7 s, live and after a reload', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    await session.send('/fail rate_limit');
    const live = await until(session, (s) => finished(s, '/fail rate_limit') && s.error);
    expect(live.error).toMatchObject({ reason: 'RATE_LIMIT', retryAfterS: 7 });
    expect(live.error!.retryAt).toBe(Date.parse(live.error!.occurredAt) + 7_000);
    expect(lastTurn(live)!.outcome).toBe('FAILED');
    const reloaded = (await open(threadId)).getSnapshot();
    expect(reloaded.error).toEqual(live.error);
    const retried = await session.retry();
    expect(retried.__typename).toBe('MessageQueued');
  });

  it('typed errors come back as data', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = await open(threadId);
    const removed = await session.remove(threadId);
    expect(['NotFoundError', 'InvalidInputError']).toContain(removed.__typename);
    const stopped = await session.stop();
    expect(stopped).toMatchObject({ __typename: 'RequestError', code: 'NO_EXECUTION' });
  });

  it('a session that cannot follow the thread says so instead of waiting', async () => {
    const threadId = await newThread(server, token, agentId);
    const stranger = createParleyClient({ url: server.url, token: 'plr_not-a-token', webSocketImpl: WebSocket });
    const session = stranger.thread(threadId);
    sessions.push(session);
    await expect(session.ready()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(session.getSnapshot().connection).toMatchObject({ status: 'closed', error: { code: 'UNAUTHENTICATED' } });
  });
});

describeEachBackend('the shipped client across a server restart', (backend) => {
  let dataDir: string | null = null;
  const servers: TestServer[] = [];
  let session: ThreadSession | null = null;

  afterAll(async () => {
    await session?.close();
    for (const server of servers) await server.stop().catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('an open approval card survives the restart: the session reconnects by itself and resolves it', async () => {
    let env: Record<string, string> = {};
    if (backend === 'pglite') {
      dataDir = mkdtempSync(join(tmpdir(), 'parley-client-restart-'));
      env = { PARLEY_DATA_DIR: dataDir };
    }
    const first = await startTestServer({ backend, env, dropSchemaOnStop: false });
    servers.push(first);
    const { token, agentId } = await setUpAgent(first, { project: 'Client restart' });
    const threadId = await newThread(first, token, agentId);
    const client = createParleyClient({ url: first.url, token, webSocketImpl: WebSocket, reconnectDelayMs: 50 });
    session = client.thread(threadId);
    await session.ready();
    await session.send('/approve across a restart');
    const card = (await until(session, (s) => s.openSuspensions.length === 1)).openSuspensions[0]!;

    // The same address, so that the session finds the new server where it left the old one.
    await first.stop();
    const second = await startTestServer({ backend, env: { ...first.env, PORT: new URL(first.url).port } });
    servers.push(second);
    await until(session, (s) => s.connection.status === 'live' && s.openSuspensions.length === 1, 60_000);

    expect(await session.resolve(card.id, { decision: 'APPROVE' })).toMatchObject({ __typename: 'SuspensionResolved' });
    const state = await until(session, (s) => replyOf(s, card.executionId)?.outcome === 'COMPLETED', 60_000);
    expect(state.openSuspensions).toEqual([]);
    expect(textOfParts(replyOf(state, card.executionId)!.parts)).toBe('Approved: across a restart');
  }, 120_000);
});
