/**
 * P2: sustained delivered events/s on one instance (in-memory pub/sub) before the p99 of chunk
 * latency exceeds 100 ms. A ladder of concurrent streams at 50 chunks/s each; the figure of a round
 * is the delivered rate of its highest step whose p99 ≤ 100 ms with nothing lost.
 * Floor: the same ladder against a bare graphql-yoga + graphql-ws echo subscription (echo-floor.ts).
 */
import { benchDatabaseUrl, forkChild, startHost, type BenchThread, type Child } from '../lib/hosts.ts';
import { inPool, openSubscription, type WsSubscription } from '../lib/clients.ts';
import { percentile, spread, sleep, round } from '../lib/stats.ts';
import { StreamFleet, takeEmits } from '../lib/streams.ts';
import { log } from '../lib/log.ts';
import type { RowResult, Row } from '../lib/types.ts';

const LADDER = [25, 50, 100, 200, 300, 400, 600, 800, 1000, 1200];
const RATE = 50;
const SECONDS = 4;
/** Wall-clock budgets: the ladders stop climbing (keeping the rounds done) once spent. */
const PARLEY_BUDGET_MS = Number(process.env.BENCH_P2_PARLEY_BUDGET_MS ?? 75_000);
const FLOOR_BUDGET_MS = 55_000;
/** Streams must all be running together for at least this long for a step to count. */
const MIN_WINDOW_MS = 2_000;
const ROUNDS = 3;
const P99_LIMIT_MS = 100;

interface Step {
  streams: number;
  offered: number;
  delivered: number;
  p50: number;
  p99: number;
  lost: number;
  windowMs: number;
  ok: boolean;
}

/**
 * Delivered events/s while every stream of the step was running (from the last stream's first
 * chunk to the first stream's last chunk): the sustained rate at that concurrency.
 */
function windowRate(records: { tag: string; emittedAt: number; received: boolean }[]) {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  for (const record of records) {
    first.set(record.tag, Math.min(first.get(record.tag) ?? Infinity, record.emittedAt));
    last.set(record.tag, Math.max(last.get(record.tag) ?? -Infinity, record.emittedAt));
  }
  const start = Math.max(...first.values());
  const end = Math.min(...last.values());
  const windowMs = end - start;
  if (!(windowMs > 0)) return { windowMs: 0, delivered: 0 };
  const inside = records.filter((record) => record.received && record.emittedAt >= start && record.emittedAt <= end).length;
  return { windowMs, delivered: inside / (windowMs / 1000) };
}

/** Runs the ladder from `startIndex` upward until a step fails; returns the steps run. */
async function ladder(runStep: (streams: number) => Promise<Step>, startIndex: number, deadline: number): Promise<Step[]> {
  const steps: Step[] = [];
  for (let i = startIndex; i < LADDER.length && Date.now() < deadline; i++) {
    const step = await runStep(LADDER[i]!);
    steps.push(step);
    log(`P2 ${step.streams} streams: delivered ${step.delivered.toFixed(0)}/s (window ${(step.windowMs / 1000).toFixed(1)} s) p99 ${step.p99.toFixed(1)} ms lost ${step.lost} → ${step.ok ? 'ok' : 'over'}`);
    if (!step.ok) break;
  }
  return steps;
}

const best = (steps: Step[]) => steps.filter((step) => step.ok).reduce((max, step) => Math.max(max, step.delivered), 0);
const nextStart = (steps: Step[]) => {
  const lastOk = steps.filter((step) => step.ok).at(-1);
  return Math.max(0, (lastOk ? LADDER.indexOf(lastOk.streams) : 0) - 1);
};

