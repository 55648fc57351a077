import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { cancel, execution as executionOf, queue, send } from '../support/client.ts';
import { ResolveSuspensionDocument, SendMessageDocument } from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import { startInstance, stopAllChildren, type Instance } from '../support/instances.ts';
import { checkStream, finishedOf, is, ofKind, replyTexts } from '../support/run-events.ts';
import { newThread as createThread, setUpAgent } from '../support/scenario.ts';
import { describeWithServices } from '../support/backends.ts';
import { dropSchema, eventually, isolatedEnv, requestData } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const BASE_ENV = {
  PARLEY_LEASE_MS: '2000',
  PARLEY_CONSUMER_SWEEP_MS: '100',
  PARLEY_TEXT_FLUSH_MS: '50',
  PARLEY_SHUTDOWN_GRACE_MS: '500',
  PARLEY_MUTATIONS_PER_MINUTE: '100000',
  PARLEY_METRICS: 'true',
};

const SUSPENDED = is('ExecutionUpdated', (event) => event.status === 'SUSPENDED');

it('refuses a split role on the embedded database or without Redis, naming the variable', () => {
  for (const role of ['api', 'worker']) {
    expect(() => loadConfig({ PARLEY_ROLE: role })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_ROLE: role })).toThrow(/PARLEY_ROLE: "\w+" splits turns between instances and needs DATABASE_URL .* and REDIS_URL/);
    expect(() => loadConfig({ PARLEY_ROLE: role, DATABASE_URL: 'postgres://db/x' })).toThrow(/PARLEY_ROLE: .* needs REDIS_URL/);
  }
  expect(() => loadConfig({ PARLEY_ROLE: 'both' })).toThrow(/PARLEY_ROLE: must be api, worker or all/);
  expect(loadConfig({}).PARLEY_ROLE).toBe('all');
  expect(loadConfig({ PARLEY_ROLE: 'worker', DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379' }).PARLEY_ROLE).toBe('worker');
});

describeWithServices('an api instance and a worker on one PostgreSQL and Redis', () => {
  const run = randomUUID().slice(0, 6);
  const ids = { api: `role-api-${run}`, worker: `role-worker-${run}` };
  let env: Record<string, string>;
  let db: Database;
  let token: string;
  let agentId: string;
  let api: Instance;
  let worker: Instance | null = null;
  const followers: Follower[] = [];

  // Each role reaches Redis through a proxy of its own, so a test can read what each one sent there.
  const redisOf: Partial<Record<'api' | 'worker', TcpProxy>> = {};
  const startRole = async (role: 'api' | 'worker') => {
    const redis = new URL(env.REDIS_URL!);
    redisOf[role] = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    return startInstance({ ...env, ...BASE_ENV, REDIS_URL: redisOf[role].url('redis:'), PARLEY_ROLE: role, PARLEY_INSTANCE_ID: ids[role] });
  };
  const newThread = () => createThread(api, token, agentId);
  const followOnApi = (threadId: string) => {
    const follower = follow(api, token, threadId, undefined, { resume: true });
    followers.push(follower);
    return follower;
  };
  const ownerOf = async (executionId: string) => (await executionOf(api, token, executionId)).ownerInstanceId;
  const diagnostics = () => `--- api\n${api?.stderr().slice(-3_000)}\n--- worker\n${worker?.stderr().slice(-3_000) ?? '(not started)'}`;

  beforeAll(async () => {
    env = isolatedEnv('postgres');
    api = await startRole('api');
    db = await openDatabase({ databaseUrl: env.DATABASE_URL });
    ({ token, agentId } = await setUpAgent(db, { project: 'Roles' }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await Promise.all([api, worker].filter((instance) => instance !== null).map((instance) => instance!.stop()));
    await stopAllChildren();
    await Promise.all(Object.values(redisOf).map((proxy) => proxy.close()));
    await db?.close();
    if (env) await dropSchema(env.DATABASE_URL);
  }, 30_000);

  it('with no worker, the api instance accepts and queues a message, which runs on the worker once one starts', async () => {
    const threadId = await newThread();
    const follower = followOnApi(threadId);
    const { queueId } = await send(api, token, threadId, '/tokens 5');
    expect(queueId).toBeTruthy();
    // The api instance holds no lease and claims nothing: the message is still queued when the worker starts.
    expect(await db.prisma.instance.findMany({ select: { id: true } })).toEqual([]);
    expect((await queue(api, token, threadId)).items.map((item) => item.text)).toEqual(['/tokens 5']);
    expect(await db.prisma.execution.count({ where: { threadId: decodeId('threadId', threadId, 'Thread') } })).toBe(0);

    worker = await startRole('worker');
    const started = await follower.waitFor(is('ExecutionStarted'), 20_000);
    const finished = await follower.waitFor(finishedOf(started.executionId!), 20_000);
    expect(finished.status, diagnostics()).toBe('COMPLETED');
    expect(await ownerOf(started.executionId!)).toBe(ids.worker);
    expect(await db.prisma.instance.findMany({ select: { id: true } })).toEqual([{ id: ids.worker }]);
  }, 60_000);

  it('streams a turn sent to the api instance to its subscriber, run by the worker', async () => {
    const threadId = await newThread();
    const follower = followOnApi(threadId);
    await send(api, token, threadId, '/tokens 30 over 1');
    const started = await follower.waitFor(is('ExecutionStarted'));
    const finished = await follower.waitFor(finishedOf(started.executionId!), 20_000);
    expect(finished.status, diagnostics()).toBe('COMPLETED');
    const texts = checkStream(follower.events);
    expect(texts.get(started.executionId!)?.length).toBeGreaterThan(0);
    // Live deltas, not only the recorded reply.
    expect(ofKind(follower.events, 'TextDelta').length).toBeGreaterThan(1);
    expect(await ownerOf(started.executionId!)).toBe(ids.worker);
    // The worker counted the turn; the api instance ran none.
    const [apiMetrics, workerMetrics] = await Promise.all([api, worker!].map(async (instance) => (await fetch(new URL('/metrics', instance.url))).text()));
    expect(turnsCompleted(workerMetrics)).toBeGreaterThanOrEqual(2);
    expect(turnsCompleted(apiMetrics)).toBe(0);
    // Queue kicks reach only the instances that consume: the api instance publishes them, never subscribes.
    expect(redisOf.api!.sent('queue-kick', 'publish')).toBe(1);
    expect(redisOf.api!.sent('queue-kick', 'subscribe')).toBe(0);
    expect(redisOf.worker!.sent('queue-kick', 'subscribe')).toBe(1);
  }, 60_000);

  it('hands an approval answered on the api instance to the worker, which resumes the run', async () => {
    const threadId = await newThread();
    const follower = followOnApi(threadId);
    await send(api, token, threadId, '/approve deploy the release');
    const opened = await follower.waitFor(is('SuspensionOpened'), 20_000);
    await follower.waitFor(SUSPENDED);
    const executionId = opened.executionId!;
    const resolved = (await requestData(api, ResolveSuspensionDocument, { id: opened.suspensionId, decision: 'APPROVE' }, token)).resolveSuspension;
    expect(resolved).toMatchObject({ __typename: 'SuspensionResolved', suspensionId: opened.suspensionId, executionId });
    const finished = await follower.waitFor(finishedOf(executionId), 20_000);
    expect(finished.status, diagnostics()).toBe('COMPLETED');
    expect(replyTexts(follower.events).get(executionId)).toBe('Approved: deploy the release');
    // Resumed by the worker's claim: RUNNING again after the resolution, once, owned by the worker.
    const afterResolution = follower.events.slice(follower.events.findIndex(is('SuspensionResolved')));
    expect(afterResolution.filter(is('ExecutionUpdated', (event) => event.status === 'RUNNING'))).toHaveLength(1);
    expect(await ownerOf(executionId)).toBe(ids.worker);
  }, 60_000);

  it('hands a question answered by a typed message on the api instance to the worker', async () => {
    const threadId = await newThread();
    const follower = followOnApi(threadId);
    await send(api, token, threadId, '/ask favourite day?');
    const opened = await follower.waitFor(is('SuspensionOpened'), 20_000);
    await follower.waitFor(SUSPENDED);
    const answered = (await requestData(api, SendMessageDocument, { threadId, text: 'Tuesday' }, token)).sendMessage;
    expect(answered).toMatchObject({ __typename: 'SuspensionResolved' });
    const finished = await follower.waitFor(finishedOf(opened.executionId!), 20_000);
    expect(finished.status, diagnostics()).toBe('COMPLETED');
    expect(replyTexts(follower.events).get(opened.executionId!)).toBe('You answered: "Tuesday"');
    expect(await ownerOf(opened.executionId!)).toBe(ids.worker);
  }, 60_000);

  it('stops, through a Stop sent to the api instance, the run on the worker', async () => {
    const threadId = await newThread();
    const follower = followOnApi(threadId);
    await send(api, token, threadId, '/slow 30');
    const started = await follower.waitFor(is('ExecutionStarted'), 20_000);
    const executionId = started.executionId!;
    await follower.waitFor(is('TextDelta', executionId));
    expect(await ownerOf(executionId)).toBe(ids.worker);
    expect(await cancel(api, token, executionId)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    // Far sooner than the 30 s run would end.
    const finished = await follower.waitFor(finishedOf(executionId), 5_000);
    expect(finished.status).toBe('CANCELLED');
  }, 60_000);

  it('serves only probes and metrics on the worker, and names each role on /ready', async () => {
    const refused = await fetch(new URL('/graphql', worker!.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: string }).error).toMatch(/PARLEY_ROLE=worker/);
    expect((await fetch(new URL('/', worker!.url))).status).toBe(404);
    expect((await fetch(new URL('/health', worker!.url))).status).toBe(200);
    expect((await fetch(new URL('/metrics', worker!.url))).status).toBe(200);
    const [apiReady, workerReady] = await Promise.all([api, worker!].map(async (instance) => (await fetch(new URL('/ready', instance.url))).json()));
    expect(apiReady).toMatchObject({ status: 'ready', role: 'api' });
    expect(workerReady).toMatchObject({ status: 'ready', role: 'worker' });
  });
});

/** The sum of parley_runs_finished_total{status="COMPLETED"} (any provider) in a metrics page. */
function turnsCompleted(page: string): number {
  return page
    .split('\n')
    .filter((line) => /^parley_runs_finished_total\{[^}]*status="COMPLETED"/.test(line))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}
