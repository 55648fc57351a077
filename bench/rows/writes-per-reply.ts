/**
 * P5: database writes for one reply of 1,000 streamed tokens (`/tokens 1000`), with the production
 * flush policy (250 ms / 2,000 characters). Every statement the server sends is counted in its pg
 * client (host.ts BENCH_COUNT_SQL patches pg.Client.prototype.query; Prisma's `$on('query')` does not
 * fire with driver adapters). The window runs from just before sendMessage to 500 ms after the
 * client saw ExecutionFinished, and includes the sendMessage itself and the admission; an idle
 * window of the same length (lease heartbeats, sweeps) is measured too and subtracted.
 */
import { benchDatabaseUrl, startHost, type BenchThread } from '../lib/hosts.ts';
import { openSubscription, RUN_EVENTS, sendMessage } from '../lib/clients.ts';
import { spread, sleep } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { RowResult, Row } from '../lib/types.ts';

const TOKENS = 1_000;
const ROUNDS = 3;

interface Counts {
  total: number;
  writes: number;
  begins: number;
  commits: number;
  byTable: Record<string, number>;
  texts: string[];
}

const run: Row['run'] = async ({ profileDir }) => {
  const host = await startHost({ DATABASE_URL: benchDatabaseUrl('p5') }, { countSql: true, cpuProf: profileDir });
  const rounds: { writes: number; statements: number; transactions: number; idleWrites: number; ms: number; byTable: Record<string, number>; deltas: number }[] = [];
  try {
    const [thread] = await host.call<BenchThread[]>('setupThreads', { count: 1 });
    let finished = 0;
    let deltas = 0;
    const subscription = await openSubscription(host.wsUrl, thread!.token, RUN_EVENTS, { threadId: thread!.threadId }, (_at, data) => {
      if (data.runEvents.__typename === 'ExecutionFinished') finished++;
      if (data.runEvents.__typename === 'TextDelta') deltas++;
    });
    await sleep(300);
    const reply = async () => {
      const before = finished;
      deltas = 0;
      await host.call('sqlCounts', { reset: true });
      const t = performance.now();
      await sendMessage(host.url, thread!.token, thread!.threadId, `/tokens ${TOKENS}`);
      const deadline = Date.now() + 30_000;
      while (finished === before && Date.now() < deadline) await sleep(10);
      const ms = performance.now() - t;
      await sleep(500);
      return { counts: await host.call<Counts>('sqlCounts', { reset: true }), ms: ms + 500, deltas };
    };
    await reply(); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      const { counts, ms, deltas: seen } = await reply();
      await sleep(ms);
      const idle = await host.call<Counts>('sqlCounts', { reset: true });
      rounds.push({ writes: counts.writes - idle.writes, statements: counts.total - idle.total, transactions: counts.commits, idleWrites: idle.writes, ms, byTable: counts.byTable, deltas: seen });
      log(`P5 round ${r}: ${counts.writes} writes (${idle.writes} idle), ${counts.total} statements, ${counts.commits} commits, ${seen} deltas in ${ms.toFixed(0)} ms`);
    }
    subscription.close();
  } finally {
    await host.kill();
  }
  const measured = spread(rounds.map((x) => x.writes));
  return {
    id: 'P5',
    what: `database writes (INSERT/UPDATE/DELETE statements) for one reply of ${TOKENS} streamed tokens`,
    metrics: [
      { name: `writes per ${TOKENS}-token reply`, unit: 'statements', measured, budget: '≤ 10', pass: measured.median <= 10 },
      { name: 'all statements per reply', unit: 'statements', measured: spread(rounds.map((x) => x.statements)), budget: 'report', pass: null },
      { name: 'transactions (COMMIT) per reply', unit: 'transactions', measured: spread(rounds.map((x) => x.transactions)), budget: 'report', pass: null },
    ],
    notes: [`writes by statement and table (last round): ${JSON.stringify(rounds.at(-1)?.byTable ?? {})}`, `TextDelta events received per reply: ${rounds.map((x) => x.deltas).join(', ')}`],
    details: { rounds },
  };
};

export const writesPerReply: Row = {
  id: 'P5',
  name: 'writes-per-reply',
  run,
  method: `One instance with the production flush policy (PARLEY_TEXT_FLUSH_MS=250, PARLEY_TEXT_FLUSH_CHARS=2000),
statements counted in the server's pg client. A round: reset the counters, \`sendMessage('/tokens 1000')\`
(1,000 chunks \`t1 \` … \`t1000 \`, 5,893 characters, streamed as fast as the runtime pulls), wait for
ExecutionFinished on the subscription, wait 500 ms more, read the counters; then an idle window of
the same length is counted and subtracted (it was 0). The window includes the whole turn: the
sendMessage, admission, streaming and finishing. A write is one data-modifying statement: a \`WITH\` statement
whose parts write several tables counts once, and its tables are listed in the notes.`,
};
