import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../config.ts';
import { describeError, printLine, type Command } from './command.ts';

export const doctorCommand: Command = {
  name: 'doctor',
  synopsis: 'doctor',
  summary: 'Check the configuration, the database, Redis and each provider; exit 1 if any check fails.',
  flags: {},
  run: async () => {
    const results = await diagnose(process.env);
    printLine(renderTable(results));
    const failed = results.filter((result) => result.status === 'fail').length;
    printLine(failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`);
    return failed === 0 ? 0 : 1;
  },
};

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
}

/** Longest a check over the network may take: an unreachable host must not hang the doctor. */
const CHECK_TIMEOUT_MS = 10_000;
/** Opening the embedded database is local, but slow on a busy machine. */
const EMBEDDED_DATABASE_TIMEOUT_MS = 120_000;

async function diagnose(env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  let config: Config;
  let settings;
  const [{ ConfigError }, { providerSettingsFrom }] = await Promise.all([import('../config.ts'), import('../models/settings.ts')]);
  try {
    config = loadConfig(env);
    settings = providerSettingsFrom(config);
  } catch (error) {
    const detail = error instanceof ConfigError ? error.issues.join('; ') : (error as Error).message;
    return [{ check: 'configuration', status: 'fail', detail }];
  }
  const results: CheckResult[] = [{ check: 'configuration', status: 'pass', detail: describeConfig(config) }];
  const databaseTimeoutMs = config.DATABASE_URL ? CHECK_TIMEOUT_MS : EMBEDDED_DATABASE_TIMEOUT_MS;
  results.push(await bounded('database', () => checkDatabase(config), databaseTimeoutMs));
  results.push(await bounded('redis', () => checkRedis(config)));
  if (results.find((result) => result.check === 'database')?.status === 'pass') results.push(...(await checkToolServers(config)));
  const { providerProbes } = await import('../models/provider-probe.ts');
  const { classify } = await import('../errors/classify.ts');
  const probes = providerProbes(settings);
  if (probes.length === 0) results.push({ check: 'providers', status: 'skip', detail: 'only the built-in demo model is configured' });
  for (const probe of probes) {
    results.push(
      await bounded(`provider ${probe.provider}`, async (signal) => {
        try {
          await probe.check(signal);
          return { status: 'pass', detail: 'the API key was accepted (models listed)' };
        } catch (error) {
          const failure = classify(error, { provider: probe.provider });
          const status = failure.httpStatus === null ? '' : ` (HTTP ${failure.httpStatus})`;
          return { status: 'fail', detail: `${failure.reason}${status}: ${failure.detail}` };
        }
      }),
    );
  }
  return results;
}

function describeConfig(config: Config): string {
  const database = config.DATABASE_URL ? `PostgreSQL at ${safeLocation(config.DATABASE_URL)}` : `embedded database in ${config.PARLEY_DATA_DIR}`;
  const pubsub = config.REDIS_CLUSTER_NODES
    ? `Redis Cluster (seeds ${config.REDIS_CLUSTER_NODES}${config.REDIS_CLUSTER_PASSWORD ? `, signed in as ${config.REDIS_CLUSTER_USERNAME ?? 'default'}` : ''}), sharded pub/sub`
    : config.REDIS_URL
      ? `Redis at ${safeLocation(config.REDIS_URL)}`
      : 'in-process pub/sub';
  return `${database}; ${pubsub}; role ${config.PARLEY_ROLE}`;
}

/** Host, port and path of a URL, never its user or password. */
function safeLocation(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

async function bounded(
  check: string,
  run: (signal: AbortSignal) => Promise<Omit<CheckResult, 'check'>>,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<CheckResult> {
  const timeout = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Omit<CheckResult, 'check'>>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort();
      resolve({ status: 'fail', detail: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([run(timeout.signal), timedOut]);
    return { check, ...result };
  } catch (error) {
    return { check, status: 'fail', detail: describeError(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function checkDatabase(config: Config): Promise<Omit<CheckResult, 'check'>> {
  const [{ openDatabase }, { databaseTarget }, { migrationStatus, readMigrations }, { DataDirInUseError }] = await Promise.all([
    import('../db/database.ts'),
    import('../db/settings.ts'),
    import('../db/migrator.ts'),
    import('../db/embedded-lock.ts'),
  ]);
  let db;
  try {
    db = await openDatabase(databaseTarget(config));
  } catch (error) {
    // The embedded database admits one process: a running server holding it is not a fault.
    if (error instanceof DataDirInUseError) return { status: 'skip', detail: `${error.message} (its /ready probe reports it)` };
    throw error;
  }
  try {
    const status = await db.withConnection(async (connection) => migrationStatus(connection, await readMigrations()));
    if (status.changed.length > 0) {
      return { status: 'fail', detail: `applied migrations changed since: ${status.changed.join(', ')}` };
    }
    if (status.pending.length > 0) {
      return { status: 'fail', detail: `reachable; ${status.pending.length} migration(s) pending (run "parley migrate"): ${status.pending.join(', ')}` };
    }
    return { status: 'pass', detail: `reachable; ${status.applied} migrations applied, none pending` };
  } finally {
    await db.close();
  }
}

/** Each tool server, connected afresh: reachable with its tools listed, or its classified refusal. */
async function checkToolServers(config: Config): Promise<CheckResult[]> {
  const [{ openDatabase }, { databaseTarget }, { AccessPolicy }, { ToolsModule }, { default: pino }] = await Promise.all([
    import('../db/database.ts'),
    import('../db/settings.ts'),
    import('../auth/access.ts'),
    import('../tools/tools-module.ts'),
    import('pino'),
  ]);
  const db = await openDatabase(databaseTarget(config));
  try {
    const module = new ToolsModule(db.prisma, new AccessPolicy(db.prisma, db.sql), config, db.kind === 'pglite', pino({ level: 'silent' }));
    const probed = await bounded('tool servers', async () => ({ status: 'pass', detail: JSON.stringify(await module.servers.probeAll()) }));
    if (probed.status !== 'pass') return [probed];
    const servers = JSON.parse(probed.detail) as Awaited<ReturnType<typeof module.servers.probeAll>>;
    return servers.map(({ name, projectId, state }) => ({
      check: projectId === null ? `tool server ${name} (stdio, declared)` : `tool server ${name} (project ${projectId.slice(0, 8)})`,
      status: state.status === 'CONNECTED' ? 'pass' : 'fail',
      detail: state.status === 'CONNECTED' ? `reachable; ${state.tools.length} tools listed` : (state.lastError ?? state.status),
    }));
  } finally {
    await db.close();
  }
}

async function checkRedis(config: Config): Promise<Omit<CheckResult, 'check'>> {
  if (config.REDIS_CLUSTER_NODES) return checkRedisCluster(config);
  if (!config.REDIS_URL) return { status: 'skip', detail: 'REDIS_URL is not set: in-process pub/sub (one instance)' };
  const { Redis } = await import('ioredis');
  const options = { lazyConnect: true, connectTimeout: CHECK_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null };
  const publisher = new Redis(config.REDIS_URL, options);
  const subscriber = new Redis(config.REDIS_URL, options);
  // ioredis reports why a connection failed only as an event; the command then says "Connection is closed".
  let connectionError: unknown = null;
  const remember = (error: unknown) => {
    connectionError ??= error;
  };
  publisher.on('error', remember);
  subscriber.on('error', remember);
  try {
    await publisher.connect();
    await publisher.ping();
    await subscriber.connect();
    const channel = `doctor:${randomUUID()}`;
    const received = new Promise<void>((resolve) => {
      subscriber.on('message', (from: string) => {
        if (from === channel) resolve();
      });
    });
    await subscriber.subscribe(channel);
    const startedAt = performance.now();
    await publisher.publish(channel, 'ping');
    await received;
    return { status: 'pass', detail: `reachable; pub/sub round trip in ${Math.max(1, Math.round(performance.now() - startedAt))} ms` };
  } catch (error) {
    throw connectionError ?? error;
  } finally {
    publisher.disconnect();
    subscriber.disconnect();
  }
}

/**
 * A Redis Cluster: every node the cluster names answers and says `cluster_state:ok`, and a message
 * SPUBLISHed on a sharded channel comes back on a connection to the master that owns its slot.
 */
async function checkRedisCluster(config: Config): Promise<Omit<CheckResult, 'check'>> {
  const [{ Cluster, Command, Redis }, { clusterState }, { clusterAuthOf, parseClusterNodes }] = await Promise.all([
    import('ioredis'),
    import('../events/redis-cluster-state.ts'),
    import('../events/settings.ts'),
  ]);
  const auth = clusterAuthOf(config);
  const cluster = new Cluster(parseClusterNodes(config.REDIS_CLUSTER_NODES!), {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    redisOptions: { ...auth, connectTimeout: CHECK_TIMEOUT_MS, maxRetriesPerRequest: 0 },
  });
  let connectionError: unknown = null;
  cluster.on('error', (error: unknown) => {
    connectionError ??= error;
  });
  let subscriber: InstanceType<typeof Redis> | null = null;
  try {
    try {
      await cluster.connect();
    } catch (error) {
      // "Failed to refresh slots cache" says nothing; the last node's refusal (WRONGPASS, NOAUTH) does.
      const failure = (connectionError ?? error) as { lastNodeError?: unknown };
      throw failure.lastNodeError ?? failure;
    }
    const { state, nodes: known, reachable } = await clusterState(cluster);
    const masters = cluster.nodes('master').length;
    const summary = `cluster_state:${state}; ${reachable}/${known} nodes reachable, ${masters} masters`;
    if (state !== 'ok' || reachable < known) return { status: 'fail', detail: summary };
    const channel = `doctor:${randomUUID()}`;
    const owner = cluster.slots[new Command('ssubscribe', [channel]).getSlot()!]?.[0];
    if (!owner) return { status: 'fail', detail: `${summary}; no master owns the slot of a test channel` };
    const separator = owner.lastIndexOf(':');
    subscriber = new Redis({ ...auth, host: owner.slice(0, separator), port: Number(owner.slice(separator + 1)), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    subscriber.on('error', () => {});
    await subscriber.connect();
    const received = new Promise<void>((resolve) => {
      subscriber!.on('smessage', (from: string) => {
        if (from === channel) resolve();
      });
    });
    await subscriber.ssubscribe(channel);
    const startedAt = performance.now();
    await cluster.spublish(channel, 'ping');
    await received;
    return { status: 'pass', detail: `${summary}; sharded pub/sub round trip in ${Math.max(1, Math.round(performance.now() - startedAt))} ms` };
  } finally {
    subscriber?.disconnect();
    cluster.disconnect();
  }
}

export function renderTable(results: CheckResult[]): string {
  const checkWidth = Math.max('check'.length, ...results.map((result) => result.check.length));
  const row = (check: string, status: string, detail: string) => `${check.padEnd(checkWidth)}  ${status.padEnd(6)}  ${detail}`;
  return [row('check', 'result', 'detail'), ...results.map((result) => row(result.check, result.status.toUpperCase(), result.detail))].join('\n');
}
