import { parse, print, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.ts';
import { GRAPHIQL_CSRF_HEADER, GRAPHIQL_DEFAULT_QUERY } from '../../src/server/graphiql.ts';
import { GRAPHIQL_CONTENT_SECURITY_POLICY } from '../../src/server/plugins/use-graphiql-csp.ts';
import { send } from '../support/client.ts';
import { RunEventsDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type GraphQLResponse, type TestServer } from '../support/server.ts';

// GraphiQL as the server hands it out, and the requests GraphiQL makes: its page, its first query,
// and a subscription over Server-Sent Events (GraphiQL's subscriptions protocol here) that carries
// the Headers tab as HTTP headers.

interface StartResult {
  viewer: {
    id: string;
    projects: { id: string; agents: { id: string; model: string; threads: { edges: { node: { id: string } }[] } }[] }[];
  };
}

type RunEventPayload = { __typename: string; status?: string; acceptedText?: string };

/**
 * Subscribes as GraphiQL does with the SSE protocol (a GET with `Accept: text/event-stream`) and
 * collects the results until `done` says so or the stream completes.
 */
async function subscribeOverSse(
  server: TestServer,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
  done: (results: GraphQLResponse<{ runEvents: RunEventPayload }>[]) => boolean,
) {
  const url = new URL(server.url);
  url.searchParams.set('query', print(RunEventsDocument));
  url.searchParams.set('variables', JSON.stringify(variables));
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', [GRAPHIQL_CSRF_HEADER]: '1', ...headers }, signal: abort.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const results: GraphQLResponse<{ runEvents: RunEventPayload }>[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return results;
      buffered += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const message = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = message
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice('data:'.length).trim())
          .join('\n');
        if (/^event: next$/m.test(message) && data) results.push(JSON.parse(data));
        if (/^event: complete$/m.test(message)) return results;
      }
      if (done(results)) return results;
    }
  } finally {
    abort.abort();
  }
}

describe('GraphiQL', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ token, agentId } = await setUpAgent(server));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('is one page with everything inlined, no script, stylesheet or icon from another origin, and a policy that lets the browser load none', async () => {
    const response = await fetch(server.url, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    const head = page.slice(0, page.indexOf('<body'));
    expect(head).toMatch(/<link rel="icon" href="data:image\//);
    const referencedUrls = [...head.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    expect(referencedUrls.filter((url) => !url.startsWith('data:'))).toEqual([]);
    expect(page).not.toContain('unpkg.com');
    expect(page).not.toMatch(/<script[^>]*\bsrc=/);
    expect(response.headers.get('content-security-policy')).toBe(GRAPHIQL_CONTENT_SECURITY_POLICY);
  });

  it('opens with a first query that is valid against the schema and shows the viewer, the agent and its threads', async () => {
    expect(validate(schema, parse(GRAPHIQL_DEFAULT_QUERY)).map(String)).toEqual([]);
    const threadId = await newThread(server, token, agentId, 'First chat');
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: GRAPHIQL_DEFAULT_QUERY }),
    });
    const result = (await response.json()) as GraphQLResponse<StartResult>;
    expect(result.errors).toBeUndefined();
    const [agent, ...others] = result.data!.viewer.projects.flatMap((project) => project.agents);
    expect(others).toEqual([]);
    expect(agent!.model).toBe('demo:default');
    expect(agent!.threads.edges.map((edge) => edge.node.id)).toContain(threadId);
  });

  it('runs a subscription over SSE authenticated by the Authorization header, as GraphiQL sends it', async () => {
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, 'hello over SSE');
    const results = await subscribeOverSse(server, { threadId, after: '0' }, { authorization: `Bearer ${token}` }, (seen) =>
      seen.some((result) => result.data?.runEvents.__typename === 'ExecutionFinished'),
    );
    expect(results.flatMap((result) => result.errors ?? [])).toEqual([]);
    const events = results.map((result) => result.data!.runEvents);
    expect(events.find((event) => event.__typename === 'ExecutionStarted')?.acceptedText).toBe('hello over SSE');
    expect(events.find((event) => event.__typename === 'ExecutionFinished')?.status).toBe('COMPLETED');
  });

  it('answers a subscription over SSE without Authorization with UNAUTHENTICATED and no event', async () => {
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, 'not for strangers');
    const results = await subscribeOverSse(server, { threadId, after: '0' }, {}, (seen) => seen.length > 0);
    expect(results.map((result) => result.data?.runEvents).filter(Boolean)).toEqual([]);
    expect(results.flatMap((result) => result.errors ?? []).map((error) => error.extensions?.code)).toContain('UNAUTHENTICATED');
  });
});
