/**
 * `parley serve` as a child process: `node bin/parley.js serve` (the compiled build), `npm start`
 * (the same, through npm), or `sources` (the TypeScript sources through tsx, as `npm run dev` runs
 * them, without its file watcher). Time to the ready banner, stop by signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface Served {
  child: ChildProcess;
  url: string;
  readyMs: number;
  stop(): Promise<void>;
}

const COMMANDS = {
  'npm-start': ['npm', ['start', '--silent']],
  node: [process.execPath, ['bin/parley.js', 'serve']],
  sources: [process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve']],
} as const;

/** Resident memory of a process (VmRSS), in MB. */
export function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

export function serve(command: keyof typeof COMMANDS, env: Record<string, string>, timeoutMs = 90_000): Promise<Served> {
  const started = performance.now();
  const [file, args] = COMMANDS[command];
  const child = spawn(file, args, {
    cwd: REPO,
    // The rows drive the demo model and read the banner's GraphiQL line, also on PostgreSQL (where both
    // are off by default).
    env: { ...process.env, PORT: '0', PARLEY_LOG_LEVEL: 'silent', PARLEY_DEMO: 'true', PARLEY_GRAPHIQL: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
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
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server not ready after ${timeoutMs} ms: ${err.slice(-500)}`));
    }, timeoutMs);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /Parley is running\.[\s\S]*?GraphiQL:[ \t]+(\S+)\r?\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, readyMs: performance.now() - started, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready: ${err.slice(-500)}`));
    });
  });
}
