/**
 * A Parley instance in a child process for the benchmarks (started by hosts.ts with `fork`).
 * It is the real server (loadConfig → buildApp, as `parley serve` starts it, with the env of
 * hosts.ts SERVER_DEFAULTS) with bench-only instrumentation that lives outside src/:
 *   BENCH_RECORD_EMITS=1  wraps the real runAgent and records when each text-delta leaves the runtime
 *   BENCH_COUNT_SQL=1     counts SQL statements by patching pg.Client.prototype.query
 *   BENCH_NO_CONSUMER=1   stops this instance's queue consumer after start (it claims no runs)
 * and always counts the pub/sub messages this instance publishes and Redis delivers to it (`redisMessages`);
 * `profileStart` / `profileStop` take a CPU profile of the window between them.
 * Commands arrive over the IPC channel: { id, cmd, args } → { id, ok, result | error }.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AgentRunInput } from '../../src/runtime/agent-run-input.ts';
import { closedLoop, FLOOR_TABLE_SQL } from './floor.ts';
import { profileStart, profileStop } from './inspector-profile.ts';
import { EmitLog } from './emit-log.ts';

const serverEnv = JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>;

// ---- SQL statement counter (installed before the server opens its pool) ----
const sql = { total: 0, writes: 0, begins: 0, commits: 0, byTable: {} as Record<string, number>, texts: [] as string[], all: [] as string[] };
if (process.env.BENCH_COUNT_SQL === '1') {
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = (typeof first === 'string' ? first : first?.text ?? '').trim();
    sql.total++;
    if (sql.all.length < 120) sql.all.push(text.replace(/\s+/g, ' ').slice(0, 140));
    const write = /^(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(text);
    // A WITH statement whose parts write is one write statement; its key lists the tables it writes.
    const parts = /^WITH\b/i.test(text)
      ? [...text.matchAll(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi)].map((m) => `${m[1]!.split(/\s+/)[0]!.toUpperCase()} ${m[2]}`)
      : [];
    if (write || parts.length > 0) {
      sql.writes++;
      const key = write ? `${write[1]!.split(/\s+/)[0]!.toUpperCase()} ${write[2]}` : `WITH(${parts.join(', ')})`;
      sql.byTable[key] = (sql.byTable[key] ?? 0) + 1;
      if (sql.texts.length < 200) sql.texts.push(text.slice(0, 160));
    } else if (/^BEGIN\b/i.test(text)) sql.begins++;
    else if (/^COMMIT\b/i.test(text)) sql.commits++;
    return original.apply(this, args);
  };
}

// ---- pub/sub messages this process published to Redis and Redis delivered to it (classic and sharded),
// thread channels apart from the control channels every instance hears (queue kicks, instance messages) ----
const redisMessages = { published: 0, received: 0, controlPublished: 0, controlReceived: 0 };
const isThreadChannel = (channel: unknown) => String(channel).startsWith('thread:');
const emitOfRedis = Redis.prototype.emit;
Redis.prototype.emit = function (this: Redis, event: string | symbol, ...args: unknown[]) {
  if (event === 'message' || event === 'smessage') {
    if (isThreadChannel(args[0])) redisMessages.received++;
    else redisMessages.controlReceived++;
  }
  return emitOfRedis.call(this, event, ...args);
};
const sendCommandOfRedis = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command: Parameters<Redis['sendCommand']>[0], ...rest: unknown[]) {
  if (command.name === 'publish' || command.name === 'spublish') {
    if (isThreadChannel(command.args[0])) redisMessages.published++;
    else redisMessages.controlPublished++;
  }
  return (sendCommandOfRedis as (...args: unknown[]) => unknown).call(this, command, ...rest);
} as Redis['sendCommand'];

// ---- emit recorder: [tag, offset, emittedAtMs] of every text-delta of a tagged run ----
const emits = new EmitLog();
const TAG = /\bTAG(\S+)/;

const { loadConfig } = await import('../../src/config.ts');
const { buildApp } = await import('../../src/server/app.ts');
const { runAgent } = await import('../../src/runtime/agent-runtime.ts');

const recordingRuntime = (input: AgentRunInput) => {
  const lastUser = [...input.messages].reverse().find((message) => message.role === 'user');
  const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
  // A reply whose text cannot carry a tag (`/tokens n over s`) is tagged by its agent's system prompt.
  const tag = TAG.exec(text)?.[1] ?? TAG.exec(input.system)?.[1];
  if (!tag) return runAgent(input);
  let offset = 0;
  return runAgent({
    ...input,
    emit: (event) => {
      // The moment the runtime hands the chunk to the run's recording (which publishes it, then
      // lets the listeners record it): "the chunk left the runtime".
      if (event.type === 'text-delta') {
        emits.record(tag, offset);
        offset += event.text.length;
      }
      return input.emit(event);
    },
  });
};

const config = loadConfig({
  PORT: '0',
  // The demo model runs every reply; without DATABASE_URL the host is embedded, in memory.
  PARLEY_DEMO: 'true',
  ...(serverEnv.DATABASE_URL ? {} : { PARLEY_DATA_DIR: 'memory://' }),
  ...serverEnv,
});
const app = await buildApp(config, { overrides: process.env.BENCH_RECORD_EMITS === '1' ? { runtime: recordingRuntime } : {} });
const { url } = await app.start();
if (process.env.BENCH_NO_CONSUMER === '1') await app.parley.execution.consumer.stop();

const parley = app.parley;
let fixture: { projectId: string; agentId: string } | null = null;

async function ensureFixture() {
  if (fixture) return fixture;
  const project = await parley.services.directory.createProject(null, { name: `bench-${randomUUID().slice(0, 8)}` });
  const agent = await parley.services.directory.createAgent(null, project.id, { name: 'bench agent', model: 'demo:default' });
  fixture = { projectId: project.id, agentId: agent.id };
  return fixture;
}

async function pool<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

/**
 * `count` threads; one new user (member of the bench project) per `threadsPerUser` threads. With
 * `tagPrefix`, each thread gets an agent of its own whose system prompt is `TAG<tagPrefix><index>`
 * (the emit recorder's tag for replies whose text has none); `model` is that agent's model.
 */
