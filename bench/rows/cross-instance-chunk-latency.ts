/**
 * P1: chunk latency from the runtime (instance B) to a graphql-ws subscriber on instance A via Redis,
 * 200 concurrent streams × 50 chunks/s; floor: raw ioredis PUBLISH → SUBSCRIBE at the same rate.
 */
import { Redis } from 'ioredis';
import { benchDatabaseUrl, forkChild, pgClient, REDIS_URL, RUN_ID, startHost, type BenchThread } from '../lib/hosts.ts';
import { percentile, spread, nowMs, sleep, round } from '../lib/stats.ts';
import { StreamFleet, takeEmits } from '../lib/streams.ts';
import type { Metric, RowResult, Row } from '../lib/types.ts';
import { log } from '../lib/log.ts';

const STREAMS = Number(process.env.BENCH_P1_STREAMS ?? 200);
const RATE = 50;
const SECONDS = 3;
const ROUNDS = 3;
/** A round waits this long for its streams (sending 200 messages and admitting 200 runs included). */
const ROUND_TIMEOUT_MS = 90_000;

const run: Row['run'] = async ({ profileDir }) => {
  const databaseUrl = benchDatabaseUrl('p1');
  const env = { DATABASE_URL: databaseUrl, REDIS_URL };
  // B runs every reply (its runtime records emit times); A only serves the subscribers: its
  // consumer is stopped, so it never claims a run. Ownership is checked again below.
  const b = await startHost(env, { recordEmits: true, cpuProf: profileDir });
  const a = await startHost(env, { noConsumer: true, cpuProf: profileDir });
  log('P1 hosts up');
  const fleet = new StreamFleet();
  const notes: string[] = [];
  const rounds: { p50: number; p99: number; count: number; lost: number; foreign: number }[] = [];
  try {
    const threads = await a.call<BenchThread[]>('setupThreads', { count: STREAMS });
    await fleet.subscribe(a.wsUrl, threads);
    log('P1 subscribed');
    await sleep(1000);
    // Warm-up (JIT, pools, Redis channels): not counted.
    await fleet.round(a.url, threads, 'p1w', 1, RATE, ROUND_TIMEOUT_MS);
    await takeEmits(b);
    const db = await pgClient(databaseUrl);
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const { tags, unfinished } = await fleet.round(a.url, threads, `p1r${r}`, SECONDS, RATE, ROUND_TIMEOUT_MS);
        await sleep(300);
        const emits = await takeEmits(b);
        const owners = await db.query<{ acceptedText: string; ownerInstanceId: string }>(
          `SELECT "acceptedText", "ownerInstanceId" FROM execution WHERE "acceptedText" LIKE $1`,
          [`%TAGp1r${r}s%`],
        );
        const ownedByB = new Set(
          owners.rows
            .filter((row) => row.ownerInstanceId === b.instanceId)
            .map((row) => /\bTAG(\S+)/.exec(row.acceptedText)![1]!),
        );
        const wanted = new Set(tags);
        const { latencies, lost } = fleet.join(emits, (tag) => wanted.has(tag) && ownedByB.has(tag));
        rounds.push({
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          count: latencies.length,
          lost,
          foreign: tags.length - ownedByB.size,
        });
        log(`P1 round ${r}: p50 ${rounds.at(-1)!.p50.toFixed(2)} p99 ${rounds.at(-1)!.p99.toFixed(2)} n=${rounds.at(-1)!.count}`);
        if (unfinished) notes.push(`round ${r}: ${unfinished} streams did not finish in time`);
      }
    } finally {
      await db.end();
    }
  } finally {
    fleet.close();
    await a.kill();
    await b.kill();
  }

  log('P1 parley done');
  // Floor: the same number of channels and payloads at the same pacing through Redis alone.
  const floorRounds: { p50: number; p99: number; count: number }[] = [];
  const publisher = await forkChild('./redis-publisher.ts', { BENCH_REDIS_URL: REDIS_URL });
  const subscriber = new Redis(REDIS_URL);
  try {
    const prefix = `bench:${RUN_ID}:p1`;
    let latencies: number[] = [];
    subscriber.on('message', (_channel: string, message: string) => {
      const receivedAt = nowMs();
      const parsed = JSON.parse(message);
      latencies.push(receivedAt - parsed.bench.emittedAt);
    });
    await subscriber.subscribe(...Array.from({ length: STREAMS }, (_, i) => `${prefix}:${i}`));
    await publisher.call('run', { prefix, channels: STREAMS, rate: RATE, seconds: 1, round: 'w' });
    await sleep(300);
    for (let r = 0; r < ROUNDS; r++) {
      latencies = [];
      await publisher.call('run', { prefix, channels: STREAMS, rate: RATE, seconds: SECONDS, round: `f${r}` });
      await sleep(300);
      floorRounds.push({ p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length });
    }
  } finally {
    subscriber.disconnect();
    await publisher.kill();
  }

  const metric = (name: 'p50' | 'p99', factor: number): Metric => {
    const measured = spread(rounds.map((x) => x[name]));
    const floor = spread(floorRounds.map((x) => x[name]));
    const perRound = rounds.map((x, i) => x[name] / floorRounds[i]![name]);
    const ratio = { ...spread(perRound), median: measured.median / floor.median };
    return { name: `${name} latency`, unit: 'ms', measured, floor, ratio, budget: `≤ ${factor}× floor`, pass: ratio.median <= factor };
  };
  notes.push(
    `chunks measured per round: ${rounds.map((x) => x.count).join(', ')}; lost: ${rounds.map((x) => x.lost).join(', ')}; ` +
      `streams not owned by B (excluded): ${rounds.map((x) => x.foreign).join(', ')}; floor messages per round: ${floorRounds.map((x) => x.count).join(', ')}`,
  );
  return {
    id: 'P1',
    what: `chunk latency runtime (instance B) → graphql-ws client on instance A via Redis, ${STREAMS} streams × ${RATE} chunks/s × ${SECONDS} s`,
    metrics: [metric('p50', 2), metric('p99', 3)],
    notes,
    details: { rounds, floorRounds: floorRounds.map((x) => ({ ...x, p50: round(x.p50, 3), p99: round(x.p99, 3) })) },
  };
};

