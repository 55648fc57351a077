/**
 * `node --import tsx bench/turn-statements.ts`: prints every SQL statement one `/tokens 1` turn sends
 * (sendMessage, admission, the run, the settlement) on PostgreSQL, in order, with a token already cached.
 */
import { benchDatabaseUrl, dropBenchSchemas, startHost, type BenchThread } from './lib/hosts.ts';
import { openSubscription, sendMessage } from './lib/clients.ts';
import { sleep } from './lib/stats.ts';
import type { SqlCounts } from './lib/types.ts';

const host = await startHost({ DATABASE_URL: benchDatabaseUrl('turn') }, { countSql: true });
try {
  const [thread] = await host.call<BenchThread[]>('setupThreads', { count: 1 });
  let finished = 0;
  const subscription = await openSubscription(host.wsUrl, thread!.token, `subscription ($threadId: ID!) { runEvents(threadId: $threadId) { __typename } }`, { threadId: thread!.threadId }, (_at, data) => {
    if (data.runEvents.__typename === 'ExecutionFinished') finished++;
  });
  const turn = async () => {
    const before = finished;
    await sendMessage(host.url, thread!.token, thread!.threadId, '/tokens 1');
    while (finished === before) await sleep(5);
    await sleep(300);
  };
  await turn();
  await host.call('sqlCounts', { reset: true });
  await turn();
  const counts = await host.call<SqlCounts>('sqlCounts', { reset: true });
  console.log(`${counts.total} statements, ${counts.writes} writes, ${counts.commits} commits`);
  for (const text of counts.all) console.log(`  ${text.replace(/"bench_\w+"\./g, '')}`);
  subscription.close();
} finally {
  await host.kill();
  await dropBenchSchemas();
}
