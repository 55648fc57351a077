/**
 * `npm run bench [-- P1 send-message-latency …] [--profile]`: runs the benchmark rows (all by default;
 * a row is named by its id or its name) on loopback against the machine's PostgreSQL and Redis, each
 * row in a fresh schema, and writes BENCHMARKS.md and bench/results.json. `--profile` adds
 * `--cpu-prof` to the server processes (bench/profiles/).
 */
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dropBenchSchemas, killAllChildren, RUN_ID } from './lib/hosts.ts';
import type { Row, RowResult } from './lib/types.ts';
import { renderMarkdown } from './lib/report.ts';
import { crossInstanceChunkLatency } from './rows/cross-instance-chunk-latency.ts';
import { deliveredEventsPerSecond } from './rows/delivered-events-per-second.ts';
import { sendMessageLatency } from './rows/send-message-latency.ts';
import { longThreadReads } from './rows/long-thread-reads.ts';
import { writesPerReply } from './rows/writes-per-reply.ts';
import { memoryPerSubscription } from './rows/memory-per-subscription.ts';
import { startToReady } from './rows/start-to-ready.ts';
import { turnStartLatency } from './rows/turn-start-latency.ts';
import { stalledReaderMemory } from './rows/stalled-reader-memory.ts';
import { costAsDataGrows } from './rows/cost-as-data-grows.ts';
import { turnThroughput } from './rows/turn-throughput.ts';
import { scaleOut } from './rows/scale-out.ts';
import { peersSideBySide } from './rows/peers-side-by-side.ts';
import { concurrentReplies } from './rows/concurrent-replies.ts';
import { fastProvider } from './rows/fast-provider.ts';

const ROWS: Row[] = [
  crossInstanceChunkLatency,
  deliveredEventsPerSecond,
  sendMessageLatency,
  longThreadReads,
  writesPerReply,
  memoryPerSubscription,
  startToReady,
  turnStartLatency,
  stalledReaderMemory,
  costAsDataGrows,
  turnThroughput,
  scaleOut,
  peersSideBySide,
  concurrentReplies,
  fastProvider,
];

const args = process.argv.slice(2);
const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url));
if (args.includes('--render')) {
  // Re-renders BENCHMARKS.md from bench/results.json without running anything.
  writeFileSync(fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url)), renderMarkdown(JSON.parse(readFileSync(resultsFile, 'utf8')), ROWS));
  process.exit(0);
}
const profile = args.includes('--profile');
const rowNamed = (arg: string) => ROWS.find((row) => row.id === arg.toUpperCase() || row.name === arg.toLowerCase());
const selected = args.filter((arg) => !arg.startsWith('--'));
for (const arg of selected) {
  if (!rowNamed(arg)) throw new Error(`unknown row ${arg}; known: ${ROWS.map((row) => `${row.id} (${row.name})`).join(', ')}`);
}
const chosen = selected.length ? selected.map((arg) => rowNamed(arg)!) : ROWS;

const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
const markdownPath = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
const profileDir = profile ? fileURLToPath(new URL(`./profiles/${RUN_ID}`, import.meta.url)) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });

// A hard stop for the whole run: bounded in time whatever happens (at least 14 minutes, more when the rows chosen say they need it).
const HARD_LIMIT_MS = Number(process.env.BENCH_TIME_LIMIT_MS ?? Math.max(14 * 60_000, chosen.reduce((sum, row) => sum + (row.timeLimitMs ?? 2 * 60_000), 0)));
const hardStop = setTimeout(async () => {
  console.error(`bench: time limit of ${HARD_LIMIT_MS / 1000} s reached, stopping`);
  await killAllChildren().catch(() => {});
  await dropBenchSchemas().catch(() => {});
  try {
    writeOutputs();
  } catch {
    // best effort
  }
  process.exit(2);
}, HARD_LIMIT_MS);
hardStop.unref();

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    await killAllChildren().catch(() => {});
    await dropBenchSchemas().catch(() => {});
    process.exit(130);
  });
}

const started = Date.now();
const results: RowResult[] = [];
/** Writes results.json and BENCHMARKS.md; rows not run this time keep their previous results. */
function writeOutputs(): number {
  // BENCH_NO_WRITE=1: a diagnostic run (e.g. with --profile) that leaves the recorded results alone;
  // BENCH_DUMP=<file> keeps its rows' results (figures, notes and details) in that file instead.
  if (process.env.BENCH_NO_WRITE === '1') {
    if (process.env.BENCH_DUMP) writeFileSync(process.env.BENCH_DUMP, `${JSON.stringify({ runId: RUN_ID, node: process.version, rows: results }, null, 2)}\n`);
    return Math.round((Date.now() - started) / 100) / 10;
  }
  let previous: { rows?: RowResult[] } = {};
  if (existsSync(resultsPath)) {
    try {
      previous = JSON.parse(readFileSync(resultsPath, 'utf8'));
    } catch {
      previous = {};
    }
  }
  const merged = ROWS.map(({ id }) => id)
    .map((id) => results.find((row) => row.id === id) ?? previous.rows?.find((row) => row.id === id))
    .filter((row): row is RowResult => Boolean(row));
  const output = {
    runId: RUN_ID,
    date: new Date().toISOString(),
    durationS: Math.round((Date.now() - started) / 100) / 10,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version, loadavgAtEnd: loadavg() },
    rowsRunNow: results.map((row) => row.id),
    rows: merged,
  };
  writeFileSync(resultsPath, `${JSON.stringify(output, null, 2)}\n`);
  writeFileSync(markdownPath, renderMarkdown(output, ROWS));
  return output.durationS;
}


try {
  for (const row of chosen) {
    if (interrupted) break;
    const rowStarted = Date.now();
    console.error(`bench: ${row.id} ${row.name} …`);
    let result: RowResult;
    try {
      result = await row.run({ profileDir });
    } catch (error) {
      result = { id: row.id, what: '', metrics: [], notes: [], error: (error as Error).stack ?? String(error) };
      await killAllChildren().catch(() => {});
    }
    result.durationS = Math.round((Date.now() - rowStarted) / 100) / 10;
    results.push(result);
    console.error(`bench: ${row.id} ${row.name} done in ${result.durationS} s${result.error ? ` (failed: ${result.error.split('\n')[0]})` : ''}`);
    writeOutputs();
    for (const metric of result.metrics) {
      console.error(
        `  ${metric.name}: ${metric.measured.median.toFixed(3)} ${metric.unit}` +
          (metric.floor ? ` floor ${metric.floor.median.toFixed(3)} ratio ${metric.ratio!.median.toFixed(2)}` : '') +
          ` budget ${metric.budget} → ${metric.pass === null ? 'report' : metric.pass ? 'PASS' : 'FAIL'}`,
      );
    }
  }
} finally {
  await killAllChildren().catch(() => {});
  await dropBenchSchemas().catch((error) => console.error('bench: dropping schemas failed', error));
}

const total = writeOutputs();
console.error(`bench: wrote ${resultsPath} and ${markdownPath} in ${total} s`);
process.exit(results.some((row) => row.error) ? 1 : 0);
