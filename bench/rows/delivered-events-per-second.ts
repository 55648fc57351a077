/**
 * P2: sustained delivered events/s on one instance (in-memory pub/sub) before the p99 of chunk
 * lateness exceeds 100 ms. A ladder of concurrent streams at 50 chunks/s each; the figure of a round
 * is the delivered rate of its highest step whose streams all ran together, on schedule, with nothing lost.
 * Floor: the same ladder against a bare graphql-yoga + graphql-ws echo subscription (echo-floor.ts).
 * Both sides are paced by due times (chunk i at the start plus i/50 s) and judged by lateness from
 * that schedule (replies.ts), and a step's replies are long enough for all of its streams to overlap.
 */
import { benchDatabaseUrl, forkChild, startHost, type Child } from '../lib/hosts.ts';
import { inPool, openSubscription, type WsSubscription } from '../lib/clients.ts';
import { percentile, spread, sleep, round } from '../lib/stats.ts';
import { joinStream, ReplyFleet, windowed, type Joined, type Receives } from '../lib/replies.ts';
import { log } from '../lib/log.ts';
import type { RowResult, Row } from '../lib/types.ts';

const LADDER = [25, 50, 100, 200, 300, 400, 600, 800, 1000, 1200];
const RATE = 50;
/** The shortest step; a step is made longer when its runs are expected to take longer than this to start. */
const SECONDS = 4;
const MAX_SECONDS = 30;
/** Wall-clock budgets: the ladders stop climbing (keeping the rounds done) once spent. */
const PARLEY_BUDGET_MS = Number(process.env.BENCH_P2_PARLEY_BUDGET_MS ?? 120_000);
const FLOOR_BUDGET_MS = Number(process.env.BENCH_P2_FLOOR_BUDGET_MS ?? 60_000);
/** Streams must all be running together for at least this long for a step to count. */
const MIN_WINDOW_MS = 2_000;
const ROUNDS = 3;
const P99_LIMIT_MS = 100;

interface Step {
  streams: number;
  seconds: number;
  offered: number;
  delivered: number;
  /** Lateness from the schedule (arrival − due), every chunk of the step; from the emit beside it. */
  p50: number;
  p99: number;
  p99FromEmit: number;
  lost: number;
  windowMs: number;
  /** From the first send to the last stream's first chunk, and to the last send's answer. */
  startSpreadMs: number;
  sendMs: number;
  /** The longest stream, first emit to last, over its nominal length. */
  stretch: number;
  ok: boolean;
}

/** A step's figures from its joined streams: delivered events/s in the window in which every stream was emitting. */
function summarize(streams: number, seconds: number, joined: Joined[], extra: { missing: number; unfinished: number; sendStarted: number; sendMs: number }): Step {
  const { overlapMs, windowStart, windowEnd, lastFirstEmit } = windowed(joined);
  let inside = 0;
  for (const stream of joined) for (const at of stream.emittedAt) if (at >= windowStart && at <= windowEnd) inside++;
  const due = joined.flatMap((stream) => stream.dueLateness);
  const lost = extra.missing + joined.reduce((sum, stream) => sum + stream.lost, 0);
  const p99 = percentile(due, 99);
  return {
    streams,
    seconds,
    offered: streams * RATE,
    delivered: overlapMs > 0 ? inside / (overlapMs / 1000) : 0,
    p50: percentile(due, 50),
    p99,
    p99FromEmit: percentile(joined.flatMap((stream) => stream.lateness), 99),
    lost,
    windowMs: overlapMs,
    startSpreadMs: lastFirstEmit - extra.sendStarted,
    sendMs: extra.sendMs,
    stretch: Math.max(...joined.map((stream) => stream.durationMs)) / (seconds * 1000),
    ok: p99 <= P99_LIMIT_MS && lost === 0 && extra.unfinished === 0 && overlapMs >= MIN_WINDOW_MS,
  };
}

/** Runs the ladder from `startIndex` upward until a step fails; returns the steps run. */
async function ladder(label: string, runStep: (streams: number) => Promise<Step>, startIndex: number, deadline: number): Promise<Step[]> {
  const steps: Step[] = [];
  for (let i = startIndex; i < LADDER.length && Date.now() < deadline; i++) {
    const step = await runStep(LADDER[i]!);
    steps.push(step);
    log(
      `P2 ${label} ${step.streams} streams × ${step.seconds} s: delivered ${step.delivered.toFixed(0)}/s (window ${(step.windowMs / 1000).toFixed(1)} s, ` +
        `starts spread ${(step.startSpreadMs / 1000).toFixed(1)} s, sends ${(step.sendMs / 1000).toFixed(1)} s, longest ×${step.stretch.toFixed(2)}) ` +
        `p99 ${step.p99.toFixed(1)} ms from schedule (${step.p99FromEmit.toFixed(1)} from emit) lost ${step.lost} → ${step.ok ? 'ok' : 'over'}`,
    );
    if (!step.ok) break;
  }
  return steps;
}

