/**
 * LangGraph's JavaScript agent server as a side-by-side peer (row C2). Its packages are installed
 * from the npm registry into bench/.peers/langgraph/ (ignored by git, never in the project's
 * package.json or lock), once: a stamp file records the pinned versions. The graph is a committed
 * file (bench/peers/langgraph-graph.mjs) copied into that folder. The server is `langgraphjs dev`
 * in its own process group; its storage is in memory (the dev server has no other).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PEER_DIR = fileURLToPath(new URL('../.peers/langgraph/', import.meta.url));
const GRAPH_SOURCE = fileURLToPath(new URL('../peers/langgraph-graph.mjs', import.meta.url));

/** The versions checked on this machine (Node 20, offline after the install). */
export const LANGGRAPH_PINS: Record<string, string> = {
  '@langchain/langgraph-cli': '1.5.1',
  '@langchain/langgraph-api': '1.5.1',
  '@langchain/langgraph': '1.7.3',
  '@langchain/core': '1.4.0',
  '@langchain/langgraph-sdk': '1.15.0',
};

/** Installs the pinned packages into PEER_DIR unless the stamp says they are there; writes the graph and langgraph.json. */
export function ensureLangGraph(log: (message: string) => void = () => {}): void {
  mkdirSync(PEER_DIR, { recursive: true });
  const stampPath = join(PEER_DIR, '.installed.json');
  const wanted = JSON.stringify(LANGGRAPH_PINS);
  const stamp = existsSync(stampPath) ? readFileSync(stampPath, 'utf8') : '';
  if (stamp !== wanted || !existsSync(join(PEER_DIR, 'node_modules/.bin/langgraphjs'))) {
    writeFileSync(
      join(PEER_DIR, 'package.json'),
      `${JSON.stringify({ name: 'parley-bench-peer-langgraph', private: true, type: 'module', dependencies: LANGGRAPH_PINS }, null, 2)}\n`,
    );
    log(`installing the LangGraph peer into ${PEER_DIR} (npm registry, once)`);
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: PEER_DIR,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (npm.status !== 0) throw new Error(`npm install of the LangGraph peer failed (${npm.status}): ${(npm.stderr || npm.stdout || '').slice(-1500)}`);
    writeFileSync(stampPath, wanted);
  }
  copyFileSync(GRAPH_SOURCE, join(PEER_DIR, 'graph.mjs'));
  writeFileSync(join(PEER_DIR, 'langgraph.json'), `${JSON.stringify({ node_version: '20', graphs: { agent: './graph.mjs:graph' } }, null, 2)}\n`);
}

/** What the row uses of the peer's SDK (its types live in PEER_DIR, outside the project's type check). */
export interface LangGraphStreamPart {
  id?: string;
  event: string;
  data: unknown;
}
export interface LangGraphClient {
  threads: { create(): Promise<{ thread_id: string }> };
  runs: {
    stream(
      threadId: string,
      assistantId: string,
      payload: {
        input: Record<string, unknown>;
        streamMode: string[];
        streamResumable?: boolean;
        onDisconnect?: 'cancel' | 'continue';
        signal?: AbortSignal;
        onRunCreated?: (run: { run_id: string; thread_id?: string }) => void;
      },
    ): AsyncGenerator<LangGraphStreamPart>;
    joinStream(threadId: string, runId: string, options: { lastEventId?: string; streamMode?: string[]; signal?: AbortSignal }): AsyncGenerator<LangGraphStreamPart>;
  };
}

/** The peer's own SDK, loaded from PEER_DIR (the project does not depend on it). */
export async function loadLangGraphSdk(): Promise<{ Client: new (options: { apiUrl: string }) => LangGraphClient }> {
  const require = createRequire(join(PEER_DIR, 'package.json'));
  return import(pathToFileURL(require.resolve('@langchain/langgraph-sdk')).href);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PeerServer {
  url: string;
  /** The process that serves the API and runs the graphs (the dev server's worker, not the CLI wrapper). */
  pid: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The node processes of the server's process group (the CLI wrapper and the server it spawns). */
function groupPids(groupId: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=,comm=', '-g', String(groupId)], { encoding: 'utf8' }).stdout ?? '';
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm === 'node')
    .map(([pid]) => Number(pid));
}

/** CPU time (user + system) of a process so far, in ms, from /proc/<pid>/stat. */
export function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Resident memory of a process (VmRSS), in KB. */
export function procRssKb(pid: number): number {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/**
 * Starts `langgraphjs dev` on a free loopback port with `jobs` concurrent runs (its `-n`, 10 by
 * default, caps how many runs stream at once) and waits until the API answers.
 */
export async function startLangGraph(jobs: number, timeoutMs = 120_000): Promise<PeerServer> {
  const port = await freePort();
  // The dev server reloads what it wrote at its last stop: each start begins empty.
  rmSync(join(PEER_DIR, '.langgraph_api'), { recursive: true, force: true });
  const child = spawn(
    join(PEER_DIR, 'node_modules/.bin/langgraphjs'),
    ['dev', '--port', String(port), '--host', '127.0.0.1', '--no-browser', '--no-reload', '-n', String(jobs)],
    { cwd: PEER_DIR, env: { ...process.env, LOG_LEVEL: 'error', LANGSMITH_TRACING: 'false', LANGCHAIN_TRACING_V2: 'false', NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`langgraphjs dev exited with ${child.exitCode}: ${output.slice(-1500)}`);
    try {
      const response = await fetch(`${url}/ok`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`langgraphjs dev not ready after ${timeoutMs} ms: ${output.slice(-1500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The server is the group's node process that listens on the port; with one node process, that one.
  const pids = groupPids(child.pid!);
  const listening = pids.find((pid) => {
    const fds = spawnSync('ss', ['-ltnp', `sport = :${port}`], { encoding: 'utf8' }).stdout ?? '';
    return fds.includes(`pid=${pid},`);
  });
  const pid = listening ?? pids.at(-1) ?? child.pid!;
  return { url, pid, child, output: () => output, stop };
}
