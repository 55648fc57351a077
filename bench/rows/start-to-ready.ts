/**
 * P7: start to ready. Embedded: `npm start` (as a user types it) with a fresh PARLEY_DATA_DIR: PGlite
 * initdb, migrations, demo bootstrap, until the "Parley is running" banner. PostgreSQL: `node
 * bin/parley.js serve` with a fresh schema (migrations included) and Redis, until the banner.
 * Compiled against sources: the compiled build (`node bin/parley.js serve`, what `npm start` runs)
 * and the sources through tsx (what `npm run dev` runs) on an existing data folder, their start time
 * and resident memory, against a bare `node` process started the same way.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabaseUrl, REDIS_URL } from '../lib/hosts.ts';
import { REPO, rssMb, serve } from '../lib/serve.ts';
import { sleep, spread, type Spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Metric, Row } from '../lib/types.ts';

const ROUNDS = 3;
const WARM_ROUNDS = 5;
/** Memory is read this long after the banner, once start-up work has settled. */
const SETTLE_MS = 1_000;

/** The floor: `node -e` printing a line, from spawn to that line, and its RSS at the same delay. */
async function bareNode(): Promise<{ readyMs: number; rss: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', "console.log('ready'); setInterval(() => {}, 60_000)"], { cwd: REPO, stdio: ['ignore', 'pipe', 'ignore'] });
  const readyMs = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', () => resolve(performance.now() - started));
    child.once('exit', (code) => reject(new Error(`bare node exited with ${code}`)));
  });
  await sleep(SETTLE_MS);
  const rss = rssMb(child.pid!);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return { readyMs, rss };
}

async function warmStart(command: 'node' | 'sources', dataDir: string): Promise<{ readyMs: number; rss: number }> {
  const server = await serve(command, { PARLEY_DATA_DIR: dataDir });
  await sleep(SETTLE_MS);
  const rss = rssMb(server.child.pid!);
  await server.stop();
  return { readyMs: server.readyMs, rss };
}

function againstFloor(name: string, unit: string, rounds: number[], floorRounds: number[]): Metric {
  const measured = spread(rounds);
  const floor = spread(floorRounds);
  const ratio: Spread = { ...spread(rounds.map((value, i) => value / floorRounds[i]!)), median: measured.median / floor.median };
  return { name, unit, measured, floor, ratio, budget: 'report', pass: null };
}

const run: Row['run'] = async () => {
  const embedded: number[] = [];
  const postgres: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    try {
      const cold = await serve('npm-start', { PARLEY_DATA_DIR: dir });
      embedded.push(cold.readyMs);
      await cold.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const pgServer = await serve('node', { DATABASE_URL: benchDatabaseUrl(`p7r${r}`), REDIS_URL });
    postgres.push(pgServer.readyMs);
    await pgServer.stop();
    log(`P7 round ${r}: embedded cold ${embedded[r]!.toFixed(0)} ms, PostgreSQL ${postgres[r]!.toFixed(0)} ms`);
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-warm-'));
  const floor = { readyMs: [] as number[], rss: [] as number[] };
  const compiled = { readyMs: [] as number[], rss: [] as number[] };
  const sources = { readyMs: [] as number[], rss: [] as number[] };
  try {
    // Unmeasured: creates and migrates the data folder, and builds dist/ if it is out of date.
    await (await serve('node', { PARLEY_DATA_DIR: dataDir })).stop();
    for (let r = 0; r < WARM_ROUNDS; r++) {
      for (const [into, measure] of [
        [floor, bareNode],
        [compiled, () => warmStart('node', dataDir)],
        [sources, () => warmStart('sources', dataDir)],
      ] as const) {
        const { readyMs, rss } = await measure();
        into.readyMs.push(readyMs);
        into.rss.push(rss);
      }
      log(
        `P7 warm round ${r}: compiled ${compiled.readyMs[r]!.toFixed(0)} ms ${compiled.rss[r]!.toFixed(0)} MB, ` +
          `sources ${sources.readyMs[r]!.toFixed(0)} ms ${sources.rss[r]!.toFixed(0)} MB, bare node ${floor.readyMs[r]!.toFixed(0)} ms ${floor.rss[r]!.toFixed(0)} MB`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    id: 'P7',
    what: 'start to ready: embedded `npm start` on a fresh data folder, PostgreSQL + Redis on a fresh schema, and the compiled build against the sources',
    metrics: [
      { name: 'embedded cold start (`npm start`, fresh data dir)', unit: 'ms', measured: spread(embedded), budget: 'report', pass: null },
      { name: 'PostgreSQL start (`parley serve`, fresh schema)', unit: 'ms', measured: spread(postgres), budget: 'report', pass: null },
      againstFloor('compiled start (`node bin/parley.js serve`, embedded, existing data dir; floor: bare `node -e`)', 'ms', compiled.readyMs, floor.readyMs),
      againstFloor('sources start (tsx, as `npm run dev`; same data dir and floor)', 'ms', sources.readyMs, floor.readyMs),
      againstFloor('compiled RSS 1 s after ready (floor: bare `node -e`)', 'MB', compiled.rss, floor.rss),
      againstFloor('sources (tsx) RSS 1 s after ready (floor: bare `node -e`)', 'MB', sources.rss, floor.rss),
      againstFloor('compiled start against sources start (floor: the sources, tsx)', 'ms', compiled.readyMs, sources.readyMs),
      againstFloor('compiled RSS against sources RSS (floor: the sources, tsx)', 'MB', compiled.rss, sources.rss),
    ],
    notes: [
      'time from spawning the process to the "Parley is running" banner on stdout; `npm start` includes npm\'s own start-up',
      `compiled and sources: ${WARM_ROUNDS} rounds alternating bare node, compiled and sources; the compiled start includes bin/parley.js hashing src/ to check the build is current`,
    ],
  };
};

export const startToReady: Row = {
  id: 'P7',
  name: 'start-to-ready',
  run,
  method: `Embedded: \`npm start\` with \`PORT=0\` and a fresh \`PARLEY_DATA_DIR\` (PGlite initdb, migrations, demo
user/project/agent, token) from spawn to the "Parley is running" banner on stdout. PostgreSQL:
\`node bin/parley.js serve\` with a fresh schema (\`CREATE SCHEMA\`, migrations) and Redis, to the same
banner. Three rounds each; the servers are stopped with SIGTERM between rounds.

*Compiled against sources:* \`npm start\` runs the compiled build (\`node bin/parley.js serve\`: dist/,
no TypeScript loader; it used to run the sources through tsx), \`npm run dev\` the sources
through tsx (measured without its file watcher: \`node --import tsx src/cli/main.ts serve\`, tsx's
transform cache warm). Both start embedded on one data folder migrated by an unmeasured first
start, five rounds alternating with the floor, a bare \`node -e\` that prints a line; the time is
spawn to the banner (spawn to the line for the floor), the memory the process's \`VmRSS\` 1 s after it.
The compiled start includes bin/parley.js hashing src/ (about 2 MB) to check that dist/ is current.
The last two figures take the sources as the floor: compiled ÷ sources, round by round.`,
};