async function setupThreads(args: { count: number; threadsPerUser?: number; tagPrefix?: string; model?: string }) {
  const { projectId, agentId: sharedAgentId } = await ensureFixture();
  const perUser = args.threadsPerUser ?? 1;
  const users = await pool(Math.ceil(args.count / perUser), 8, async () => {
    const { user, token } = await parley.services.directory.createUser({ email: `bench-${randomUUID().slice(0, 12)}@example.test` });
    await parley.services.directory.addMember(null, { projectId, user: user.id, role: 'member' });
    return { user, token };
  });
  return pool(args.count, 8, async (index) => {
    const { user, token } = users[Math.floor(index / perUser)]!;
    const tag = args.tagPrefix === undefined ? undefined : `${args.tagPrefix}${index}`;
    const agentId =
      tag === undefined && args.model === undefined
        ? sharedAgentId
        : (await parley.services.directory.createAgent(null, projectId, { name: `bench agent ${tag ?? index}`, model: args.model ?? 'demo:default', systemPrompt: tag ? `TAG${tag}` : '' })).id;
    const thread = await parley.services.directory.createThread(user, { agentId });
    return { threadId: thread.id, token, userId: user.id, tag };
  });
}

/** The raw write floor on this host's own database (used for PGlite, whose one connection lives here). */
async function floorLoop(args: { workers: number; durationMs?: number; count?: number }) {
  await parley.db.withConnection((connection) => connection.exec(FLOOR_TABLE_SQL));
  let n = 0;
  const insert = () =>
    parley.db.withConnection((connection) =>
      connection.exec(`BEGIN; INSERT INTO bench_floor_insert (thread_id, text, position) VALUES ('thread-${n}', 'hello from the benchmark', ${n++}); COMMIT`),
    );
  if (args.count !== undefined) {
    const latencies: number[] = [];
    for (let i = 0; i < args.count; i++) {
      const started = performance.now();
      await insert();
      latencies.push(performance.now() - started);
    }
    return latencies;
  }
  return closedLoop(args.workers, args.durationMs ?? 1_000, insert);
}

const commands: Record<string, (args: never) => unknown> = {
  setupThreads,
  floorLoop,
  /** CPU time of this process so far (user + system), in ms. */
  cpuMs: () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  },
  fixture: () => ensureFixture(),
  redisMessages: () => ({ ...redisMessages }),
  emits: () => emits.take(),
  emitsByTag: () => emits.takeByTag(),
  /** The process's memory, after a full collection when the host runs with --expose-gc. */
  memory: () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage();
  },
  /** A CPU profile of the window between the two (inspector-profile.ts). */
  profileStart,
  profileStop,
  sqlCounts: (args: { reset?: boolean }) => {
    const snapshot = JSON.parse(JSON.stringify(sql));
    if (args?.reset) Object.assign(sql, { total: 0, writes: 0, begins: 0, commits: 0, byTable: {}, texts: [], all: [] });
    return snapshot;
  },
  stop: async () => {
    await app.stop();
    setTimeout(() => process.exit(0), 50);
    return true;
  },
};

const reply = (message: unknown) => {
  if (process.connected) process.send!(message, (error: Error | null) => void error);
};
process.on('message', async (message: { id: number; cmd: string; args: unknown }) => {
  try {
    const result = await commands[message.cmd]!(message.args as never);
    reply({ id: message.id, ok: true, result });
  } catch (error) {
    reply({ id: message.id, ok: false, error: (error as Error).stack ?? String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', url, wsUrl: url.replace(/^http/, 'ws'), instanceId: parley.instanceId, pid: process.pid });
