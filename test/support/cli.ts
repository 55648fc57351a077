import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Node's arguments for `parley` run from the sources through tsx's ESM loader (as bin/parley.js
 * used to run): suites test the code as it is in the checkout without waiting for a build.
 * `bin/parley.js` (the compiled build) has a suite of its own, test/process/compiled-build.test.ts.
 */
export const CLI_FROM_SOURCES = ['--import', 'tsx/esm', fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url))];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `parley <args>` in a child process, with the services and providers of the test's own
 * environment cleared (the embedded database unless `env` names one).
 */
export function startCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...CLI_FROM_SOURCES, ...args], {
    cwd: REPO_ROOT,
    // The demo model is on (it is off by default with DATABASE_URL) unless `env` says otherwise.
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', PARLEY_PROVIDERS: '', PARLEY_DEMO: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `parley <args>` to its end. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = startCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