export const crossInstanceChunkLatency: Row = {
  id: 'P1',
  name: 'cross-instance-chunk-latency',
  run,
  method: `Two instances share a fresh PostgreSQL schema and Redis, each in its own process (bench/lib/host.ts):
**B** runs every reply — its runtime records emit times; **A** serves the 200 subscribers — its queue
consumer is stopped right after start (\`parley.execution.consumer.stop()\`), so it never claims a run, and its
\`sendMessage\` kicks reach B through Redis. As a second check, every execution's \`ownerInstanceId\` is
read back and only streams owned by B are counted (the "excluded" count in the notes must be 0). 200
threads (one user each), one WebSocket + \`runEvents\` subscription per thread on A, from the bench
process. Each round sends \`/slow 3 TAG… x x …\` to all 200 threads: the demo model paces 150 chunks over
3 s, i.e. 50 chunks/s per stream, 10,000 chunks/s in total. Latency = client receive − emit time, per
chunk; p50 and p99 per round; one 1-second warm-up round is discarded.
*Floor:* a child process PUBLISHes, with ioredis, TextDelta-shaped payloads of the same size (the
ThreadEvent JSON Parley publishes, plus the emit time) on 200 channels, each paced by a
\`setTimeout(20 ms)\` chain exactly like the demo model's \`/slow\`, for 3 s; an ioredis SUBSCRIBE client in
the bench process takes the receive time first thing in its \`message\` handler. Same topology: producer
process → Redis → consumer process, minus Parley's second hop (instance A, GraphQL execution, WebSocket).
Why this method: timestamping inside the wrapper measures from the runtime boundary, so it includes
everything Parley does with a chunk (publishing it, Redis, A's subscription
stream and GraphQL execution, graphql-ws) and nothing of the demo model's own pacing timers or the
AI SDK's stream transforms, which a real provider would replace.`,
};
