import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokens, issueApiToken, TokenAuthenticator, TokenUsageRecorder } from '../../src/auth/tokens.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { RevokeApiTokenDocument, ViewerApiTokensDocument, ViewerDocument } from '../support/documents.ts';
import { eventually, isolatedEnv, request, requestData, startTestServer, type Backend, type TestServer } from '../support/server.ts';

/** What the server answers to `{ viewer }` with this token: the viewer's id, or the error code. */
async function whoIs(server: { url: string }, token: string): Promise<string> {
  const result = await request(server, ViewerDocument, {}, token);
  return result.data?.viewer?.id ?? `refused: ${result.errors?.[0]?.extensions?.code}: ${result.errors?.[0]?.message}`;
}

const WRONG_TOKEN = 'pky_this-token-was-never-issued-by-anyone';

describeEachBackend('API tokens', (backend: Backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ backend });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('the viewer lists their own tokens, never a hash or the token itself', async () => {
    const { userId, token } = await server.createUser();
    await issueApiToken(server.parley.db.prisma, userId, 'laptop', { expiresAt: new Date(Date.now() + 3_600_000) });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { apiTokens { id label createdAt lastUsedAt expiresAt } } }' }),
    });
    const body = await response.text();
    const stored = await server.parley.db.prisma.apiToken.findMany({ where: { userId } });
    for (const row of stored) expect(body).not.toContain(row.tokenHash);
    expect(body).not.toContain(token);
    const { viewer } = await requestData(server, ViewerApiTokensDocument, {}, token);
    expect(viewer.apiTokens.map((item) => item.label).sort()).toEqual(['created with the user', 'laptop']);
    expect(viewer.apiTokens.find((item) => item.label === 'laptop')!.expiresAt).not.toBeNull();
  });

  it('a revoked token is refused from the next request on, like a wrong one', async () => {
    const { userId, token } = await server.createUser();
    const { token: second, info } = await issueApiToken(server.parley.db.prisma, userId, 'second');
    expect(await whoIs(server, second)).toBe((await requestData(server, ViewerDocument, {}, token)).viewer.id);
    const revoked = await requestData(server, RevokeApiTokenDocument, { id: info.id }, token);
    expect(revoked.revokeApiToken).toMatchObject({ __typename: 'ApiToken', id: info.id, label: 'second' });
    expect(await whoIs(server, second)).toBe(await whoIs(server, WRONG_TOKEN));
    expect(await whoIs(server, second)).toMatch(/^refused: UNAUTHENTICATED/);
    // The other token still works.
    expect(await whoIs(server, token)).not.toMatch(/^refused/);
  });

  it('a token can revoke itself', async () => {
    const { token } = await server.createUser();
    const { viewer } = await requestData(server, ViewerApiTokensDocument, {}, token);
    const revoked = await requestData(server, RevokeApiTokenDocument, { id: viewer.apiTokens[0]!.id }, token);
    expect(revoked.revokeApiToken.__typename).toBe('ApiToken');
    expect(await whoIs(server, token)).toMatch(/^refused: UNAUTHENTICATED/);
  });

  it('another user’s token cannot be revoked, and the answer is the one for a token that does not exist', async () => {
    const owner = await server.createUser();
    const attacker = await server.createUser();
    const { info } = await issueApiToken(server.parley.db.prisma, owner.userId, 'mine');
    const theirs = await requestData(server, RevokeApiTokenDocument, { id: info.id }, attacker.token);
    const missing = await requestData(server, RevokeApiTokenDocument, { id: '00000000-0000-4000-8000-000000000000' }, attacker.token);
    expect(theirs.revokeApiToken.__typename).toBe('NotFoundError');
    expect(missing.revokeApiToken.__typename).toBe('NotFoundError');
    expect(await server.parley.db.prisma.apiToken.count({ where: { id: info.id } })).toBe(1);
  });

  it('an expired token is refused like a wrong one', async () => {
    const { userId } = await server.createUser();
    const { token } = await issueApiToken(server.parley.db.prisma, userId, 'old', { expiresAt: new Date(Date.now() - 1_000) });
    expect(await whoIs(server, token)).toBe(await whoIs(server, WRONG_TOKEN));
  });

  it('records lastUsedAt when a token is used', async () => {
    const { userId, token } = await server.createUser();
    await whoIs(server, token);
    const used = await eventually(
      () => server.parley.db.prisma.apiToken.findFirst({ where: { userId, lastUsedAt: { not: null } } }),
      15_000,
      'lastUsedAt to be written',
    );
    expect(used.lastUsedAt!.getTime()).toBeGreaterThan(used.createdAt.getTime() - 1_000);
  });
});

