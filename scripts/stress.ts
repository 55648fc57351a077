// Runs test files again and again on a deliberately loaded machine, to shake out failures that
// only show when the CPU is scarce (a subscription that stays silent, a socket closed during its
// handshake). Not part of `npm test`: it is bounded by its rounds and by --minutes.
//   npm run test:stress -- [--rounds 20] [--hogs 4] [--minutes 60] [test files …]
//   npm run test:stress -- --hogs-only [--hogs 2] [--minutes 60]
// With no files it runs the suites that once failed this way. With --hogs-only it runs nothing but
// the hogs, until --minutes or Ctrl-C: the load beside a whole `.ci/run`. TEST_DATABASE_URL/TEST_REDIS_URL
// default to this machine's PostgreSQL and Redis, so the PostgreSQL + Redis variants run too.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

const DEFAULT_FILES = [
  'test/api/stop.test.ts',
  'test/api/failure-recording.test.ts',
  'test/api/reconnect.test.ts',
  'test/api/liveness.test.ts',
  'test/events/live-bus.test.ts',
];

function parseArgs(argv: string[]) {
  const options = { rounds: 20, hogs: cpus().length * 2, minutes: 60, hogsOnly: false, files: [] as string[] };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const value = () => Number(argv[++index]);
    if (arg === '--rounds') options.rounds = value();
    else if (arg === '--hogs') options.hogs = value();
    else if (arg === '--minutes') options.minutes = value();
    else if (arg === '--hogs-only') options.hogsOnly = true;
    else options.files.push(arg);
  }
  if (options.files.length === 0) options.files = DEFAULT_FILES;
  return options;
}

/** A busy loop in its own process, ended by a deadline of its own so a crashed parent leaves none behind. */
function startHog(untilMs: number): ChildProcess {
  return spawn(process.execPath, ['-e', `const end=${untilMs};while(Date.now()<end){for(let i=0;i<1e6;i++);}`], {
    stdio: 'ignore',
  });
}

function runRound(files: string[], logFile: string): Promise<{ ok: boolean; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...files], {
      env: {
        ...process.env,
        TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test',
        TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      writeFileSync(logFile, Buffer.concat(output));
      resolve({ ok: code === 0, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const options = parseArgs(process.argv.slice(2));
const deadline = Date.now() + options.minutes * 60_000;
const logDir = path.resolve('tmp/stress');
mkdirSync(logDir, { recursive: true });
const hogs = Array.from({ length: options.hogs }, () => startHog(deadline));
const stopHogs = () => hogs.forEach((hog) => hog.kill());
process.on('SIGINT', () => {
  stopHogs();
  process.exit(130);
});

process.on('SIGTERM', () => {
  stopHogs();
  process.exit(143);
});
if (options.hogsOnly) {
  console.log(`stress: ${options.hogs} CPU hogs for ${options.minutes} minutes (Ctrl-C ends them)`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
  stopHogs();
  process.exit(0);
}

console.log(`stress: ${options.rounds} rounds of ${options.files.join(', ')} with ${options.hogs} CPU hogs (logs in ${logDir})`);
let failures = 0;
let round = 0;
for (; round < options.rounds && Date.now() < deadline; round++) {
  const logFile = path.join(logDir, `round-${round + 1}.log`);
  const { ok, seconds } = await runRound(options.files, logFile);
  if (!ok) failures++;
  const load = loadavg()[0]!.toFixed(1);
  console.log(`round ${round + 1}: ${ok ? 'passed' : `FAILED (see ${logFile})`} in ${seconds.toFixed(0)} s, load ${load}`);
}
stopHogs();
console.log(`stress: ${round} rounds, ${failures} failed`);
process.exit(failures > 0 || round < options.rounds ? 1 : 0);
