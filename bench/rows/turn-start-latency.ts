/**
 * P8: turn start — from sending `sendMessage('/tokens 1')` to receiving its ExecutionStarted on a
 * subscription of the same thread, one client on an otherwise idle server with its consumer running
 * (PostgreSQL + Redis, and PGlite beside it). Each turn is waited for (ExecutionFinished) before the
 * next. Floor: one raw BEGIN; INSERT; COMMIT (bench/lib/floor.ts), measured alternately.
 */
import { benchDatabaseUrl, REDIS_URL, startHost, type BenchThread } from '../lib/hosts.ts';
import { openSubscription, sendMessage } from '../lib/clients.ts';
import { pgliteFloor, postgresFloor } from '../lib/floor.ts';
import { median, nowMs, sleep } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Row } from '../lib/types.ts';
import { ratioMetric } from '../lib/ratio-metric.ts';

const ROUNDS = 3;
const TURNS_PER_ROUND = 10;

const TURN_EVENTS = /* GraphQL */ `
  subscription BenchTurnStart($threadId: ID!) {
    runEvents(threadId: $threadId) {
      __typename
      ... on ExecutionStarted { executionId acceptedText }
      ... on ExecutionFinished { executionId status }
    }
  }
`;

async function measure(backend: 'postgres' | 'pglite', profileDir: string | undefined) {
  const databaseUrl = backend === 'postgres' ? benchDatabaseUrl('p8') : null;
  const host = await startHost(databaseUrl ? { DATABASE_URL: databaseUrl, REDIS_URL } : {}, { cpuProf: profileDir });
  const floorOf = databaseUrl ? await postgresFloor(databaseUrl) : pgliteFloor(host);
  const parley: number[] = [];
  const floor: number[] = [];
  try {
    const [thread] = await host.call<BenchThread[]>('setupThreads', { count: 1 });
    // Turns run one after the other: the turn's ExecutionStarted is the first one after its send.
    const started: number[] = [];
    let finished = 0;
    const subscription = await openSubscription(host.wsUrl, thread!.token, TURN_EVENTS, { threadId: thread!.threadId }, (at, data) => {
      const event = data.runEvents;
      if (event.__typename === 'ExecutionStarted') started.push(at);
      if (event.__typename === 'ExecutionFinished') finished++;
    });
    await sleep(300);
    const turnStart = async () => {
      const before = finished;
      const startedBefore = started.length;
      const sentAt = nowMs();
      await sendMessage(host.url, thread!.token, thread!.threadId, '/tokens 1');
      const deadline = Date.now() + 30_000;
      while ((started.length === startedBefore || finished === before) && Date.now() < deadline) await sleep(2);
      if (started.length === startedBefore) throw new Error('no ExecutionStarted for a /tokens 1 turn');
      return started[startedBefore]! - sentAt;
    };
    for (let i = 0; i < 3; i++) await turnStart();
    await floorOf.sequential(10);
    for (let r = 0; r < ROUNDS; r++) {
      const latencies: number[] = [];
      for (let i = 0; i < TURNS_PER_ROUND; i++) latencies.push(await turnStart());
      parley.push(median(latencies));
      floor.push(median(await floorOf.sequential(TURNS_PER_ROUND)));
      log(`P8 ${backend} round ${r}: turn start ${parley[r]!.toFixed(2)} ms; insert ${floor[r]!.toFixed(2)} ms`);
    }
    subscription.close();
  } finally {
    await floorOf.close();
    await host.kill();
  }
  return { parley, floor };
}

const run: Row['run'] = async ({ profileDir }) => {
  const pgRun = await measure('postgres', profileDir);
  const liteRun = await measure('pglite', profileDir);
  return {
    id: 'P8',
    what: 'turn start: sendMessage sent → ExecutionStarted at a subscribed client, one client, idle server',
    metrics: [
      ratioMetric('turn start p50 (PostgreSQL + Redis)', pgRun.parley, pgRun.floor, 5),
      ratioMetric('PGlite: turn start p50', liteRun.parley, liteRun.floor, 5),
    ],
    notes: [`medians of ${TURNS_PER_ROUND} turns per round (each \`/tokens 1\`, waited for to its ExecutionFinished) against ${TURNS_PER_ROUND} sequential raw transactions`],
    details: { postgres: pgRun, pglite: liteRun },
  };
};

export const turnStartLatency: Row = {
  id: 'P8',
  name: 'turn-start-latency',
  run,
  method: `Turn start. One host with its consumer running (PostgreSQL + Redis; then PGlite), one thread, one
client subscribed to \`runEvents\`. A turn: note the time, send \`sendMessage('/tokens 1')\`, take the
receive time of that turn's ExecutionStarted on the subscription (the time is taken first thing in the
socket's message handler), wait for its ExecutionFinished. 3 warm-up turns, then 3 rounds of 10 turns
(median per round). *Floor:* 10 sequential \`BEGIN; INSERT; COMMIT\` (bench/lib/floor.ts) after each round.`,
};
