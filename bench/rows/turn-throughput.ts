/**
 * P11: turns with the consumer running. 20 clients each send `sendMessage('/tokens 1')` to their
 * own thread back to back for a few seconds (PostgreSQL + Redis); every message is a turn the
 * instance runs meanwhile (admission, the one-token reply, the settlement). Reported: sendMessage
 * p50 against the raw BEGIN; INSERT; COMMIT floor at 20 concurrent loops, sustained turns per second
 * (all sent turns, until the last is finished), and the server's CPU milliseconds and SQL statements
 * per turn (sendMessage included).
 */
import { benchDatabaseUrl, pgClient, REDIS_URL, startHost, type BenchThread } from '../lib/hosts.ts';
import { sendMessage } from '../lib/clients.ts';
import { closedLoop, postgresFloor } from '../lib/floor.ts';
import { percentile, sleep, spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import { ratioMetric } from '../lib/ratio-metric.ts';
import type { Row, SqlCounts } from '../lib/types.ts';
import { openDatabase } from '../../src/db/database.ts';

const CLIENTS = 20;
const ROUND_MS = 4_000;
const ROUNDS = 3;

/**
 * What one statement costs the process that sends it, in CPU: the same one-row SELECT through the
 * server's Prisma client (`$queryRaw`, as every statement of a turn is sent) and through a bare pg
 * client, one after the other on one connection each, alternating in rounds.
 */
async function statementCpu(databaseUrl: string): Promise<{ prisma: number[]; pg: number[] }> {
  const database = await openDatabase({ databaseUrl, pool: { size: 1, acquireTimeoutMs: 5_000, statementTimeoutMs: 5_000 } });
  const raw = await pgClient(databaseUrl);
  const cpuUsPer = async (count: number, statement: (i: number) => Promise<unknown>) => {
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) await statement(i);
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / count;
  };
  const viaPrisma = (i: number) => database.prisma.$queryRaw`SELECT ${i}::int AS "n"`;
  const viaPg = (i: number) => raw.query('SELECT $1::int AS "n"', [i]);
  try {
    await cpuUsPer(300, viaPrisma);
    await cpuUsPer(300, viaPg);
    const result = { prisma: [] as number[], pg: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      result.prisma.push(await cpuUsPer(1_000, viaPrisma));
      result.pg.push(await cpuUsPer(1_000, viaPg));
    }
    return result;
  } finally {
    await raw.end();
    await database.close();
  }
}