const best = (steps: Step[]) => steps.filter((step) => step.ok).reduce((max, step) => Math.max(max, step.delivered), 0);
const nextStart = (steps: Step[]) => {
  const lastOk = steps.filter((step) => step.ok).at(-1);
  return Math.max(0, (lastOk ? LADDER.indexOf(lastOk.streams) : 0) - 1);
};
const secondsFor = (spreadMs: number) => Math.min(MAX_SECONDS, Math.max(SECONDS, Math.ceil((spreadMs * 1.3 + MIN_WINDOW_MS) / 1000) + 1));

async function parleyRounds(profileDir: string | undefined): Promise<Step[][]> {
  const done: Step[][] = [];
  const host = await startHost({ DATABASE_URL: benchDatabaseUrl('p2') }, { recordEmits: true, cpuProf: profileDir });
  const fleet = new ReplyFleet(host, { threadsPerUser: 10, tagPrefix: 'p' });
  try {
    await fleet.warm(LADDER[0]!, `/tokens ${RATE} over 1`);
    /** The slowest start seen so far per stream: a step's runs are made long enough to all start and then overlap. */
    let startMsPerStream = 0;
    const runStep = async (streams: number): Promise<Step> => {
      let seconds = secondsFor(startMsPerStream * streams);
      for (let attempt = 0; ; attempt++) {
        const raw = await fleet.step(streams, { chunks: RATE * seconds, seconds, sendConcurrency: 16, drainMs: 40_000 });
        const step = summarize(streams, seconds, raw.streams, { missing: raw.unemitted + raw.refusals.length, unfinished: raw.unfinished, sendStarted: raw.sendStarted, sendMs: raw.sendMs });
        if (Number.isFinite(step.startSpreadMs)) startMsPerStream = Math.max(startMsPerStream, step.startSpreadMs / streams);
        if (raw.failed.length) log(`P2 Parley ${streams} streams: ${raw.failed.length} replies ended ${[...new Set(raw.failed)].join(', ')}`);
        // Runs that started too far apart to overlap say nothing of delivery: once more, long enough for them to.
        if (step.ok || attempt > 0 || step.windowMs >= MIN_WINDOW_MS || step.lost > 0 || step.p99 > P99_LIMIT_MS || seconds >= MAX_SECONDS || !Number.isFinite(step.startSpreadMs)) return step;
        seconds = secondsFor(step.startSpreadMs);
        log(`P2 Parley ${streams} streams: the runs started over ${(step.startSpreadMs / 1000).toFixed(1)} s, again with ${seconds} s streams`);
      }
    };
    let start = 0;
    const deadline = Date.now() + PARLEY_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder('Parley', runStep, start, deadline);
      done.push(steps);
      start = nextStart(steps);
    }
    return done;
  } finally {
    fleet.close();
    await host.kill();
  }
}

async function floorRounds(): Promise<Step[][]> {
  const done: Step[][] = [];
  const echo: Child = await forkChild('./echo-floor.ts', {});
  const subscriptions: WsSubscription[] = [];
  const receives: Receives[] = [];
  const emitted: number[][] = [];
  let current = '';
  let stepCounter = 0;
  try {
    const wsUrl = echo.ready.wsUrl as string;
    const query = 'subscription Echo($topic: String!) { echo(topic: $topic) { __typename tag text offset emittedAt executionId cursor } }';
    const ensure = async (count: number) => {
      const from = subscriptions.length;
      if (from >= count) return;
      subscriptions.push(
        ...(await inPool(count - from, 16, (i) =>
          openSubscription(wsUrl, null, query, { topic: `t${from + i}` }, (at, data) => {
            if (!data.echo.tag.startsWith(current)) return;
            receives[from + i]!.push([data.echo.offset, data.echo.text.length, at]);
            emitted[from + i]!.push(data.echo.offset, data.echo.emittedAt);
          }),
        )),
      );
      await sleep(300);
    };
    const runStep = async (streams: number): Promise<Step> => {
      await ensure(streams);
      current = `f${stepCounter++}s`;
      for (let i = 0; i < streams; i++) {
        receives[i] = [];
        emitted[i] = [];
      }
      const sendStarted = Date.now();
      const chunks = SECONDS * RATE;
      await echo.call('schedule', { topics: streams, chunks, seconds: SECONDS, round: current.slice(0, -1) });
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && receives.slice(0, streams).some((list) => list.length < chunks)) await sleep(100);
      let missing = 0;
      const joined = receives.slice(0, streams).map((list, i) => {
        missing += Math.max(0, chunks - list.length);
        return joinStream(emitted[i]!, list, 1000 / RATE);
      });
      return summarize(streams, SECONDS, joined, { missing, unfinished: 0, sendStarted, sendMs: 0 });
    };
    await ensure(LADDER[0]!);
    await runStep(LADDER[0]!);
    let start = 0;
    const deadline = Date.now() + FLOOR_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder('floor', runStep, start, deadline);
      done.push(steps);
      start = nextStart(steps);
    }
    return done;
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await echo.kill();
  }
}