const run: Row['run'] = async ({ profileDir }) => {
  const notes: string[] = [];
  const parleyRounds: Step[][] = [];
  const floorRounds: Step[][] = [];

  // ---- Parley, one instance, PostgreSQL, in-process pub/sub ----
  const host = await startHost({ DATABASE_URL: benchDatabaseUrl('p2') }, { recordEmits: true, cpuProf: profileDir });
  const fleet = new StreamFleet();
  const threads: BenchThread[] = [];
  let stepCounter = 0;
  try {
    const ensure = async (count: number) => {
      if (threads.length >= count) return;
      const added = await host.call<BenchThread[]>('setupThreads', { count: count - threads.length, threadsPerUser: 10 });
      await fleet.subscribe(host.wsUrl, added);
      threads.push(...added);
      await sleep(500);
    };
    await ensure(LADDER[0]!);
    await fleet.round(host.url, threads, 'p2w', 1, RATE);
    await takeEmits(host);
    const runStep = async (streams: number): Promise<Step> => {
      await ensure(streams);
      const name = `p2n${stepCounter++}`;
      const { tags, unfinished } = await fleet.round(host.url, threads.slice(0, streams), name, SECONDS, RATE, 40_000);
      await sleep(200);
      const wanted = new Set(tags);
      const emits = (await takeEmits(host)).filter(([tag]) => wanted.has(tag));
      const { latencies, lost } = fleet.join(emits, (tag) => wanted.has(tag));
      const { windowMs, delivered } = windowRate(
        emits.map(([tag, offset, emittedAt]) => ({ tag, emittedAt, received: fleet.arrivalOf(tag, offset) !== undefined })),
      );
      const p99 = percentile(latencies, 99);
      const missing = streams * SECONDS * RATE - latencies.length;
      return {
        streams,
        offered: streams * RATE,
        delivered,
        p50: percentile(latencies, 50),
        p99,
        lost: lost + Math.max(0, missing),
        windowMs,
        ok: p99 <= P99_LIMIT_MS && lost + Math.max(0, missing) === 0 && unfinished === 0 && windowMs >= MIN_WINDOW_MS,
      };
    };
    let start = 0;
    const deadline = Date.now() + PARLEY_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder(runStep, start, deadline);
      parleyRounds.push(steps);
      start = nextStart(steps);
    }
  } finally {
    fleet.close();
    await host.kill();
  }

  // ---- Floor: bare yoga + graphql-ws echo on in-memory pub/sub ----
  const echo: Child = await forkChild('./echo-floor.ts', {});
  const subscriptions: WsSubscription[] = [];
  try {
    const wsUrl = echo.ready.wsUrl as string;
    let received: { tag: string; latency: number; at: number; emittedAt: number }[] = [];
    const query = 'subscription Echo($topic: String!) { echo(topic: $topic) { __typename tag text offset emittedAt executionId cursor } }';
    const ensure = async (count: number) => {
      const from = subscriptions.length;
      if (from >= count) return;
      subscriptions.push(
        ...(await inPool(count - from, 16, (i) =>
          openSubscription(wsUrl, null, query, { topic: `t${from + i}` }, (at, data) => {
            received.push({ tag: data.echo.tag, latency: at - data.echo.emittedAt, at, emittedAt: data.echo.emittedAt });
          }),
        )),
      );
      await sleep(300);
    };
    await ensure(LADDER[0]!);
    await echo.call('run', { topics: LADDER[0], rate: RATE, seconds: 1, round: 'w' });
    const runStep = async (streams: number): Promise<Step> => {
      await ensure(streams);
      received = [];
      const roundName = `f${stepCounter++}`;
      await echo.call('run', { topics: streams, rate: RATE, seconds: SECONDS, round: roundName });
      // Wait for the tail to arrive (bounded).
      const expected = streams * SECONDS * RATE;
      const deadline = Date.now() + 10_000;
      const mine = () => received.filter((x) => x.tag.startsWith(`${roundName}s`));
      while (mine().length < expected && Date.now() < deadline) await sleep(100);
      received = mine();
      const latencies = received.map((x) => x.latency);
      const { windowMs, delivered } = windowRate(received.map((x) => ({ tag: x.tag, emittedAt: x.emittedAt, received: true })));
      const p99 = percentile(latencies, 99);
      const lost = expected - latencies.length;
      return {
        streams,
        offered: streams * RATE,
        delivered,
        p50: percentile(latencies, 50),
        p99,
        lost,
        windowMs,
        ok: p99 <= P99_LIMIT_MS && lost === 0 && windowMs >= MIN_WINDOW_MS,
      };
    };
    let start = 0;
    const deadline = Date.now() + FLOOR_BUDGET_MS;
    for (let r = 0; r < ROUNDS && Date.now() < deadline; r++) {
      const steps = await ladder(runStep, start, deadline);
      floorRounds.push(steps);
      start = nextStart(steps);
    }
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await echo.kill();
  }

  const measured = spread(parleyRounds.map(best));
  const floor = spread(floorRounds.map(best));
  const ratio = { ...spread(parleyRounds.map((steps, i) => best(steps) / best(floorRounds[Math.min(i, floorRounds.length - 1)]!))), median: measured.median / floor.median };
  notes.push(`rounds completed within the time budget: Parley ${parleyRounds.length}, floor ${floorRounds.length}`);
  const capped = floorRounds.some((steps) => steps.at(-1)?.ok && steps.at(-1)?.streams === LADDER.at(-1));
  if (capped) notes.push(`the floor passed the top of the ladder (${LADDER.at(-1)} streams) in some round: its figure is a lower bound, the ratio an upper bound`);
  notes.push(`ladder (streams × ${RATE} chunks/s, ${SECONDS} s per step): ${LADDER.join(', ')}; later rounds start one step below the previous round's best; a step counts when p99 ≤ 100 ms, nothing is lost, and all its streams ran together for ≥ ${MIN_WINDOW_MS / 1000} s (delivered events/s = events emitted in that window and received ÷ window length)`);
  const compact = (rounds: Step[][]) =>
    rounds.map((steps) => steps.map((s) => ({ ...s, delivered: round(s.delivered, 0), p50: round(s.p50, 2), p99: round(s.p99, 2) })));
  return {
    id: 'P2',
    what: `sustained delivered events/s on one instance with chunk p99 ≤ ${P99_LIMIT_MS} ms (streams × ${RATE} chunks/s)`,
    metrics: [{ name: 'delivered events/s at p99 ≤ 100 ms', unit: 'events/s', measured, floor, ratio, budget: '≥ 0.5× floor', pass: ratio.median >= 0.5 }],
    notes,
    details: { parley: compact(parleyRounds), floor: compact(floorRounds) },
  };
};

