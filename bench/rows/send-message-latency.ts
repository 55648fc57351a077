/**
 * P3: sendMessage round trip (committed: MessageQueued comes back only after COMMIT) at 50
 * concurrent clients, each sending in a loop over HTTP keep-alive. The instance's consumer is
 * stopped so that no run competes (the queue just grows). Floor: BEGIN; one-row INSERT; COMMIT
 * (bench/lib/floor.ts), 50 concurrent workers. On PostgreSQL and, beside it, on PGlite.
 */
import { benchDatabaseUrl, startHost, type BenchThread } from '../lib/hosts.ts';
import { sendMessage } from '../lib/clients.ts';
import { closedLoop, pgliteFloor, postgresFloor } from '../lib/floor.ts';
import { percentile, sleep } from '../lib/stats.ts';
import { ratioMetric } from '../lib/ratio-metric.ts';
import { log } from '../lib/log.ts';
import type { Row, SqlCounts } from '../lib/types.ts';

const CLIENTS = 50;
const ROUND_MS = 3_000;
const ROUNDS = 3;

interface Round {
  p50: number;
  p99: number;
  count: number;
}

async function measure(backend: 'postgres' | 'pglite', profileDir: string | undefined) {
  const databaseUrl = backend === 'postgres' ? benchDatabaseUrl('p3') : null;
  const host = await startHost(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, { noConsumer: true, countSql: true, cpuProf: profileDir });
  const floorOf = databaseUrl ? await postgresFloor(databaseUrl) : pgliteFloor(host);
  const parley: Round[] = [];
  const floor: Round[] = [];
  let statements: Record<string, unknown> = {};
  try {
    const threads = await host.call<BenchThread[]>('setupThreads', { count: CLIENTS });
    const send = (worker: number) => sendMessage(host.url, threads[worker]!.token, threads[worker]!.threadId, 'hello from the benchmark');
    await closedLoop(CLIENTS, 1_000, send);
    await floorOf.closedLoop(CLIENTS, 1_000);
    if (backend === 'postgres') {
      // Statements per sendMessage (counted in the server's pg client, host.ts BENCH_COUNT_SQL).
      // One client, its token already looked up (the authenticator caches it for 5 s): the steady state.
      await send(0);
      await host.call('sqlCounts', { reset: true });
      for (let i = 0; i < 10; i++) await send(0);
      const counted = await host.call<SqlCounts>('sqlCounts', { reset: true });
      statements = {
        perRequest: counted.total / 10,
        writesPerRequest: counted.writes / 10,
        transactionsPerRequest: counted.commits / 10,
        byTable: counted.byTable,
        oneRequest: counted.all.slice(0, Math.round(counted.total / 10)),
      };
    }
    // Rounds alternate so that both see the same machine noise.
    for (let r = 0; r < ROUNDS; r++) {
      const a = await closedLoop(CLIENTS, ROUND_MS, send);
      parley.push({ p50: percentile(a, 50), p99: percentile(a, 99), count: a.length });
      await sleep(200);
      const b = await floorOf.closedLoop(CLIENTS, ROUND_MS);
      floor.push({ p50: percentile(b, 50), p99: percentile(b, 99), count: b.length });
      log(`P3 ${backend} round ${r}: sendMessage p50 ${parley[r]!.p50.toFixed(1)} p99 ${parley[r]!.p99.toFixed(1)} (n=${a.length}); insert p50 ${floor[r]!.p50.toFixed(1)} p99 ${floor[r]!.p99.toFixed(1)} (n=${b.length})`);
    }
  } finally {
    await floorOf.close();
    await host.kill();
  }
  return { parley, floor, statements };
}

const perSecond = (rounds: Round[]) => rounds.map((x) => `${Math.round(x.count / (ROUND_MS / 1000))}/s`).join(', ');

const run: Row['run'] = async ({ profileDir }) => {
  const pgRun = await measure('postgres', profileDir);
  const liteRun = await measure('pglite', profileDir);
  const { statements } = pgRun;
  return {
    id: 'P3',
    what: `sendMessage round trip (committed) at ${CLIENTS} concurrent clients`,
    metrics: [
      ratioMetric('sendMessage p50', pgRun.parley.map((x) => x.p50), pgRun.floor.map((x) => x.p50), 3),
      ratioMetric('sendMessage p99', pgRun.parley.map((x) => x.p99), pgRun.floor.map((x) => x.p99), null),
      ratioMetric('PGlite: sendMessage p50', liteRun.parley.map((x) => x.p50), liteRun.floor.map((x) => x.p50), 3),
      ratioMetric('PGlite: sendMessage p99', liteRun.parley.map((x) => x.p99), liteRun.floor.map((x) => x.p99), null),
    ],
    notes: [
      `SQL statements per sendMessage (server side, sequential): ${statements.perRequest} (writes ${statements.writesPerRequest}, transactions ${statements.transactionsPerRequest}); the floor transaction is 3 statements`,
      `one sendMessage's statements: ${JSON.stringify(statements.oneRequest)}`,
      `PostgreSQL requests per ${ROUND_MS / 1000} s round: ${pgRun.parley.map((x) => x.count).join(', ')} (floor: ${pgRun.floor.map((x) => x.count).join(', ')}); throughput ${perSecond(pgRun.parley)} vs floor ${perSecond(pgRun.floor)}`,
      `PGlite throughput ${perSecond(liteRun.parley)} vs floor ${perSecond(liteRun.floor)} (PGlite floor: the raw transaction inside the server process on its one connection, no HTTP)`,
    ],
    details: { postgres: pgRun, pglite: liteRun },
  };
};

export const sendMessageLatency: Row = {
  id: 'P3',
  name: 'send-message-latency',
  run,
  method: `A host with its queue consumer stopped (the queue just grows: no run competes with the mutation, so
this is the mutation's own cost), PostgreSQL, 50 threads with one user each. 50 client loops in the bench
process, each sending \`sendMessage\` to its own thread over HTTP (keep-alive) back to back for 3 s; the
response (MessageQueued) comes after the COMMIT. Latency per request; p50/p99 per round.
*Floor:* 50 loops doing \`BEGIN; INSERT one row (uuid, thread id, text, position, timestamp); COMMIT\`
through \`pg\` on the same database, on a pool of 10 connections — the size of the server's own pool
(src/db/database.ts \`max: 10\`), so both sides have the same number of connections. Parley and floor
rounds alternate. The number of SQL statements one \`sendMessage\` costs is counted on the server (one
client sending 10 in a row, its token already in the authenticator's 5-second cache).
*PGlite, beside it:* the same on an embedded host; its floor is the same transaction run inside the host
process on its one PGlite connection (bench/lib/floor.ts), so it has no HTTP in it at all.`,
};
