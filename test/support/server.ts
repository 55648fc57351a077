import { randomUUID } from 'node:crypto';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { buildApp, type App } from '../../src/server/app.ts';
import type { Parley, ParleyOverrides } from '../../src/parley.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

export type Backend = 'pglite' | 'postgres';

export interface TestServer {
  app: App;
  parley: Parley;
  url: string;
  wsUrl: string;
  backend: Backend;
  /** The env the server was started with (restart with the same database by passing it again). */
  env: Record<string, string>;
  createUser(options?: { email?: string; locale?: 'en' | 'de' }): Promise<{ userId: string; token: string }>;
  stop(): Promise<void>;
}

/** The logger of servers under test: silent, unless TEST_LOG_LEVEL=error asks to see the cause of an "Unexpected error.". */
export function testLogger(): pino.Logger {
  return pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}

/** A fresh database per server: in-memory PGlite, or a schema of its own on the test PostgreSQL. */
export function isolatedEnv(backend: Backend): Record<string, string> {
  if (backend === 'pglite') return { PARLEY_DATA_DIR: 'memory://' };
  if (!TEST_DATABASE_URL || !TEST_REDIS_URL) throw new Error('the PostgreSQL backend needs TEST_DATABASE_URL and TEST_REDIS_URL');
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('schema', `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`);
  return { DATABASE_URL: url.toString(), REDIS_URL: TEST_REDIS_URL };
}

export async function startTestServer(
  options: {
    backend?: Backend;
    env?: Record<string, string>;
    dropSchemaOnStop?: boolean;
    overrides?: ParleyOverrides;
  } = {},
): Promise<TestServer> {
  const backend = options.backend ?? 'pglite';
  const env: Record<string, string> = {
    PORT: '0',
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_CONSUMER_SWEEP_MS: '200',
    PARLEY_TEXT_FLUSH_MS: '50',
    PARLEY_SHUTDOWN_GRACE_MS: '2000',
    // Suites poll for conditions as fast as they can; the rate-limit suites set their own budgets.
    PARLEY_QUERIES_PER_MINUTE: '1000000',
    // Suites run the demo model on PostgreSQL too, where it is off by default.
    PARLEY_DEMO: 'true',
    ...isolatedEnvOnce(backend, options.env),
    ...options.env,
  };
  const config = loadConfig(env);
  const app = await buildApp(config, { logger: testLogger(), overrides: options.overrides });
  const { url } = await app.start();
  const parley = app.parley;
  return {
    app,
    parley,
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    backend,
    env,
    async createUser({ email, locale } = {}) {
      const { user, token } = await parley.services.directory.createUser({
        email: email ?? `user-${randomUUID().slice(0, 8)}@example.test`,
        locale: locale ?? 'en',
      });
      return { userId: user.id, token };
    },
    async stop() {
      await app.stop();
      if (backend === 'postgres' && options.dropSchemaOnStop !== false) await dropSchema(env.DATABASE_URL!);
    },
  };
}

function isolatedEnvOnce(backend: Backend, given?: Record<string, string>) {
  if (given?.DATABASE_URL || given?.PARLEY_DATA_DIR) return {};
  return isolatedEnv(backend);
}

/** Two instances on one PostgreSQL database and one Redis (an embedded PGlite has one instance). */
export interface InstancePair {
  first: TestServer;
  second: TestServer;
  /** The second first: the first drops the schema they share. */
  stop(): Promise<void>;
}

export async function startInstancePair(env: Record<string, string> = {}): Promise<InstancePair> {
  const first = await startTestServer({ backend: 'postgres', env });
  try {
    const second = await startTestServer({ backend: 'postgres', env: first.env, dropSchemaOnStop: false });
    return {
      first,
      second,
      stop: async () => {
        await second.stop();
        await first.stop();
      },
    };
  } catch (error) {
    await first.stop();
    throw error;
  }
}

export async function dropSchema(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  if (!schema || schema === 'public') return;
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string } }[];
}

/** One GraphQL request over HTTP, as a client would send it. */
export async function request<TResult, TVariables>(
  server: { url: string },
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  token?: string | null,
): Promise<GraphQLResponse<TResult>> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: print(document), variables }),
  });
  return (await response.json()) as GraphQLResponse<TResult>;
}

/** Like `request`, but fails the test on any GraphQL error and returns the data. */
export async function requestData<TResult, TVariables>(
  server: { url: string },
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  token?: string | null,
): Promise<TResult> {
  const result = await request(server, document, variables, token);
  if (result.errors?.length || !result.data) {
    throw new Error(`GraphQL request failed: ${JSON.stringify(result.errors ?? result)}`);
  }
  return result.data;
}

/** Everything the server's database holds that a request could change: equal before and after means it changed nothing. */
export async function databaseState(server: Pick<TestServer, 'parley'>) {
  const prisma = server.parley.db.prisma;
  const byId = { orderBy: { id: 'asc' as const } };
  const [users, apiTokens, memberships, projects, agents, threads, messages, executions, queueItems, events, suspensions, modelPrices, modelCalls, budgets, shareLinks] =
    await Promise.all([
      prisma.user.count(),
      prisma.apiToken.count(),
      prisma.membership.findMany({ orderBy: [{ projectId: 'asc' }, { userId: 'asc' }] }),
      prisma.project.findMany(byId),
      prisma.agent.findMany(byId),
      prisma.thread.findMany(byId),
      prisma.message.count(),
      prisma.execution.count(),
      prisma.queueItem.findMany(byId),
      prisma.threadEvent.count(),
      prisma.suspension.count(),
      prisma.modelPrice.findMany({ orderBy: { modelId: 'asc' } }),
      prisma.modelCall.count(),
      prisma.budget.findMany(byId),
      prisma.shareLink.findMany(byId),
    ]);
  return { users, apiTokens, memberships, projects, agents, threads, messages, executions, queueItems, events, suspensions, modelPrices, modelCalls, budgets, shareLinks };
}

type Falsy = null | undefined | false;

/**
 * Polls until `probe` returns a truthy value, and returns it: for state that settles asynchronously
 * (after a run, in a proxy, on a socket). `what` names it in the timeout's message.
 */
export async function eventually<T>(probe: () => T | Falsy | Promise<T | Falsy>, timeoutMs = 15_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // Deliberate delay: the pause between two looks, the one every condition wait shares.
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