export const deliveredEventsPerSecond: Row = {
  id: 'P2',
  name: 'delivered-events-per-second',
  run,
  method: `One instance (PostgreSQL, in-process pub/sub — the same pub/sub as the floor), emit times recorded as in
P1, subscribers in the bench process (one WebSocket each). A ladder of concurrent streams (25, 50, 100,
200, 300, 400, 600, 800, 1000, 1200 streams × 50 chunks/s, 4 s each). A step *sustains* its load when
p99 ≤ 100 ms, no chunk is lost, and all its streams were running together for ≥ 2 s (the window runs
from the last stream's first chunk to the first stream's last chunk); its delivered events/s = chunks
emitted in that window and received ÷ the window's length: the rate at which every stream of the step
was being delivered at once. A step whose streams never all run together (runs start more slowly than
they end) does not sustain that concurrency.
A round's figure is the delivered events/s of its highest sustained step; later rounds start one step
below the previous round's best. Time-boxed (75 s Parley, 55 s floor; the number of rounds completed is in the notes).
*Floor:* the same ladder against a bare graphql-yoga + graphql-ws server wired like src/server/app.ts
(\`useServer\` + \`yoga.getEnveloped\`), one \`echo(topic)\` subscription on yoga's in-memory \`createPubSub\`,
events of the same size produced in the server process by the same \`setTimeout\` chains.`,
};