const run: Row['run'] = async ({ profileDir }) => {
  const databaseUrl = benchDatabaseUrl('p11');
  const host = await startHost({ DATABASE_URL: databaseUrl, REDIS_URL }, { countSql: true, cpuProf: profileDir });
  const floorOf = await postgresFloor(databaseUrl);
  const db = await pgClient(databaseUrl);
  const rounds: { p50: number; floorP50: number; turns: number; turnsPerS: number; cpuMsPerTurn: number; statementsPerTurn: number; writesPerTurn: number }[] = [];
  let byTable: Record<string, number> = {};
  try {
    const threads = await host.call<BenchThread[]>('setupThreads', { count: CLIENTS });
    const send = (worker: number) => sendMessage(host.url, threads[worker]!.token, threads[worker]!.threadId, '/tokens 1');
    const settled = async () => {
      const { rows } = await db.query<{ open: number; done: number }>(
        `SELECT (SELECT count(*) FROM queue_item)::int + (SELECT count(*) FROM execution WHERE status = 'RUNNING')::int AS open,
                (SELECT count(*) FROM execution WHERE status <> 'RUNNING')::int AS done`,
      );
      return rows[0]!;
    };
    const drain = async () => {
      const deadline = Date.now() + 120_000;
      while ((await settled()).open > 0) {
        if (Date.now() > deadline) throw new Error('the sent turns did not finish within 120 s');
        await sleep(20);
      }
    };
    await closedLoop(CLIENTS, 1_000, send);
    await drain();
    await floorOf.closedLoop(CLIENTS, 1_000);
    for (let r = 0; r < ROUNDS; r++) {
      const doneBefore = (await settled()).done;
      await host.call('sqlCounts', { reset: true });
      const cpuBefore = await host.call<number>('cpuMs');
      const started = performance.now();
      const latencies = await closedLoop(CLIENTS, ROUND_MS, send);
      await drain();
      const elapsedS = (performance.now() - started) / 1000;
      const cpuMs = (await host.call<number>('cpuMs')) - cpuBefore;
      const counts = await host.call<SqlCounts>('sqlCounts', { reset: true });
      const turns = (await settled()).done - doneBefore;
      byTable = counts.byTable;
      await sleep(200);
      const floorLatencies = await floorOf.closedLoop(CLIENTS, ROUND_MS);
      rounds.push({
        p50: percentile(latencies, 50),
        floorP50: percentile(floorLatencies, 50),
        turns,
        turnsPerS: turns / elapsedS,
        cpuMsPerTurn: cpuMs / turns,
        statementsPerTurn: counts.total / turns,
        writesPerTurn: counts.writes / turns,
      });
      const round = rounds[r]!;
      log(`P11 round ${r}: sendMessage p50 ${round.p50.toFixed(1)} ms (floor ${round.floorP50.toFixed(1)}), ${turns} turns, ${round.turnsPerS.toFixed(1)} turns/s, ${round.cpuMsPerTurn.toFixed(1)} CPU ms and ${round.statementsPerTurn.toFixed(1)} statements per turn`);
    }
  } finally {
    await db.end();
    await floorOf.close();
    await host.kill();
  }
  const statements = await statementCpu(databaseUrl);
  const prismaMs = spread(statements.prisma).median / 1000;
  const perTurn = spread(rounds.map((x) => x.statementsPerTurn)).median;
  return {
    id: 'P11',
    what: `turns with the consumer running: ${CLIENTS} clients sending \`/tokens 1\` to their own threads back to back`,
    metrics: [
      ratioMetric('sendMessage p50 with runs', rounds.map((x) => x.p50), rounds.map((x) => x.floorP50), 3),
      { name: 'sustained turns per second', unit: 'turns/s', measured: spread(rounds.map((x) => x.turnsPerS)), budget: 'report', pass: null },
      {
        name: 'server CPU per turn',
        unit: 'ms',
        measured: spread(rounds.map((x) => x.cpuMsPerTurn)),
        budget: '≤ 4 ms',
        pass: spread(rounds.map((x) => x.cpuMsPerTurn)).median <= 4,
      },
      ratioMetric('CPU per statement sent: Prisma $queryRaw (floor: bare pg)', statements.prisma, statements.pg, null, 'µs'),
      { name: 'SQL statements per turn', unit: 'statements', measured: spread(rounds.map((x) => x.statementsPerTurn)), budget: 'report', pass: null },
      { name: 'SQL writes per turn', unit: 'statements', measured: spread(rounds.map((x) => x.writesPerTurn)), budget: 'report', pass: null },
    ],
    notes: [
      `turns per ${ROUND_MS / 1000} s round (sent, each run to its end): ${rounds.map((x) => x.turns).join(', ')}`,
      `the turn's ${perTurn.toFixed(1)} statements at ${prismaMs.toFixed(2)} ms of CPU each through Prisma: ${(perTurn * prismaMs).toFixed(1)} ms of the server's CPU per turn is the sending of its statements`,
      `writes by statement and table (last round): ${JSON.stringify(byTable)}`,
    ],
    details: { rounds },
  };
};

export const turnThroughput: Row = {
  id: 'P11',
  name: 'turn-throughput',
  run,
  method: `Turns with the consumer running. One host (PostgreSQL + Redis), 20 threads with one user each; 20
client loops each send \`sendMessage('/tokens 1')\` to their own thread back to back for 4 s, and every
message is a turn the same instance runs meanwhile (admission, a one-token reply, the settlement). After
the 4 s the row waits until every sent turn has finished. Reported per round: sendMessage p50 against
the floor (20 loops of \`BEGIN; INSERT; COMMIT\` on a pool of 10, alternating), sustained turns per
second (turns finished ÷ time from the first send to the last turn's end), and per turn the server's CPU
(process.cpuUsage) and its SQL statements and writes (sendMessage included; counted in its pg client).
Beside it, what sending one statement costs in CPU: a one-row \`SELECT\` through the server's own Prisma
client (\`openDatabase\`, \`$queryRaw\`, as the turn's statements are sent) against the same statement
through a bare pg client (the floor), 1,000 each, alternating, in the bench process.`,
};
