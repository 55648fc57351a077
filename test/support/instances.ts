import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { CLI_FROM_SOURCES } from './cli.ts';
import type { Follower } from './follower.ts';
import { durableSeq } from './run-events.ts';

// Parley instances and redis-servers as child processes, for the suites that run several instances
// or kill one. Every child started here is tracked, so `stopAllChildren()` (call it in afterAll) ends
// whatever a failed test left running, and a process exit kills them as a last resort.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STDERR_LIMIT = 64_000;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Kills (SIGKILL) every child this module started that is still running, and waits for them. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => killAndWait(child, 'SIGKILL')));
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function killAndWait(child: ChildProcess, signal: NodeJS.Signals, escalateAfterMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), escalateAfterMs);
  await done;
  clearTimeout(timer);
}

export interface Instance {
  url: string;
  wsUrl: string;
  port: number;
  process: ChildProcess;
  /** The demo user's token and agent, printed in the embedded mode only (no DATABASE_URL). */
  demoToken: string | null;
  demoAgentId: string | null;
  /** Everything the instance wrote to stderr so far (its logs; the tail when long). */
  stderr(): string;
  /** SIGTERM (graceful stop), waits for the exit; SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL (no shutdown hook runs, no lease is released, nothing is flushed), waits for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawns `parley serve` (from the sources) with `env` (PORT=0 unless given) and resolves once it printed its
 * URL, and in the embedded mode the demo token and agent id too; rejects with its output if it exits
 * first.
 */
export function startInstance(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<Instance> {
  const inherited = { ...process.env };
  // Only what the caller gives decides the database: never a URL inherited from the test run.
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  delete inherited.PARLEY_DATA_DIR;
  const child = spawn(process.execPath, [...CLI_FROM_SOURCES, 'serve'], {
    cwd: ROOT,
    // Suites poll for conditions as fast as they can; the rate-limit suites set their own budgets.
    // The demo model too on PostgreSQL, where it is off by default.
    env: { ...inherited, PORT: '0', PARLEY_LOG_LEVEL: 'warn', PARLEY_QUERIES_PER_MINUTE: '1000000', PARLEY_DEMO: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  const embedded = !env.DATABASE_URL;
  const timeoutMs = options.timeoutMs ?? 90_000;
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > STDERR_LIMIT) stderr = stderr.slice(-STDERR_LIMIT / 2);
  });
  const banner = () => {
    const url = /GraphiQL: (http:\/\/\S+)/.exec(stdout)?.[1];
    const demoToken = /Demo API token: (\S+)/.exec(stdout)?.[1] ?? null;
    const demoAgentId = /Demo agent id:\s+(\S+)/.exec(stdout)?.[1] ?? null;
    return url && (!embedded || (demoToken && demoAgentId)) ? { url, demoToken, demoAgentId } : null;
  };
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`parley serve printed no banner within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(new Error(`parley serve exited early (code ${code}, signal ${signal}); stdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    child.once('exit', onExit);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const printed = banner();
      if (!printed) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      child.off('exit', onExit);
      clearTimeout(timer);
      resolve({
        ...printed,
        wsUrl: printed.url.replace(/^http/, 'ws'),
        port: Number(new URL(printed.url).port),
        process: child,
        stderr: () => stderr,
        stop: () => killAndWait(child, 'SIGTERM'),
        kill: () => killAndWait(child, 'SIGKILL'),
      });
    });
  });
}

/** A free TCP port on loopback (free when asked; bind it soon). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: like a crash; it keeps no data) and waits for its exit. */
  stop(): Promise<void>;
  /** Stops it if it runs, then starts it again on the same port; resolves once it accepts commands. */
  restart(): Promise<void>;
  running(): boolean;
}

/** A redis-server of our own on a free loopback port, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const current = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    track(current);
    child = current;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
      const onData = (chunk: string) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          current.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited early (code ${code}):\n${output}`));
      };
      current.once('exit', onExit);
      current.stdout!.setEncoding('utf8').on('data', onData);
      current.stderr!.setEncoding('utf8').on('data', onData);
    });
    // A port held in TIME_WAIT or raced away would have failed above; make sure it answers.
    await pingRedis(port);
  };
  const stop = async () => {
    if (child) await killAndWait(child, 'SIGKILL');
    child = null;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop();
      await start();
    },
    running: () => child !== null && child.exitCode === null && child.signalCode === null,
  };
}

function pingRedis(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on ${port} did not answer PING`));
    }, 5_000);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.setEncoding('utf8').once('data', (data: string) => {
      clearTimeout(timer);
      socket.end();
      if (data.startsWith('+PONG')) resolve();
      else reject(new Error(`redis on ${port} answered ${data}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// What a follower of an instance's thread received, against the thread's event log.

/**
 * Every durable event of the thread's log after `after` (as `seq type`), and the same as the follower
 * received them, once it has caught up with the log as read now (or after `timeoutMs`). Equal lists
 * mean: every durable event, once, in order.
 */
export async function durableDelivery(
  prisma: PrismaClient,
  follower: Pick<Follower, 'events' | 'waitUntil'>,
  rawThreadId: string,
  after: number,
  timeoutMs = 10_000,
): Promise<{ log: string[]; delivered: string[] }> {
  const rows = await prisma.threadEvent.findMany({
    where: { threadId: rawThreadId, seq: { gt: after } },
    orderBy: { seq: 'asc' },
    select: { seq: true, type: true },
  });
  const last = rows.at(-1)?.seq ?? after;
  // A follower that falls short shows as the difference of the two lists, not as a timeout.
  await follower.waitUntil((events) => events.some((event) => (durableSeq(event) ?? -1) >= last), timeoutMs).catch(() => {});
  return {
    log: rows.map((row) => `${row.seq} ${row.type}`),
    delivered: follower.events
      .filter((event) => {
        const seq = durableSeq(event);
        return seq !== null && seq > after && seq <= last;
      })
      .map((event) => `${event.cursor} ${event.__typename}`),
  };
}
