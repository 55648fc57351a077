import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { AccessPolicy } from '../../src/auth/access.ts';
import { DirectoryService } from '../../src/directory/directory-service.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { ModelRegistry } from '../../src/models/registry.ts';
import { encodeId } from '../../src/schema/ids.ts';
import type { RunEventsSubscription } from '../gql/graphql.ts';
import { RunEventsDocument } from './documents.ts';

// Parley instances and redis-servers as child processes, for the multi-instance suites. Every child
// started here is tracked, so `stopAllChildren()` (call it in afterAll) ends whatever a failed test
// left running, and a process exit kills them as a last resort.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = fileURLToPath(new URL('../../bin/parley.js', import.meta.url));
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
  /** Everything the instance wrote to stderr so far (its logs; the tail when long). */
  stderr(): string;
  /** SIGTERM (graceful stop), waits for the exit; SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL, waits for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawns `node bin/parley.js serve` with `env` on top of this process's environment (PORT=0 unless
 * given) and resolves once it printed its URL; rejects with its stderr if it exits first.
 */
export function startInstance(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<Instance> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', PARLEY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > STDERR_LIMIT) stderr = stderr.slice(-STDERR_LIMIT / 2);
  });
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`parley serve printed no URL within ${options.timeoutMs ?? 90_000} ms; stderr:\n${stderr}`));
    }, options.timeoutMs ?? 90_000);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(new Error(`parley serve exited early (code ${code}, signal ${signal}); stdout:\n${stdout}\nstderr:\n${stderr}`));
    };
    child.once('exit', onExit);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /GraphiQL: (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      child.off('exit', onExit);
      clearTimeout(timer);
      const url = match[1];
      resolve({
        url,
        wsUrl: url.replace(/^http/, 'ws'),
        port: Number(new URL(url).port),
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
// Clients of the instances: seeding through the shared database, following a thread, checking a
// stream the way a strict client would.

export type RunEvent = RunEventsSubscription['runEvents'];

/** A user (with token), a project and a demo agent, created directly in the instances' database. */
export async function seedAgent(prisma: PrismaClient, name = 'Multi'): Promise<{ token: string; agentId: string; userId: string }> {
  const access = new AccessPolicy(prisma);
  const directory = new DirectoryService(prisma, access, new ModelRegistry({ compatible: {} }));
  const { user, token } = await directory.createUser({ email: `multi-${randomUUID().slice(0, 8)}@example.test` });
  const project = await directory.createProject(user, { name });
  const agent = await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default' });
  return { token, agentId: encodeId('Agent', agent.id), userId: user.id };
}

export interface ThreadFollower {
  events: RunEvent[];
  /** How often the subscription ended or failed and was taken up again with `after: lastCursor`. */
  resubscriptions: number;
  /** How often the WebSocket closed while following (not counting our own close). */
  socketClosures: number;
  waitFor(predicate: (event: RunEvent) => boolean, timeoutMs?: number): Promise<RunEvent>;
  close(): Promise<void>;
}

/**
 * Follows a thread's runEvents as a careful client does: when the subscription fails or the socket
 * drops, it subscribes again (a new socket) with `after` = the last cursor it saw.
 */
export function followThread(
  server: { wsUrl: string },
  token: string,
  threadId: string,
  after: string | null,
  options: { maxResubscriptions?: number } = {},
): ThreadFollower {
  const events: RunEvent[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  let closed = false;
  let failure: unknown = null;
  let client: Client;
  let dispose: () => void = () => {};
  const follower: ThreadFollower = {
    events,
    resubscriptions: 0,
    socketClosures: 0,
    waitFor(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            cleanup();
            resolve(found);
          } else if (failure) {
            cleanup();
            reject(failure instanceof Error ? failure : new Error(`subscription failed: ${JSON.stringify(failure)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs} ms; events so far: ${JSON.stringify(events.map(brief))}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async close() {
      closed = true;
      dispose();
      await client.dispose();
    },
  };
  const connect = (from: string | null) => {
    client = createClient({
      url: server.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
      on: {
        closed: () => {
          if (!closed) follower.socketClosures++;
        },
      },
    });
    const current = client;
    let ended = false;
    const resume = (error: unknown) => {
      if (closed || ended) return;
      ended = true;
      void current.dispose();
      if (follower.resubscriptions >= (options.maxResubscriptions ?? 20)) {
        failure = error ?? new Error('subscription completed');
        notify();
        return;
      }
      follower.resubscriptions++;
      // A short pause so that a server which is gone for good is not hammered; not a synchronization.
      setTimeout(() => connect(events.at(-1)?.cursor ?? from), 100);
    };
    dispose = current.subscribe<RunEventsSubscription>(
      { query: print(RunEventsDocument), variables: { threadId, after: from } },
      {
        next: (value) => {
          if (value.errors?.length) {
            failure = value.errors;
            notify();
            return;
          }
          if (value.data) events.push(value.data.runEvents);
          notify();
        },
        error: resume,
        complete: () => resume(null),
      },
    );
  };
  connect(after);
  return follower;
}

export function brief(event: RunEvent): string {
  const status = 'status' in event ? `:${event.status}` : '';
  const offset = event.__typename === 'TextDelta' ? `@${event.offset}+${event.text.length}` : '';
  return `${event.cursor} ${event.__typename}${status}${offset}`;
}

/** Durable events have an integer cursor (their seq); live-only ones `<seq>.<n>`. */
export function durableSeq(event: RunEvent): number | null {
  return /^\d+$/.test(event.cursor) ? Number(event.cursor) : null;
}

/**
 * The checks a strict client applies to a stream: every cursor once; durable seqs strictly
 * increasing; per execution, each delta starts exactly where the text so far ends (no gap, no
 * overlap), and a snapshot only ever extends that text. Returns the reply text per execution.
 * With `textProblems`, gaps and overlaps are collected there instead of thrown.
 */
export function checkStream(events: readonly RunEvent[], textProblems?: string[]): Map<string, string> {
  const cursors = new Set<string>();
  let lastSeq = -1;
  const texts = new Map<string, string>();
  for (const event of events) {
    if (cursors.has(event.cursor)) throw new Error(`cursor ${event.cursor} delivered twice (${brief(event)})`);
    cursors.add(event.cursor);
    const seq = durableSeq(event);
    if (seq !== null) {
      if (seq <= lastSeq) throw new Error(`durable seq ${seq} after ${lastSeq}`);
      lastSeq = seq;
    }
    if (event.__typename === 'MessageSnapshot') {
      const text = event.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
      const have = texts.get(event.executionId!) ?? '';
      if (!text.startsWith(have)) throw new Error(`snapshot of ${event.executionId} "${text}" does not extend "${have}"`);
      texts.set(event.executionId!, text);
    } else if (event.__typename === 'TextDelta') {
      const have = texts.get(event.executionId!) ?? '';
      if (event.offset !== have.length) {
        const problem = `${event.offset > have.length ? 'gap' : 'duplicate'} in ${event.executionId}: have ${have.length} characters, delta at ${event.offset} (cursor ${event.cursor})`;
        if (!textProblems) throw new Error(problem);
        textProblems.push(problem);
        // Go on as a client would that shows the hole: the missing characters as '?'.
        texts.set(event.executionId!, have.slice(0, event.offset).padEnd(event.offset, '?') + event.text);
        continue;
      }
      texts.set(event.executionId!, have + event.text);
    }
  }
  return texts;
}

/**
 * Every durable event of the thread's log after `after` (as `seq type`), and the same as the follower
 * received them, once it has caught up with the log as read now (or after `timeoutMs`). Equal lists
 * mean: every durable event, once, in order.
 */
export async function durableDelivery(
  prisma: PrismaClient,
  follower: { events: RunEvent[] },
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
  const deadline = Date.now() + timeoutMs;
  while (!follower.events.some((event) => (durableSeq(event) ?? -1) >= last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
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

/**
 * A thread runs one execution at a time, so a client following its events must never see an
 * ExecutionStarted before the previous execution's ExecutionFinished. Returns each violation with
 * the events around it (deltas left out).
 */
export function overlappingStarts(events: readonly RunEvent[]): string[] {
  const short = (id: string | null | undefined) =>
    id ? (Buffer.from(id, 'base64').toString('utf8').split(':')[1]?.slice(0, 8) ?? id) : '-';
  const overlaps: string[] = [];
  const active = new Set<string>();
  events.forEach((event, at) => {
    if (event.__typename === 'ExecutionStarted') {
      if (active.size > 0) {
        const around = events
          .slice(Math.max(0, at - 3), at + 5)
          .filter((other) => other.__typename !== 'TextDelta' && other.__typename !== 'ReasoningDelta')
          .map((other) => `${brief(other)}(${short(other.executionId)})`)
          .join(' | ');
        overlaps.push(`${brief(event)} of ${short(event.executionId)} while ${[...active].map(short).join(',')} active: ${around}`);
      }
      active.add(event.executionId!);
    } else if (event.__typename === 'ExecutionFinished') {
      active.delete(event.executionId!);
    }
  });
  return overlaps;
}
