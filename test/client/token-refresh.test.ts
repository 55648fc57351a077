import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParleyClient, type ThreadSession, type ThreadState } from '../../packages/client/src/index.ts';
import { refreshDelay, tokenExpiry } from '../../packages/client/src/transport.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { recordedReply } from '../support/client.ts';
import { ViewerDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/session.ts';

const ISSUER = 'https://id.example.test/';
const AUDIENCE = 'parley-api';
const SECRET = 'a shared secret of the tests, long enough for HS256';
/** How long each token of the refreshing function is valid: the reply below outlives several. */
const TOKEN_LIFETIME_S = 4;

/** The reply of `/slow 12`: 49 chunks, one about every 230 ms (over 11 s). */
const COUNTING_12 = `Counting: ${Array.from({ length: 48 }, (_, index) => index + 1).join(' ')}`;

function sign(subject: string, lifetimeS: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: subject, exp: now + lifetimeS })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
}

/** A WebSocket class that records the `after` cursor of every subscription and every close code it sees. */
function recordingWebSocket(afters: (string | null)[], closes: number[]) {
  return class extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on('close', (code) => closes.push(code));
    }

    override send(data: unknown, ...rest: unknown[]) {
      const message = typeof data === 'string' ? (JSON.parse(data) as { type?: string; payload?: { variables?: { after?: string | null } } }) : null;
      if (message?.type === 'subscribe') afters.push(message.payload?.variables?.after ?? null);
      return (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  };
}

it('reads a JWT’s expiry without verifying it, and refreshes a fifth of the time left before it (at most 30 s)', () => {
  const payload = Buffer.from(JSON.stringify({ sub: 'x', exp: 2_000_000_000 })).toString('base64url');
  expect(tokenExpiry(`e30.${payload}.sig`)).toBe(2_000_000_000_000);
  expect(tokenExpiry('pky_notAJwt')).toBeNull();
  expect(tokenExpiry('a.!!!.c')).toBeNull();
  expect(refreshDelay(10_000, 0)).toBe(8_000);
  expect(refreshDelay(600_000, 0)).toBe(570_000);
  expect(refreshDelay(0, 10)).toBe(0);
});

describeEachBackend('the shipped client with short-lived JWTs', (backend) => {
  let server: TestServer;
  const sessions: ThreadSession[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_AUTH_JWT_SECRET: SECRET, PARLEY_AUTH_ISSUER: ISSUER, PARLEY_AUTH_AUDIENCE: AUDIENCE } });
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await server?.stop();
  });

  /** A JWT user with an agent: what a product's signed-in user has. */
  async function signedInUser() {
    const subject = `refresh-${randomUUID()}`;
    const longLived = await sign(subject, 3600);
    const { viewer } = await requestData(server, ViewerDocument, {}, longLived);
    const { agentId } = await setUpAgent(server, { user: { userId: decodeId('id', viewer!.id, 'User'), token: longLived } });
    return { subject, longLived, agentId };
  }

  it('streams a reply that outlives several tokens, refreshing before each expires: nothing lost, nothing twice', async () => {
    const { subject, longLived, agentId } = await signedInUser();
    const threadId = await newThread(server, longLived, agentId);
    let issued = 0;
    const afters: (string | null)[] = [];
    const closes: number[] = [];
    const client = createParleyClient({
      url: server.url,
      webSocketImpl: recordingWebSocket(afters, closes),
      token: async () => {
        issued += 1;
        return sign(subject, TOKEN_LIFETIME_S);
      },
    });
    const session = client.thread(threadId);
    sessions.push(session);
    await session.ready();
    expect((await session.send('/slow 12')).__typename).toBe('MessageQueued');
    const state = await until(session, (s) => s.messages.some((message) => message.role === 'ASSISTANT' && message.outcome === 'COMPLETED'), 60_000);

    const reply = state.messages.find((message) => message.role === 'ASSISTANT')!;
    expect(state.executions[reply.executionId!]!.text).toBe(COUNTING_12);
    expect(await recordedReply(server, longLived, threadId, reply.executionId!)).toBe(COUNTING_12);
    expect(state.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    // The reply took longer than two tokens' lives: the subscription moved to fresh sockets on the way.
    expect(afters.length, `subscriptions from ${JSON.stringify(afters)}`).toBeGreaterThanOrEqual(3);
    expect(issued).toBeGreaterThanOrEqual(afters.length);
    // Each move resumed from the last durable cursor, which only grows.
    const cursors = afters.filter((after): after is string => after !== null).map(Number);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(state.connection.status).toBe('live');
    expect(closes.filter((code) => code !== 1000 && code !== 1005 && code !== 4401), 'no socket closed for another reason').toEqual([]);
  }, 90_000);

  it('a fixed JWT that expires ends the session with UNAUTHENTICATED instead of retrying forever', async () => {
    const { subject, agentId, longLived } = await signedInUser();
    const threadId = await newThread(server, longLived, agentId);
    const client = createParleyClient({ url: server.url, webSocketImpl: WebSocket, token: await sign(subject, 2) });
    const session = client.thread(threadId);
    sessions.push(session);
    await session.ready();
    const state = await until(session, (s) => s.connection.status === 'closed', 30_000);
    expect(state.connection.error).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
