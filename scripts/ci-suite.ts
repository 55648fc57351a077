// CI's test runner (`.ci/run` calls it; `npm test` never does, so a local run never retries).
//
//   tsx scripts/ci-suite.ts run <phase> [--services-only]   the suite once; a failed file again, alone
//   tsx scripts/ci-suite.ts summary                          phases, ten slowest files, FLAKY; red past 3 flaky
//
// A test file that fails is run again once, by itself. Passing then, it is flaky: the phase stays
// green and the summary lists it under FLAKY with its first failure. Failing again, the phase is red.
// More than MAX_FLAKY_FILES flaky files in one CI run is red: that many is not noise.
// `--services-only` runs only the files with PostgreSQL + Redis suites, and in them only those
// suites (TEST_ONLY_SERVICES=1): for a phase whose PGlite variants another phase of the same Node
// line already ran.
// State is kept as JSON lines in CI_STATE_DIR (set by `.ci/run`, which appends its own steps'
// times to phases.jsonl) so the summary sees every phase.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export const MAX_FLAKY_FILES = 3;
const ROOT = path.resolve(import.meta.dirname, '..');
const SERVICE_SUITE = /\bdescribe(EachBackend|WithServices)\(/;

interface VitestJson {
  success: boolean;
  testResults: {
    name: string;
    status: string;
    message?: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}
interface FileTime {
  phase: string;
  file: string;
  seconds: number;
}
interface Flaky {
  phase: string;
  file: string;
  firstFailure: string;
}
interface PhaseTime {
  phase: string;
  seconds: number;
  ok: boolean;
}

function stateDir(): string {
  const dir = process.env.CI_STATE_DIR;
  if (!dir) throw new Error('CI_STATE_DIR is not set (.ci/run sets it)');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function record(kind: 'files' | 'flaky' | 'phases', entry: FileTime | Flaky | PhaseTime): void {
  appendFileSync(path.join(stateDir(), `${kind}.jsonl`), `${JSON.stringify(entry)}\n`);
}

function readRecords<T>(kind: 'files' | 'flaky' | 'phases'): T[] {
  const file = path.join(stateDir(), `${kind}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

const relative = (file: string) => path.relative(ROOT, file);

/** Runs vitest on `files` (all of them when empty); the JSON report, or null when vitest wrote none. */
function vitest(files: string[], env: NodeJS.ProcessEnv, report: string): { exitCode: number; json: VitestJson | null } {
  rmSync(report, { force: true });
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...files];
  const result = spawnSync('npx', args, { cwd: ROOT, env, stdio: 'inherit' });
  const json = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as VitestJson) : null;
  return { exitCode: result.status ?? 1, json };
}

/** The first failure of a file: the test's name and the first line of its assertion's message. */
function firstFailure(result: VitestJson['testResults'][number]): string {
  const failed = result.assertionResults.find((test) => test.status === 'failed');
  const message = failed?.failureMessages[0] ?? result.message ?? 'failed without a message';
  const firstLine = message.split('\n').find((line) => line.trim() !== '') ?? message;
  return `${failed?.fullName ?? '(the file itself)'}: ${firstLine.trim().slice(0, 400)}`;
}

function serviceSuiteFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'generated') walk(full);
      else if (entry.name.endsWith('.test.ts') && SERVICE_SUITE.test(readFileSync(full, 'utf8'))) found.push(relative(full));
    }
  };
  walk(path.join(ROOT, 'test'));
  walk(path.join(ROOT, 'src'));
  return found.sort();
}

function runPhase(phase: string, servicesOnly: boolean): boolean {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, ...(servicesOnly ? { TEST_ONLY_SERVICES: '1' } : {}) };
  const files = servicesOnly ? serviceSuiteFiles() : [];
  const slug = phase.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  const { exitCode, json } = vitest(files, env, path.join(stateDir(), `${slug}.json`));
  let ok = exitCode === 0;
  for (const result of json?.testResults ?? []) {
    record('files', { phase, file: relative(result.name), seconds: (result.endTime - result.startTime) / 1000 });
  }
  const failed = (json?.testResults ?? []).filter((result) => result.status === 'failed');
  if (exitCode !== 0 && failed.length === 0) {
    // An unhandled error, a crashed worker or a broken config: nothing names a file to run again.
    console.error(`\n[ci] ${phase}: vitest exited ${exitCode} with no failed test file to run again: red.`);
  }
  if (failed.length > 0) {
    ok = true;
    for (const result of failed) {
      const file = relative(result.name);
      const first = firstFailure(result);
      console.error(`\n[ci] ${phase}: ${file} failed (${first}); running it again, alone.`);
      const again = vitest([file], env, path.join(stateDir(), `${slug}-again.json`));
      if (again.exitCode === 0) {
        record('flaky', { phase, file, firstFailure: first });
        console.error(`[ci] ${phase}: ${file} passed when run again: flaky.`);
      } else {
        console.error(`[ci] ${phase}: ${file} failed again: red.`);
        ok = false;
      }
    }
  }
  record('phases', { phase: `${phase} (tests)`, seconds: (Date.now() - started) / 1000, ok });
  return ok;
}

function minutes(seconds: number): string {
  return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

/** Prints what the run took and what was flaky; false when the flaky files are too many. */
function summary(): boolean {
  const phases = readRecords<PhaseTime>('phases');
  const files = readRecords<FileTime>('files');
  const flaky = readRecords<Flaky>('flaky');
  console.log('\n== CI summary');
  console.log('Phases:');
  for (const phase of phases) console.log(`  ${minutes(phase.seconds).padStart(8)}  ${phase.phase}${phase.ok ? '' : '  (red)'}`);
  console.log(`  ${minutes(phases.reduce((sum, phase) => sum + phase.seconds, 0)).padStart(8)}  in all`);
  console.log('Ten slowest test files:');
  for (const file of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.file}  (${file.phase})`);
  }
  if (flaky.length === 0) {
    console.log('FLAKY: none');
    return true;
  }
  console.log(`FLAKY: ${flaky.length} file(s), each failed once and passed when run again alone:`);
  for (const entry of flaky) console.log(`  ${entry.file} (${entry.phase})\n    first failure: ${entry.firstFailure}`);
  if (flaky.length > MAX_FLAKY_FILES) {
    console.log(`More than ${MAX_FLAKY_FILES} flaky files in one run: red.`);
    return false;
  }
  return true;
}

const [verb, name, ...rest] = process.argv.slice(2);
if (verb === 'run' && name) process.exitCode = runPhase(name, rest.includes('--services-only')) ? 0 : 1;
else if (verb === 'summary') process.exitCode = summary() ? 0 : 1;
else {
  console.error('usage: ci-suite.ts run <phase> [--services-only] | summary');
  process.exitCode = 2;
}