const run: Row['run'] = async ({ profileDir }): Promise<RowResult> => {
  const notes: string[] = [];
  const parley = await parleyRounds(profileDir);
  const floor = await floorRounds();
  const measured = spread(parley.map(best));
  const floorSpread = spread(floor.map(best));
  const ratio = { ...spread(parley.map((steps, i) => best(steps) / best(floor[Math.min(i, floor.length - 1)]!))), median: measured.median / floorSpread.median };
  notes.push(`rounds completed within the time budget: Parley ${parley.length}, floor ${floor.length}`);
  if (floor.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.streams === LADDER.at(-1))) {
    notes.push(`the floor passed the top of the ladder (${LADDER.at(-1)} streams) in some round: its figure is a lower bound, the ratio an upper bound`);
  }
  const describe = (label: string, rounds: Step[][]) =>
    rounds.forEach((steps, r) =>
      notes.push(
        `${label} round ${r + 1}: ` +
          steps
            .map((s) => `${s.streams} × ${s.seconds} s: ${s.delivered.toFixed(0)}/s, window ${(s.windowMs / 1000).toFixed(1)} s, starts over ${(s.startSpreadMs / 1000).toFixed(1)} s, p99 ${s.p99.toFixed(0)} ms (${s.p99FromEmit.toFixed(0)} from emit), longest ×${s.stretch.toFixed(2)} → ${s.ok ? 'ok' : 'over'}`)
            .join('; '),
      ),
    );
  describe('Parley', parley);
  describe('floor', floor);
  const compact = (rounds: Step[][]) =>
    rounds.map((steps) => steps.map((s) => Object.fromEntries(Object.entries(s).map(([key, value]) => [key, typeof value === 'number' ? round(value, 2) : value]))));
  return {
    id: 'P2',
    what: `sustained delivered events/s on one instance with chunk p99 ≤ ${P99_LIMIT_MS} ms from schedule (streams × ${RATE} chunks/s)`,
    metrics: [{ name: 'delivered events/s at p99 ≤ 100 ms', unit: 'events/s', measured, floor: floorSpread, ratio, budget: '≥ 0.5× floor', pass: ratio.median >= 0.5 }],
    notes,
    details: { parley: compact(parley), floor: compact(floor) },
  };
};

export const deliveredEventsPerSecond: Row = {
  id: 'P2',
  name: 'delivered-events-per-second',
  run,
  method: `One instance (PostgreSQL, in-process pub/sub — the same pub/sub as the floor), emit times recorded as in
C1 (each thread's agent carries the recorder's tag), one WebSocket subscriber per stream in the bench process,
the C1 client harness (bench/lib/replies.ts). A ladder of concurrent streams (${LADDER.join(', ')} streams of
\`/tokens\` at ${RATE} chunks/s, chunk i due at the stream's start plus i/${RATE} s; 16 sends in flight). A step *sustains*
its load when the p99 lateness of its chunks *from their schedule* is ≤ ${P99_LIMIT_MS} ms (arrival − due; a saturated
server emits late and stretches its streams, which lateness from the emit does not see: the bare floor "held" 400
streams of 4 s while they took 9.5 s), no chunk is lost, and all its streams were running together for ≥ ${MIN_WINDOW_MS / 1000} s
(the window runs from the last stream's first chunk to the first stream's last chunk). Its delivered events/s =
chunks emitted in that window ÷ the window's length. A step's streams last ${SECONDS} s, or longer when the runs of
the steps before took longer to start (${SECONDS} s → up to ${MAX_SECONDS} s: the start spread seen per stream × 1.3 + ${MIN_WINDOW_MS / 1000} s);
a step whose runs still started too far apart to overlap, with nothing late or lost, runs once more with streams
long enough. A round's figure is the delivered events/s of its highest sustained step; later rounds start one
step below the previous round's best. Time-boxed (${PARLEY_BUDGET_MS / 1000} s Parley, ${FLOOR_BUDGET_MS / 1000} s floor; the rounds completed are in the notes).
*Floor:* the same ladder against a bare graphql-yoga + graphql-ws server wired like src/server/app.ts
(\`useServer\` + \`yoga.getEnveloped\`), one \`echo(topic)\` subscription on yoga's in-memory \`createPubSub\`,
events of the same size produced in the server process on the same schedule (echo-floor.ts \`schedule\`).`,
};
