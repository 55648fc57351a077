import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { firstSubscriptionAnswer } from '../support/schema-operations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// What a server tells a stranger about itself: the embedded defaults (developer experience) and
// the production profile docs/security.md sets.

const APP_ORIGIN = 'https://app.example.com';
const OTHER_ORIGIN = 'https://evil.example';

interface Answer {
  status: number;
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function post(server: TestServer, query: string, variables?: Record<string, unknown>, token?: string): Promise<Answer> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) };
}

function getGraphiQL(server: TestServer) {
  return fetch(server.url, { headers: { accept: 'text/html' } });
}

function fromOrigin(server: TestServer, origin: string, method: 'POST' | 'OPTIONS' = 'POST') {
  return fetch(server.url, {
    method,
    headers:
      method === 'OPTIONS'
        ? { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' }
        : { origin, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify({ query: '{ __typename }' }) : undefined,
  });
}

/** Field, argument, type and enum-value names a client got wrong, over validation and variable coercion. */
const misspelt: [string, string, Record<string, unknown>?][] = [
  ['a field', '{ viewe { id } }'],
  ['a nested field', '{ viewer { idd } }'],
  ['an argument', '{ agent(idd: "x") { id } }'],
  ['a type', 'query($x: Strin) { viewer { id } }'],
  ['an enum literal', 'mutation { addProjectMember(projectId: "x", user: "y", role: ADMINN) { __typename } }'],
  [
    'an enum variable',
    'mutation($role: ProjectRole!) { addProjectMember(projectId: "x", user: "y", role: $role) { __typename } }',
    { role: 'ADMINN' },
  ],
  [
    'an input field in a variable',
    'mutation($limits: AgentLimitsInput) { createAgent(projectId: "x", name: "n", model: "demo:default", limits: $limits) { __typename } }',
    { limits: { dailyTokenBudgett: 3 } },
  ],
];

describe('embedded defaults: the developer experience of today, without credentialed CORS', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers introspection and serves GraphiQL', async () => {
    const answer = await post(server, getIntrospectionQuery());
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toHaveProperty('__schema.queryType.name', 'Query');
    const page = await getGraphiQL(server);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('GraphiQL');
  });

  it('suggests names to a client that misspelt one', async () => {
    const answer = await post(server, '{ viewe { id } }');
    expect(answer.errors![0]!.message).toContain('Did you mean "viewer"');
  });

  it('lets any origin call the API with `*`, never echoing the origin (`null` included), never with credentials', async () => {
    for (const method of ['POST', 'OPTIONS'] as const) {
      for (const origin of [OTHER_ORIGIN, 'null']) {
        const response = await fromOrigin(server, origin, method);
        expect(response.headers.get('access-control-allow-origin'), `${method} from ${origin}`).toBe('*');
        expect(response.headers.get('access-control-allow-credentials'), method).toBeNull();
        expect(response.headers.get('vary') ?? '', method).not.toMatch(/\borigin\b/i);
      }
    }
  });
});

describe('production profile: PARLEY_INTROSPECTION=false, PARLEY_GRAPHIQL=false, PARLEY_CORS_ORIGINS', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: { PARLEY_INTROSPECTION: 'false', PARLEY_GRAPHIQL: 'false', PARLEY_CORS_ORIGINS: `${APP_ORIGIN}, https://admin.example.com` },
    });
    ({ token } = await server.createUser());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ["GraphiQL's introspection query", getIntrospectionQuery()],
    ['__schema', '{ __schema { types { name } } }'],
    ['__type', '{ __type(name: "User") { fields { name } } }'],
    ['__type inside a fragment', '{ ...T } fragment T on Query { __type(name: "Agent") { name } }'],
  ])('refuses %s, with a token or without', async (_name, query) => {
    for (const caller of [undefined, token]) {
      const answer = await post(server, query, undefined, caller);
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors!.length).toBeGreaterThan(0);
      expect(answer.errors!.every((error) => error.message.includes('introspection has been disabled'))).toBe(true);
    }
  });

  it('refuses introspection over WebSocket too', async () => {
    const answer = await firstSubscriptionAnswer(server, '{ __schema { queryType { name } } }', undefined, token);
    expect(answer.kind, `expected a refusal, got ${JSON.stringify(answer)}`).toBe('error');
    expect(answer.errors![0]!.message).toContain('introspection has been disabled');
  });

  it('still answers __typename, which names only what the client asked for', async () => {
    expect(await post(server, '{ __typename viewer { __typename } }', undefined, token)).toMatchObject({
      status: 200,
      data: { __typename: 'Query', viewer: { __typename: 'User' } },
    });
  });

  it.each(misspelt)('never suggests a name for %s', async (_what, query, variables) => {
    const answer = await post(server, query, variables, token);
    expect(answer.errors?.length, JSON.stringify(answer)).toBeGreaterThan(0);
    for (const error of answer.errors!) {
      expect(error.message).not.toMatch(/did you mean/i);
      expect(error.message).not.toMatch(/"(viewer|ADMIN|String|dailyTokenBudget)"/);
    }
  });

  it('does not serve GraphiQL', async () => {
    const page = await getGraphiQL(server);
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
    expect(await page.text()).not.toMatch(/graphiql|<html/i);
  });

  it('allows only the listed origins, never with credentials', async () => {
    for (const method of ['POST', 'OPTIONS'] as const) {
      const listed = await fromOrigin(server, APP_ORIGIN, method);
      expect(listed.headers.get('access-control-allow-origin'), method).toBe(APP_ORIGIN);
      expect(listed.headers.get('access-control-allow-credentials'), method).toBeNull();

      for (const origin of [OTHER_ORIGIN, 'null', `${APP_ORIGIN}.evil.example`]) {
        const other = await fromOrigin(server, origin, method);
        expect(other.headers.get('access-control-allow-origin'), `${method} from ${origin}`).toBeNull();
        expect(other.headers.get('access-control-allow-credentials'), `${method} from ${origin}`).toBeNull();
      }
    }
  });
});

describe('the settings, parsed at start', () => {
  it('reads true/false and a list of origins, and names the variable of a bad value', () => {
    expect(loadConfig({})).toMatchObject({ PARLEY_INTROSPECTION: true, PARLEY_CORS_ORIGINS: '*' });
    expect(loadConfig({ PARLEY_INTROSPECTION: 'false', PARLEY_GRAPHIQL: 'false', PARLEY_CORS_ORIGINS: `${APP_ORIGIN},http://localhost:5173` })).toMatchObject({
      PARLEY_INTROSPECTION: false,
      PARLEY_GRAPHIQL: false,
      PARLEY_CORS_ORIGINS: [APP_ORIGIN, 'http://localhost:5173'],
    });
    for (const [name, value] of [
      ['PARLEY_INTROSPECTION', 'yes'],
      ['PARLEY_GRAPHIQL', '0'],
      ['PARLEY_CORS_ORIGINS', 'app.example.com'],
      ['PARLEY_CORS_ORIGINS', `${APP_ORIGIN}/path`],
      ['PARLEY_CORS_ORIGINS', ','],
    ]) {
      expect(() => loadConfig({ [name!]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name!]: value })).toThrow(name);
    }
  });
});
