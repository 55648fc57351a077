import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { RawClient } from '../support/raw-websocket.ts';
import { print } from 'graphql';
import { RunEventsDocument, ThreadDocument, ViewerDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { describeEachBackend } from '../support/backends.ts';
import { eventually, request, requestData, startTestServer, type Backend, type TestServer } from '../support/server.ts';

const ISSUER = 'https://id.example.test/';
const AUDIENCE = 'parley-api';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  publicPem: string;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }, publicPem: await exportSPKI(publicKey) };
}

/** The identity provider's key set, served on a loopback port; it counts how often it is fetched. */
class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((_request, response) => {
      this.fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

type Claims = JWTPayload & Record<string, unknown>;

/** A token as the provider would mint it for `sub`, valid for an hour; `claims` overrides any of it. */
function sign(key: SigningKey, claims: Claims = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 3600, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

/** What the server answers to `{ viewer }` with this bearer value: the viewer's id, or the error. */
async function whoIs(server: { url: string }, token: string): Promise<string> {
  const result = await request(server, ViewerDocument, {}, token);
  return result.data?.viewer?.id ?? `refused: ${result.errors?.[0]?.extensions?.code}: ${result.errors?.[0]?.message}`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function userOf(server: TestServer, subject: string) {
  return server.parley.db.prisma.user.findMany({ where: { externalIssuer: ISSUER, externalSubject: subject } });
}

describeEachBackend('sign-in with JWTs from a JWKS', (backend: Backend) => {
  const jwks = new JwksServer();
  let server: TestServer;
  let key: SigningKey;
  let rotatedKey: SigningKey;
  let impostor: SigningKey;

  beforeAll(async () => {
    [key, rotatedKey, impostor] = await Promise.all([signingKey('key-1'), signingKey('key-2'), signingKey('key-1')]);
    await jwks.start();
    jwks.keys = [key.publicJwk];
    server = await startTestServer({
      backend,
      env: {
        PARLEY_AUTH_JWKS_URL: jwks.url,
        PARLEY_AUTH_ISSUER: ISSUER,
        PARLEY_AUTH_AUDIENCE: AUDIENCE,
        // Every unknown kid refetches here, so that the rotation below is seen at once.
        PARLEY_AUTH_JWKS_COOLDOWN_MS: '0',
      },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await jwks.stop();
  });

  it('signs in over HTTP, creating the user from its claims the first time', async () => {
    const subject = `sub-${randomUUID()}`;
    const token = await sign(key, { sub: subject, email: 'Ada@Example.test', name: 'Ada Lovelace', locale: 'de-AT' });
    const id = await whoIs(server, token);
    expect(id).not.toMatch(/^refused/);
    const [user, ...others] = await userOf(server, subject);
    expect(others).toEqual([]);
    expect(user).toMatchObject({ email: 'ada@example.test', name: 'Ada Lovelace', locale: 'de' });
    const { viewer } = await requestData(server, ViewerDocument, {}, token);
    expect(viewer.id).toBe(id);
  });

  it('two concurrent first requests of one subject create one user', async () => {
    const subject = `sub-${randomUUID()}`;
    const tokens = await Promise.all([1, 2, 3, 4].map(() => sign(key, { sub: subject, email: 'race@example.test' })));
    const ids = await Promise.all(tokens.map((token) => whoIs(server, token)));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).not.toMatch(/^refused/);
    expect(await userOf(server, subject)).toHaveLength(1);
  });

  it('keeps the user up to date when a claim changes, as the same user', async () => {
    const subject = `sub-${randomUUID()}`;
    const first = await whoIs(server, await sign(key, { sub: subject, email: 'old@example.test', name: 'Old', locale: 'en' }));
    const second = await whoIs(server, await sign(key, { sub: subject, email: 'new@example.test', name: 'New', locale: 'de' }));
    expect(second).toBe(first);
    const [user] = await userOf(server, subject);
    expect(user).toMatchObject({ email: 'new@example.test', name: 'New', locale: 'de' });
  });

  it('the same subject of another issuer is another user; an email claim never joins an existing user', async () => {
    const local = await server.createUser({ email: 'shared@example.test' });
    const jwtUser = await whoIs(server, await sign(key, { sub: `sub-${randomUUID()}`, email: 'shared@example.test' }));
    const localViewer = (await requestData(server, ViewerDocument, {}, local.token)).viewer.id;
    expect(jwtUser).not.toMatch(/^refused/);
    expect(jwtUser).not.toBe(localViewer);
  });

  const refusals: [string, () => Promise<string>, RegExp][] = [
    ['a wrong issuer', () => sign(key, { iss: 'https://evil.example.test/' }), /another issuer \(iss\)/],
    ['a wrong audience', () => sign(key, { aud: 'another-api' }), /another audience \(aud\)/],
    ['an expired token', () => sign(key, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }), /expired \(exp\)/],
    ['a token not valid yet', () => sign(key, { nbf: Math.floor(Date.now() / 1000) + 3600 }), /not valid yet \(nbf\)/],
    ['a bad signature (another key claiming the kid)', () => sign(impostor), /signature does not verify/],
    ['a tampered payload', async () => {
      const [header, , signature] = (await sign(key)).split('.');
      return `${header}.${base64url({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: Math.floor(Date.now() / 1000) + 3600 })}.${signature}`;
    }, /signature does not verify/],
    ['alg none', async () => {
      const now = Math.floor(Date.now() / 1000);
      return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: now + 3600 })}.`;
    }, /algorithm is not allowed|not a well-formed JWT/],
    ['HS256 signed with the RSA public key as its secret', async () => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: now + 3600 })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid })
        .sign(new TextEncoder().encode(key.publicPem));
    }, /algorithm is not allowed/],
    ['a kid the issuer does not publish', () => sign(impostor, {}, { kid: 'never-published' }), /unknown kid/],
    ['a token without a subject', () => sign(key, { sub: undefined }), /no subject/],
  ];

  for (const [what, token, reason] of refusals) {
    it(`refuses ${what} with UNAUTHENTICATED saying so, and creates no user`, async () => {
      const before = await server.parley.db.prisma.user.count();
      const answer = await whoIs(server, await token());
      expect(answer).toMatch(/^refused: UNAUTHENTICATED: The sign-in token was refused: /);
      expect(answer).toMatch(reason);
      expect(answer).not.toContain(key.publicPem.split('\n')[1]!.slice(0, 20));
      expect(await server.parley.db.prisma.user.count()).toBe(before);
    });
  }

  it('accepts a token of a key that appears after a rotation, after one refetch of the key set', async () => {
    const token = await sign(rotatedKey, { sub: `sub-${randomUUID()}` });
    expect(await whoIs(server, token)).toMatch(/unknown kid/);
    jwks.keys = [key.publicJwk, rotatedKey.publicJwk];
    const fetchesBefore = jwks.fetches;
    const fresh = await sign(rotatedKey, { sub: `sub-${randomUUID()}` });
    expect(await whoIs(server, fresh)).not.toMatch(/^refused/);
    expect(jwks.fetches).toBe(fetchesBefore + 1);
    // The old key still signs in, without another fetch.
    expect(await whoIs(server, await sign(key, { sub: `sub-${randomUUID()}` }))).not.toMatch(/^refused/);
    expect(jwks.fetches).toBe(fetchesBefore + 1);
  });

  it('API tokens keep working beside JWTs, and a wrong one is refused as before', async () => {
    const { token } = await server.createUser();
    expect(await whoIs(server, token)).not.toMatch(/^refused/);
    expect(await whoIs(server, 'pky_this-token-was-never-issued-by-anyone')).toBe(
      'refused: UNAUTHENTICATED: Authentication required: send "Authorization: Bearer <token>".',
    );
  });

  it('an attachment download or an upload with a refused JWT answers 401 saying why', async () => {
    const expired = await sign(key, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 });
    const download = await fetch(`${server.url.replace(/\/graphql$/, '')}/attachments/${randomUUID()}`, {
      headers: { authorization: `Bearer ${expired}` },
    });
    expect(download.status).toBe(401);
    expect(await download.text()).toContain('it has expired (exp)');
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: '{ viewer { id } }' }));
    form.set('map', '{}');
    const upload = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${expired}`, 'graphql-require-preflight': '1' },
      body: form,
    });
    expect(upload.status).toBe(401);
    expect(await upload.text()).toContain('it has expired (exp)');
  });

  it('signs in over SSE, and a refused token ends the stream with UNAUTHENTICATED saying why', async () => {
    const sse = async (token: string) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
      return response.text();
    };
    const token = await sign(key, { sub: `sub-${randomUUID()}` });
    const id = await whoIs(server, token);
    expect(await sse(token)).toContain(`"id":"${id}"`);
    const refused = await sse(await sign(key, { aud: 'another-api' }));
    expect(refused).toContain('"code":"UNAUTHENTICATED"');
    expect(refused).toContain('another audience (aud)');
  });

  it('signs in over a WebSocket; a refused token closes it with 4403 saying why', async () => {
    const token = await sign(key, { sub: `sub-${randomUUID()}` });
    const id = await whoIs(server, token);
    const client = new RawClient(server.wsUrl);
    try {
      expect(await client.init({ authorization: `Bearer ${token}` })).toBe('acknowledged');
      client.socket.send(JSON.stringify({ id: 'v', type: 'subscribe', payload: { query: '{ viewer { id } }' } }));
      expect(await client.firstAnswer('v')).toMatchObject({ type: 'next', payload: { data: { viewer: { id } } } });
    } finally {
      client.socket.close();
    }
    const refused = new RawClient(server.wsUrl);
    const closed = await refused.init({ authorization: `Bearer ${await sign(key, { exp: Math.floor(Date.now() / 1000) - 3600 })}` });
    expect(closed).toMatchObject({ code: 4403 });
    expect((closed as { reason: string }).reason).toMatch(/expired \(exp\)/);
  });

  it('closes a WebSocket signed in by a JWT with 4401 when the token expires', async () => {
    const client = new RawClient(server.wsUrl);
    const exp = Math.floor(Date.now() / 1000) + 2;
    expect(await client.init({ authorization: `Bearer ${await sign(key, { sub: `sub-${randomUUID()}`, exp })}` })).toBe('acknowledged');
    const closed = await eventually(() => client.closed, 15_000, 'the socket closed');
    expect(closed.code).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });

  it('ends an SSE subscription signed in by a JWT with UNAUTHENTICATED when the token expires', async () => {
    const subject = `sub-${randomUUID()}`;
    const longLived = await sign(key, { sub: subject });
    const { agentId } = await setUpAgent(server, { user: { userId: await userIdOf(await whoIs(server, longLived)), token: longLived } });
    const threadId = await newThread(server, longLived, agentId);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${await sign(key, { sub: subject, exp })}`,
      },
      body: JSON.stringify({ query: print(RunEventsDocument), variables: { threadId, after: null } }),
    });
    const stream = await response.text();
    const errors = stream
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .flatMap((line) => (JSON.parse(line.slice('data: '.length)) as { errors?: { message: string; extensions?: { code?: string } }[] }).errors ?? []);
    expect(errors).toEqual([
      expect.objectContaining({ message: 'The sign-in token has expired: subscribe again with a fresh token.', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
    ]);
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });

  it('two JWT users cannot see each other’s threads', async () => {
    const aliceToken = await sign(key, { sub: `alice-${randomUUID()}` });
    const bobToken = await sign(key, { sub: `bob-${randomUUID()}` });
    const alice = { userId: await whoIs(server, aliceToken), token: aliceToken };
    const { agentId } = await setUpAgent(server, { user: { userId: (await userIdOf(alice.userId)), token: aliceToken } });
    const threadId = await newThread(server, aliceToken, agentId);
    expect((await requestData(server, ThreadDocument, { id: threadId }, aliceToken)).thread.id).toBe(threadId);
    const asBob = await request(server, ThreadDocument, { id: threadId }, bobToken);
    expect(asBob.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('a JWT user is made a member of a project like any other user, then sees its agents’ threads', async () => {
    const owner = await setUpAgent(server);
    const threadOwnerSees = await newThread(server, owner.token, owner.agentId);
    // No email claim: the user is known by its id only.
    const memberToken = await sign(key, { sub: `member-${randomUUID()}` });
    const memberGlobalId = await whoIs(server, memberToken);
    const memberId = await userIdOf(memberGlobalId);
    expect((await request(server, ThreadDocument, { id: threadOwnerSees }, memberToken)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    if (backend === 'postgres') {
      // The operator's CLI, on the database the server uses (PGlite's is the server's own).
      const added = await runCli(['member', 'add', '--project', owner.projectId, '--user', memberGlobalId, '--role', 'member'], {
        DATABASE_URL: server.env.DATABASE_URL!,
      });
      expect(added.stderr).toBe('');
      expect(added.stdout).toContain(`${memberGlobalId} is now member of project`);
    } else {
      await server.parley.services.directory.addMember(null, { projectId: owner.projectId, user: memberId, role: 'member' });
    }
    const thread = await newThread(server, memberToken, owner.agentId);
    expect((await requestData(server, ThreadDocument, { id: thread }, memberToken)).thread.id).toBe(thread);
  });

  /** The raw user id behind a viewer's global id. */
  async function userIdOf(globalId: string): Promise<string> {
    const [type, raw] = Buffer.from(globalId, 'base64').toString('utf8').split(':');
    expect(type).toBe('User');
    return raw!;
  }
});

describe('sign-in with JWTs signed by a shared HS256 secret', () => {
  const secret = 'a-shared-secret-of-at-least-thirty-two-characters';
  let server: TestServer;
  let rsaKey: SigningKey;

  beforeAll(async () => {
    rsaKey = await signingKey('key-1');
    server = await startTestServer({
      env: { PARLEY_AUTH_JWT_SECRET: secret, PARLEY_AUTH_ISSUER: ISSUER, PARLEY_AUTH_AUDIENCE: AUDIENCE },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const hs256 = (value: string, claims: Claims = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'hs-user', exp: now + 3600, ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(value));
  };

  it('accepts a token signed with the secret', async () => {
    expect(await whoIs(server, await hs256(secret))).not.toMatch(/^refused/);
  });

  it('refuses one signed with another secret, and an RS256 token', async () => {
    expect(await whoIs(server, await hs256('another-secret-of-at-least-thirty-two-chars'))).toMatch(/signature does not verify/);
    expect(await whoIs(server, await sign(rsaKey))).toMatch(/algorithm is not allowed/);
  });

  it('never tells any part of the secret', async () => {
    const answer = await whoIs(server, await hs256('a-shared-secret-of-at-least-thirty-two-characterz'));
    expect(answer).toMatch(/^refused: UNAUTHENTICATED/);
    expect(answer).not.toContain('shared-secret');
  });
});

describe('the JWKS refetch for an unknown kid', () => {
  const jwks = new JwksServer();
  let server: TestServer;

  beforeAll(async () => {
    await jwks.start();
    server = await startTestServer({
      env: { PARLEY_AUTH_JWKS_URL: jwks.url, PARLEY_AUTH_ISSUER: ISSUER, PARLEY_AUTH_AUDIENCE: AUDIENCE },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await jwks.stop();
  });

  it('is rate-limited: a burst of tokens naming made-up kids fetches the keys once', async () => {
    const key = await signingKey('published');
    jwks.keys = [key.publicJwk];
    expect(await whoIs(server, await sign(key))).not.toMatch(/^refused/);
    const fetches = jwks.fetches;
    const madeUp = await Promise.all([1, 2, 3, 4, 5].map((n) => sign(key, {}, { kid: `made-up-${n}` })));
    for (const token of madeUp) expect(await whoIs(server, token)).toMatch(/unknown kid/);
    expect(jwks.fetches).toBe(fetches);
  });
});
