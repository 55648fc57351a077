import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { metricsEndpoint } from '../../src/server/yoga.ts';
import { randomUUID } from 'node:crypto';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { send } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { ofKind } from '../support/run-events.ts';
import { sendAndFollow, newThread, setUpAgent } from '../support/scenario.ts';
import { describeWithServices } from '../support/backends.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { ENDED, executionRowsReaching } from '../support/waits.ts';
import { declaredMetrics, valueOf } from './prometheus.ts';

/** A query for a thread that does not exist: NOT_FOUND. */
const NOT_FOUND_QUERY = `query { conversation(threadId: "${encodeId('Thread', randomUUID())}") { eventCursor } }`;

async function scrape(server: { url: string }, token?: string): Promise<Response> {
  return fetch(new URL('/metrics', server.url), token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

async function metricsText(server: { url: string }): Promise<string> {
  const response = await scrape(server);
  expect(response.status).toBe(200);
  return response.text();
}

async function graphql(server: { url: string }, query: string, options: { token?: string; requestId?: string; variables?: object } = {}) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
    },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  return { response, body: (await response.json()) as { data?: unknown; errors?: { extensions?: Record<string, unknown> }[] } };
}

describe('metrics at /metrics (embedded mode)', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    // Two attempts: the demo rate limit (retry-after 7 s) is retried once, then the run fails.
    server = await startTestServer({ env: { PARLEY_RETRY_MAX_ATTEMPTS: '2', PARLEY_RETRY_DEADLINE_S: '60' } });
    ({ token, agentId } = await setUpAgent(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves every Parley metric in the Prometheus text format, without a token', async () => {
    const response = await scrape(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const declared = declaredMetrics(await response.text());
    for (const metric of server.parley.metrics.registry.getMetricsAsArray()) expect(declared).toContain(metric.name);
    expect(declared).toContain('parley_runs_finished_total');
    expect(declared).toContain('parley_process_cpu_seconds_total');
  });

  it('a run failing with /fail rate_limit moves the retry and failure counters with their labels', async () => {
    const before = await metricsText(server);
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, '/fail rate_limit');
    expect(ofKind(events, 'RetryScheduled')).toHaveLength(1);
    expect(ofKind(events, 'ExecutionFinished')[0]!.status).toBe('FAILED');

    const after = await metricsText(server);
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('parley_run_retries_total', { reason: 'RATE_LIMIT', provider: 'demo' })).toBe(1);
    expect(moved('parley_run_failures_total', { reason: 'RATE_LIMIT', provider: 'demo' })).toBe(1);
    expect(moved('parley_runs_finished_total', { status: 'FAILED', provider: 'demo' })).toBe(1);
    expect(moved('parley_runs_started_total', { provider: 'demo' })).toBe(1);
    expect(moved('parley_run_duration_seconds_count', { status: 'FAILED' })).toBe(1);
    expect(moved('parley_run_queue_wait_seconds_count', {})).toBe(1);
    expect(moved('parley_graphql_operations_total', { type: 'mutation', operation: 'sendMessage' })).toBe(1);
    // No label carries an id: the thread's id appears nowhere in the exposition.
    expect(after).not.toContain(threadId);
  });

  it('a streamed reply counts its tokens, its published and delivered events and their lag', async () => {
    const threadId = await newThread(server, token, agentId);
    // A finished first turn gives the subscription something to answer. Once it has answered it is
    // live: every chunk of the reply below reaches it as a live delta, none inside a snapshot.
    await sendAndFollow(server, token, threadId, 'first');
    const follower = follow(server, token, threadId);
    let deltas = 0;
    let before = '';
    try {
      await follower.ready();
      before = await metricsText(server);
      // Paced wider than PARLEY_DELTA_WINDOW_MS, so chunks are live events of their own, unless a
      // loaded machine lets two fall due within one window (they go out joined, as one).
      await send(server, token, threadId, '/tokens 5 over 1');
      const events = await follower.waitUntil((received) => ofKind(received, 'ExecutionFinished').length === 2);
      deltas = ofKind(events, 'TextDelta').length;
    } finally {
      await follower.close();
    }
    const after = await metricsText(server);
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('parley_runs_finished_total', { status: 'COMPLETED' })).toBe(1);
    expect(moved('parley_model_tokens_total', { provider: 'demo', model: 'default', direction: 'output' })).toBeGreaterThan(0);
    // The one subscriber received every live event the run published: the deltas.
    expect(deltas).toBeGreaterThanOrEqual(2);
    expect(moved('parley_events_published_total', { kind: 'live' })).toBe(deltas);
    expect(moved('parley_events_published_total', { kind: 'durable' })).toBeGreaterThanOrEqual(3);
    expect(moved('parley_events_delivered_total', { kind: 'live' })).toBe(deltas);
    expect(moved('parley_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(deltas);
    expect(valueOf(after, 'parley_redis_connected')).toBe(1);
    expect(valueOf(after, 'parley_instance_leases_held')).toBe(1);
  });

  it('the queue gauges read the pending messages of every thread', async () => {
    const { parley } = server;
    const gauges = async () => {
      // The reader keeps its answer a few seconds; a fresh one reads the database now.
      const text = await parley.metrics.registry.metrics();
      return { pending: valueOf(text, 'parley_queue_pending_items'), age: valueOf(text, 'parley_queue_oldest_pending_age_seconds') };
    };
    expect((await gauges()).pending).toBe(0);
    await parley.execution.consumer.stop();
    try {
      const threadId = await newThread(server, token, agentId);
      await graphql(server, 'mutation($t: ID!) { sendMessage(threadId: $t, text: "waits") { __typename } }', {
        token,
        variables: { t: threadId },
      });
      const { QueueStateReader } = await import('../../src/observability/queue-state.ts');
      const fresh = await new QueueStateReader(parley.db.prisma, parley.logger, 0).read();
      expect(fresh.pending).toBe(1);
      expect(fresh.oldestPendingAt).not.toBeNull();
    } finally {
      parley.execution.consumer.start();
    }
  });

  it('an execution whose instance died is swept: counted as swept, finished INTERRUPTED and failed', async () => {
    const before = await metricsText(server);
    const threadId = await newThread(server, token, agentId);
    const { prisma } = server.parley.db;
    const thread = await prisma.thread.findUniqueOrThrow({ where: { id: decodeId('threadId', threadId, 'Thread') } });
    const orphan = await prisma.execution.create({
      data: {
        threadId: thread.id,
        agentId: thread.agentId,
        userId: thread.ownerId,
        acceptedText: 'left behind',
        status: 'RUNNING',
        ownerInstanceId: 'an-instance-that-died',
        startedAt: new Date(),
      },
    });
    const [swept] = await executionRowsReaching(prisma, thread.id, ENDED, { timeoutMs: 15_000 });
    expect(swept).toMatchObject({ id: orphan.id, status: 'INTERRUPTED' });
    const after = await metricsText(server);
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('parley_interrupted_executions_swept_total')).toBe(1);
    expect(moved('parley_runs_finished_total', { status: 'INTERRUPTED', provider: 'demo' })).toBe(1);
    expect(moved('parley_run_failures_total', { reason: 'APPLICATION_ERROR', provider: 'demo' })).toBe(1);
  });

  it('a WebSocket subscription raises the subscription gauge and lowers it when closed', async () => {
    const threadId = await newThread(server, token, agentId);
    const gauge = async () => valueOf(await metricsText(server), 'parley_subscriptions_active', { transport: 'websocket' });
    const start = await gauge();
    const follower = follow(server, token, threadId);
    await eventually(async () => (await gauge()) === start + 1, 15_000, 'the gauge to count the subscription');
    await follower.close();
    await eventually(async () => (await gauge()) === start, 15_000, 'the gauge to drop the closed subscription');
  });

  it('an SSE subscription does the same under transport="sse"', async () => {
    const threadId = await newThread(server, token, agentId);
    const gauge = async () => valueOf(await metricsText(server), 'parley_subscriptions_active', { transport: 'sse' });
    const start = await gauge();
    const aborted = new AbortController();
    const url = new URL(server.url);
    url.searchParams.set('query', `subscription { runEvents(threadId: "${threadId}") { cursor } }`);
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
      signal: aborted.signal,
    });
    expect(response.status).toBe(200);
    await eventually(async () => (await gauge()) === start + 1, 15_000, 'the gauge to count the SSE subscription');
    aborted.abort();
    await response.body?.cancel().catch(() => {});
    await eventually(async () => (await gauge()) === start, 15_000, 'the gauge to drop the SSE subscription');
  });

  it('GraphQL errors are counted by the code the client got', async () => {
    const before = await metricsText(server);
    const { body } = await graphql(server, NOT_FOUND_QUERY, { token });
    expect(body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    await graphql(server, 'query { nope }', { token });
    const after = await metricsText(server);
    const moved = (labels: Record<string, string>) =>
      valueOf(after, 'parley_graphql_errors_total', labels) - valueOf(before, 'parley_graphql_errors_total', labels);
    expect(moved({ type: 'query', operation: 'conversation', code: 'NOT_FOUND' })).toBe(1);
    expect(moved({ code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
  });
});

describe('request ids', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ token } = await setUpAgent(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('an x-request-id sent comes back in the header and in every error’s extensions', async () => {
    const { response, body } = await graphql(server, NOT_FOUND_QUERY, {
      token,
      requestId: 'client-req-42',
    });
    expect(response.headers.get('x-request-id')).toBe('client-req-42');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', requestId: 'client-req-42' });

    // Errors raised before execution (validation) carry it too.
    const invalid = await graphql(server, 'query { nope }', { requestId: 'client-req-43' });
    expect(invalid.body.errors?.[0]?.extensions?.requestId).toBe('client-req-43');
  });

  it('without one (or with an unusable one) the server makes one up and returns it', async () => {
    const first = await graphql(server, 'query { nope }');
    const id = first.response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.errors?.[0]?.extensions?.requestId).toBe(id);
    const second = await graphql(server, 'query { nope }', { requestId: 'bad id with spaces and "quotes"' });
    expect(second.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.response.headers.get('x-request-id')).not.toBe(id);
  });

  it('each WebSocket operation gets its own id, or the one in its extensions', async () => {
    const client = createClient({
      url: server.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    const run = (query: string, extensions?: Record<string, unknown>) =>
      new Promise<{ errors?: { extensions?: Record<string, unknown> }[] }>((resolve, reject) => {
        let result: { errors?: { extensions?: Record<string, unknown> }[] } = {};
        client.subscribe({ query, extensions }, {
          next: (value) => {
            result = value as typeof result;
          },
          error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)),
          complete: () => resolve(result),
        });
      });
    try {
      const [a, b] = await Promise.all([run(NOT_FOUND_QUERY), run(NOT_FOUND_QUERY)]);
      const idA = a.errors?.[0]?.extensions?.requestId;
      const idB = b.errors?.[0]?.extensions?.requestId;
      expect(idA).toMatch(/^[0-9a-f-]{36}$/);
      expect(idB).toMatch(/^[0-9a-f-]{36}$/);
      expect(idA).not.toBe(idB);
      const named = await run(NOT_FOUND_QUERY, { requestId: 'ws-op-7' });
      expect(named.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', requestId: 'ws-op-7' });
      const invalid = await run('query { nope }', { requestId: 'ws-op-8' });
      expect(invalid.errors?.[0]?.extensions?.requestId).toBe('ws-op-8');
    } finally {
      await client.dispose();
    }
  });
});

describe('protecting /metrics', () => {
  it('with PARLEY_METRICS_TOKEN a scrape needs the bearer token', async () => {
    const secret = 'metrics-secret-0123456789';
    const server = await startTestServer({ env: { PARLEY_METRICS_TOKEN: secret } });
    try {
      const anonymous = await scrape(server);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await scrape(server, 'metrics-secret-wrong-value')).status).toBe(401);
      const allowed = await scrape(server, secret);
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('parley_runs_started_total');
    } finally {
      await server.stop();
    }
  });

  it('PARLEY_METRICS=false turns it off', async () => {
    const server = await startTestServer({ env: { PARLEY_METRICS: 'false' } });
    try {
      expect((await scrape(server)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('with PostgreSQL it is served only with a token or an explicit PARLEY_METRICS=true', () => {
    const postgres = { DATABASE_URL: 'postgresql://parley@db:5432/parley' };
    expect(metricsEndpoint(loadConfig({}))).toEqual({ enabled: true, token: null });
    expect(metricsEndpoint(loadConfig(postgres))).toEqual({ enabled: false, token: null });
    expect(metricsEndpoint(loadConfig({ ...postgres, PARLEY_METRICS_TOKEN: 'a-token-of-16-chars' }))).toEqual({
      enabled: true,
      token: 'a-token-of-16-chars',
    });
    expect(metricsEndpoint(loadConfig({ ...postgres, PARLEY_METRICS: 'true' }))).toEqual({ enabled: true, token: null });
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(/PARLEY_METRICS_TOKEN/);
  });
});

describeWithServices('metrics on PostgreSQL and Redis', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend: 'postgres', env: { PARLEY_METRICS_TOKEN: 'postgres-metrics-token' } });
    ({ token, agentId } = await setUpAgent(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reads the pool, Redis, the leases and the queue from the live services', async () => {
    const { parley } = server;
    await parley.execution.consumer.stop();
    try {
      const threadId = await newThread(server, token, agentId);
      await send(server, token, threadId, 'waits in the queue');
      const { QueueStateReader } = await import('../../src/observability/queue-state.ts');
      const fresh = await new QueueStateReader(parley.db.prisma, parley.logger, 0).read();
      expect(fresh).toMatchObject({ pending: 1, steeringReservations: 0, liveLeases: 1 });
      // Stored in UTC without a zone: the age is small whatever the session's time zone.
      const ageS = (Date.now() - fresh.oldestPendingAt!.getTime()) / 1000;
      expect(ageS).toBeGreaterThanOrEqual(-1);
      expect(ageS).toBeLessThan(60);
    } finally {
      parley.execution.consumer.start();
    }
    const text = await (await scrape(server, 'postgres-metrics-token')).text();
    expect(valueOf(text, 'parley_redis_connected')).toBe(1);
    expect(valueOf(text, 'parley_instance_leases_held')).toBe(1);
    expect(text).toMatch(/^parley_db_pool_connections_in_use \d+$/m);
    expect(text).toMatch(/^parley_db_pool_waiting_requests 0$/m);
  });
});

describeWithServices('the Redis gauges through an outage', () => {
  it('parley_redis_connected drops to 0 while Redis is unreachable; the reconnect is counted', { timeout: 60_000 }, async () => {
    const redis = new URL(process.env.TEST_REDIS_URL!);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const server = await startTestServer({ backend: 'postgres', env: { REDIS_URL: proxy.url('redis:'), PARLEY_METRICS: 'true' } });
    try {
      const gauges = async () => {
        const text = await metricsText(server);
        return { connected: valueOf(text, 'parley_redis_connected'), reconnects: valueOf(text, 'parley_redis_reconnects_total') };
      };
      await eventually(async () => (await gauges()).connected === 1, 15_000, 'Redis to be connected');
      proxy.refuse();
      proxy.cut();
      await eventually(async () => (await gauges()).connected === 0, 15_000, 'the gauge to see the outage');
      proxy.accept();
      const back = await eventually(async () => {
        const now = await gauges();
        return now.connected === 1 && now;
      }, 30_000, 'the gauge to see Redis back');
      expect(back.reconnects).toBe(1);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});