describe('token expiry and lastUsedAt, with an injected clock', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('writes lastUsedAt at most once a minute per token, however often it is used', async () => {
    const prisma = server.parley.db.prisma;
    const { userId } = await server.createUser();
    const { info } = await issueApiToken(prisma, userId, 'clocked');
    const start = Date.parse('2030-01-01T00:00:00Z');
    let now = start;
    const recorder = new TokenUsageRecorder(prisma, () => now);
    const lastUsed = async () => (await prisma.apiToken.findUniqueOrThrow({ where: { id: info.id } })).lastUsedAt?.getTime();

    await recorder.used(info.id, null);
    expect(await lastUsed()).toBe(start);
    for (const offset of [1, 1_000, 30_000, 59_999]) {
      now = start + offset;
      await recorder.used(info.id, null);
    }
    expect(await lastUsed()).toBe(start);
    now = start + 60_000;
    await recorder.used(info.id, null);
    expect(await lastUsed()).toBe(start + 60_000);

    // Another instance (its own recorder) that has not seen the token yet does not write again within the minute.
    const other = new TokenUsageRecorder(prisma, () => now + 5_000);
    await other.used(info.id, null);
    expect(await lastUsed()).toBe(start + 60_000);
  });

  it('a thousand requests over 150 s through the authenticator write lastUsedAt three times', async () => {
    const prisma = server.parley.db.prisma;
    const { userId } = await server.createUser();
    const { token } = await issueApiToken(prisma, userId, 'busy');
    let now = Date.now();
    const writes: unknown[] = [];
    // The recorder's only database call, counted; lookups go to the real database.
    const countingDatabase = { apiToken: { updateMany: async (args: unknown) => (writes.push(args), { count: 1 }) } };
    const recorder = new TokenUsageRecorder(countingDatabase as never, () => now);
    const errors: unknown[] = [];
    const authenticator = new TokenAuthenticator(prisma, recorder, (error) => errors.push(error), () => now);
    for (let request = 0; request < 1_000; request++) {
      now += 150;
      expect((await authenticator.authenticate(`Bearer ${token}`))?.id).toBe(userId);
    }
    expect(writes).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('refuses a token once it expires, even while its lookup is cached', async () => {
    const prisma = server.parley.db.prisma;
    const { userId } = await server.createUser();
    let now = Date.now();
    const { token } = await issueApiToken(prisma, userId, 'short', { expiresAt: new Date(now + 2_000) });
    const authenticator = new TokenAuthenticator(prisma, new TokenUsageRecorder(prisma, () => now), () => {}, () => now);
    expect((await authenticator.authenticate(token))?.id).toBe(userId);
    now += 1_999;
    expect((await authenticator.authenticate(token))?.id).toBe(userId);
    now += 1;
    expect(await authenticator.authenticate(token)).toBeNull();
  });

  it('uses a cached lookup only once every revocation announced before is known to be heard; else it looks the token up again', async () => {
    const prisma = server.parley.db.prisma;
    const { userId } = await server.createUser();
    const { token, info } = await issueApiToken(prisma, userId, 'cached');
    let heard = true;
    let questions = 0;
    const revocationsHeard = async () => (questions++, heard);
    const authenticator = new TokenAuthenticator(prisma, new TokenUsageRecorder(prisma), () => {}, Date.now, { revocationsHeard });
    expect((await authenticator.authenticate(token))?.id).toBe(userId);
    // Nothing cached yet: nothing to ask.
    expect(questions).toBe(0);
    // Revoked in the database by another instance whose announcement has not arrived here.
    await new ApiTokens(prisma, async () => {}).revoke(userId, info.id);
    expect((await authenticator.authenticate(token))?.id).toBe(userId);
    expect(questions).toBe(1);
    heard = false;
    expect(await authenticator.authenticate(token)).toBeNull();
    expect(questions).toBe(2);
  });

  it('does not remember a lookup that was under way while a revocation arrived', async () => {
    const prisma = server.parley.db.prisma;
    const { userId } = await server.createUser();
    const { token, info } = await issueApiToken(prisma, userId, 'raced');
    const authenticator = new TokenAuthenticator(prisma, new TokenUsageRecorder(prisma), () => {}, Date.now);
    // The lookup reads the row before the revocation; the revocation is heard before the lookup ends.
    const lookup = authenticator.authenticate(token);
    authenticator.forget(info.id);
    expect((await lookup)?.id).toBe(userId);
    await new ApiTokens(prisma, async () => {}).revoke(userId, info.id);
    expect(await authenticator.authenticate(token)).toBeNull();
  });
});

describeWithServices('revocation reaches every instance at once (PostgreSQL + Redis)', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const shared = isolatedEnv('postgres');
    first = await startTestServer({ backend: 'postgres', env: shared, dropSchemaOnStop: false });
    second = await startTestServer({ backend: 'postgres', env: shared });
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  it('revoked on instance 1, the next request on instance 2 is refused although instance 2 had it cached', async () => {
    for (let round = 0; round < 5; round++) {
      const { userId, token } = await first.createUser();
      const { token: doomed, info } = await issueApiToken(first.parley.db.prisma, userId, 'doomed');
      // Instance 2 looks the token up and remembers it for seconds.
      const viewerId = await whoIs(second, token);
      expect(await whoIs(second, doomed)).toBe(viewerId);
      expect(await whoIs(second, doomed)).toBe(viewerId);
      const revoked = await requestData(first, RevokeApiTokenDocument, { id: info.id }, token);
      expect(revoked.revokeApiToken.__typename).toBe('ApiToken');
      expect(await whoIs(second, doomed)).toMatch(/^refused: UNAUTHENTICATED/);
      expect(await whoIs(first, doomed)).toMatch(/^refused: UNAUTHENTICATED/);
    }
  });
});
