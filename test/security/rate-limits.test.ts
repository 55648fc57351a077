import { print } from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { mutate } from '../support/client.ts';
import { CreateThreadDocument, SendMessageDocument, ViewerDocument } from '../support/documents.ts';
import { refusedSubscription } from '../support/follower.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { databaseState, isolatedEnv, request, startTestServer, type TestServer } from '../support/server.ts';

// Per-minute budgets per user and per anonymous address, counted across instances through Redis.

const MUTATIONS = 4;
const QUERIES = 6;
const LIMITS = { PARLEY_MUTATIONS_PER_MINUTE: String(MUTATIONS), PARLEY_QUERIES_PER_MINUTE: String(QUERIES) };

/** A GraphQL request over HTTP with its status and Retry-After, as a client sees them. */
async function rawRequest(server: { url: string }, query: string, token?: string) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

const createThread = (server: { url: string }, token: string, agentId: string) =>
  mutate(server, CreateThreadDocument, { agentId, title: 'limited' }, token, 'createThread');

describeEachBackend('Rate limits', (backend) => {
  let server: TestServer;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, env: LIMITS });
    ({ agentId } = await setUpAgent(server, { project: 'Rate limits' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('mutations beyond the budget answer the typed RateLimitedError, sendMessage included, and change nothing', async () => {
    const { token, agentId } = await setUpAgent(server, { project: 'Mutations' });
    const threadId = await newThread(server, token, agentId);
    for (let index = 1; index < MUTATIONS; index++) {
      expect((await createThread(server, token, agentId)).__typename).toBe('Thread');
    }
    const before = await databaseState(server);
    const limited = await createThread(server, token, agentId);
    expect(limited).toMatchObject({ __typename: 'RateLimitedError', code: 'RATE_LIMITED' });
    const retryAfterS = (limited as { retryAfterS: number }).retryAfterS;
    expect(retryAfterS).toBeGreaterThanOrEqual(1);
    expect(retryAfterS).toBeLessThanOrEqual(60);
    const sent = await mutate(server, SendMessageDocument, { threadId, text: 'over the limit' }, token, 'sendMessage');
    expect(sent).toMatchObject({ __typename: 'RateLimitedError', code: 'RATE_LIMITED' });
    expect(await databaseState(server)).toEqual(before);

    // Another user's budget is their own.
    const other = await setUpAgent(server, { project: 'Other' });
    expect((await createThread(server, other.token, other.agentId)).__typename).toBe('Thread');
  });

  it('each mutation field of a document counts: aliases cannot multiply the budget', async () => {
    const { token, agentId } = await setUpAgent(server, { project: 'Aliases' });
    const fields = Array.from(
      { length: MUTATIONS + 2 },
      (_, index) => `m${index}: createThread(agentId: "${agentId}") { __typename ... on RateLimitedError { retryAfterS } }`,
    );
    const { body } = await rawRequest(server, `mutation { ${fields.join(' ')} }`, token);
    const answers = Object.values(body.data as Record<string, { __typename: string }>).map((answer) => answer.__typename);
    expect(answers).toEqual([...Array(MUTATIONS).fill('Thread'), 'RateLimitedError', 'RateLimitedError']);
  });

  it('queries beyond the budget answer RATE_LIMITED with retryAfterS (HTTP 429, Retry-After); so does a subscription start', async () => {
    const { token } = await setUpAgent(server, { project: 'Queries' });
    const { agentId } = await setUpAgent(server, { project: 'Queries 2' });
    for (let index = 0; index < QUERIES; index++) {
      expect((await request(server, ViewerDocument, {}, token)).errors).toBeUndefined();
    }
    const limited = await rawRequest(server, print(ViewerDocument), token);
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toHaveLength(1);
    const extensions = limited.body.errors![0]!.extensions!;
    expect(extensions.code).toBe('RATE_LIMITED');
    expect(extensions.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfter).toBe(String(extensions.retryAfterS));
    expect(limited.body.data ?? null).toBeNull();

    const errors = await refusedSubscription(server, token, agentId);
    expect(errors.map((error) => error.extensions?.code)).toEqual(['RATE_LIMITED']);
    // Mutations have a budget of their own.
    expect((await createThread(server, token, agentId)).__typename).not.toBe('RateLimitedError');
  });

  it('anonymous clients are counted by address, queries and mutations alike', async () => {
    for (let index = 0; index < QUERIES; index++) {
      const { body } = await rawRequest(server, '{ __typename }');
      expect(body.errors).toBeUndefined();
    }
    const limited = await rawRequest(server, '{ __typename }');
    expect(limited.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    // An anonymous mutation is UNAUTHENTICATED within the budget, and the typed RateLimitedError beyond it.
    for (let index = 0; index < MUTATIONS; index++) {
      const answer = await mutate(server, CreateThreadDocument, { agentId }, null, 'createThread');
      expect(answer).toMatchObject({ __typename: 'GraphQLErrors', errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    }
    const anonymousLimited = await mutate(server, CreateThreadDocument, { agentId }, null, 'createThread');
    expect(anonymousLimited).toMatchObject({ __typename: 'RateLimitedError', code: 'RATE_LIMITED' });
  });
});

describeWithServices('Rate limits across instances', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    const env = { ...isolatedEnv('postgres'), ...LIMITS };
    first = await startTestServer({ backend: 'postgres', env, dropSchemaOnStop: false });
    second = await startTestServer({ backend: 'postgres', env });
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  it('two instances on one Redis share a user’s budget', async () => {
    const { token, agentId } = await setUpAgent(first, { project: 'Shared' });
    const answers = [];
    for (let index = 0; index < MUTATIONS + 1; index++) {
      answers.push((await createThread(index % 2 === 0 ? first : second, token, agentId)).__typename);
    }
    expect(answers).toEqual([...Array(MUTATIONS).fill('Thread'), 'RateLimitedError']);
  });
});
