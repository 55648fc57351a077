import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `parley serve` as a child process, for the suites that kill a server the hard way.

const BIN = fileURLToPath(new URL('../../bin/parley.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  /** Printed in the embedded mode only. */
  demoToken: string | null;
  demoAgentId: string | null;
  stdout(): string;
  stderr(): string;
  /** SIGKILL: no shutdown hook runs, no lease is released, nothing is flushed. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL if it does not exit in time. */
  stop(): Promise<void>;
}

/** Starts `node bin/parley.js serve` and resolves once it has printed its banner. */
export async function startServeProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServeProcess> {
  const base = { ...process.env };
  // Only what the caller gives decides the database: never a URL inherited from the test run.
  delete base.DATABASE_URL;
  delete base.REDIS_URL;
  delete base.PARLEY_DATA_DIR;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: { ...base, PORT: '0', HOST: '127.0.0.1', PARLEY_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const embedded = !env.DATABASE_URL;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`parley serve did not start in ${timeoutMs} ms: ${out} ${err}`)), timeoutMs);
    const ready = () =>
      /GraphiQL: \S+/.test(out) && (!embedded || (/Demo API token: \S+/.test(out) && /Demo agent id:\s+\S+/.test(out)));
    const check = () => {
      if (ready()) finish();
    };
    const onExit = () => finish(new Error(`parley serve exited early (${child.exitCode}): ${out} ${err}`));
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    child.stdout!.on('data', check);
    child.once('exit', onExit);
    check();
  }).catch(async (error) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });

  const url = /GraphiQL: (\S+)/.exec(out)![1]!;
  return {
    child,
    url,
    wsUrl: url.replace(/^http/, 'ws'),
    demoToken: /Demo API token: (\S+)/.exec(out)?.[1] ?? null,
    demoAgentId: /Demo agent id:\s+(\S+)/.exec(out)?.[1] ?? null,
    stdout: () => out,
    stderr: () => err,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
