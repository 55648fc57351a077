/**
 * P3: sendMessage round trip (committed: MessageQueued comes back only after COMMIT) at 50
 * concurrent clients, each sending in a loop over HTTP keep-alive. The instance's consumer is
 * stopped so that no run competes (the queue just grows). Floor: BEGIN; one-row INSERT; COMMIT
 * through `pg` on the same database, 50 concurrent workers on a pool of 10 connections (the size of
 * the server's own pool).
 */
import pg from 'pg';
import { benchDatabaseUrl, startHost, type BenchThread } from '../lib/hosts.ts';
import { sendMessage } from '../lib/clients.ts';
import { percentile, spread, sleep } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Metric, RowResult, Row } from '../lib/types.ts';

const CLIENTS = 50;
const ROUND_MS = 3_000;
const ROUNDS = 3;

async function closedLoop(durationMs: number, work: (worker: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, worker) => {
      while (performance.now() < end) {
        const started = performance.now();
        await work(worker);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

export const p3: Row = async ({ profileDir }) => {
  const databaseUrl = benchDatabaseUrl('p3');
  const host = await startHost({ DATABASE_URL: databaseUrl }, { noConsumer: true, countSql: true, cpuProf: profileDir });
  const parley: { p50: number; p99: number; count: number }[] = [];
  const floor: { p50: number; p99: number; count: number }[] = [];
  let statements: Record<string, unknown> = {};
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, options: `-c search_path="${schema}"` });
  try {
    const threads = await host.call<BenchThread[]>('setupThreads', { count: CLIENTS });
    await pool.query(
      `CREATE TABLE IF NOT EXISTS bench_floor_insert (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), thread_id text NOT NULL, text text NOT NULL, position int NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    const send = (worker: number) => sendMessage(host.url, threads[worker]!.token, threads[worker]!.threadId, 'hello from the benchmark');
    const insert = async (worker: number) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO bench_floor_insert (thread_id, text, position) VALUES ($1, $2, $3)', [
          threads[worker]!.threadId,
          'hello from the benchmark',
          worker,
        ]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    };
    await closedLoop(1_000, send);
    await closedLoop(1_000, insert);
    // Statements per sendMessage (counted in the server's pg client, host.ts BENCH_COUNT_SQL).
    await host.call('sqlCounts', { reset: true });
    for (let i = 0; i < 10; i++) await send(i);
    const counted = await host.call<{ total: number; writes: number; begins: number; commits: number; byTable: Record<string, number> }>('sqlCounts', { reset: true });
    statements = { perRequest: counted.total / 10, writesPerRequest: counted.writes / 10, transactionsPerRequest: counted.commits / 10, byTable: counted.byTable };
    // Rounds alternate so that both see the same machine noise.
    for (let r = 0; r < ROUNDS; r++) {
      const a = await closedLoop(ROUND_MS, send);
      parley.push({ p50: percentile(a, 50), p99: percentile(a, 99), count: a.length });
      await sleep(200);
      const b = await closedLoop(ROUND_MS, insert);
      floor.push({ p50: percentile(b, 50), p99: percentile(b, 99), count: b.length });
      log(`P3 round ${r}: sendMessage p50 ${parley[r]!.p50.toFixed(1)} p99 ${parley[r]!.p99.toFixed(1)} (n=${a.length}); insert p50 ${floor[r]!.p50.toFixed(1)} p99 ${floor[r]!.p99.toFixed(1)} (n=${b.length})`);
    }
  } finally {
    await pool.end();
    await host.kill();
  }
  const metric = (name: 'p50' | 'p99', factor: number | null): Metric => {
    const measured = spread(parley.map((x) => x[name]));
    const floorSpread = spread(floor.map((x) => x[name]));
    const ratio = { ...spread(parley.map((x, i) => x[name] / floor[i]![name])), median: measured.median / floorSpread.median };
    return {
      name: `sendMessage ${name}`,
      unit: 'ms',
      measured,
      floor: floorSpread,
      ratio,
      budget: factor === null ? 'report' : `≤ ${factor}× floor`,
      pass: factor === null ? null : ratio.median <= factor,
    };
  };
  return {
    id: 'P3',
    what: `sendMessage round trip (committed) at ${CLIENTS} concurrent clients`,
    metrics: [metric('p50', 3), metric('p99', null)],
    notes: [
      `SQL statements per sendMessage (server side, sequential): ${statements.perRequest} (writes ${statements.writesPerRequest}, transactions ${statements.transactionsPerRequest}); the floor transaction is 3 statements`,
      `requests per ${ROUND_MS / 1000} s round: ${parley.map((x) => x.count).join(', ')} (floor: ${floor.map((x) => x.count).join(', ')})`,
      'throughput: ' + parley.map((x) => `${Math.round(x.count / (ROUND_MS / 1000))}/s`).join(', ') + ' vs floor ' + floor.map((x) => `${Math.round(x.count / (ROUND_MS / 1000))}/s`).join(', '),
    ],
    details: { parley, floor, statements },
  };
};
