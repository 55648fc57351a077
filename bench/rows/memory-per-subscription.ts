/**
 * P6: resident memory per idle subscription. A `node bin/parley.js serve` child (PostgreSQL + Redis,
 * production mode); the bench process opens 10,000 WebSocket connections, each with one runEvents
 * subscription on its own idle thread (100 users × 100 threads, threads seeded with SQL). VmRSS of
 * the server is read from /proc at 0, 2,500, 5,000, 7,500 and 10,000 subscriptions after settling;
 * the figure is (RSS@10k − RSS@0) ÷ 10,000, the spread the slope of each quarter.
 *
 * BENCH_P6_HEAPSNAPSHOTS=<folder> (with BENCH_NO_WRITE=1: writing a snapshot moves RSS) also
 * writes a heap snapshot of the server at 0 subscriptions and at the last step into that folder,
 * for bench/heap-retainers.ts.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchDatabaseUrl, pgClient, REDIS_URL, startHost, type BenchThread } from '../lib/hosts.ts';
import { inPool, openSubscription, RUN_EVENTS, type WsSubscription } from '../lib/clients.ts';
import { serve } from '../lib/serve.ts';
import { median, sleep, spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Row } from '../lib/types.ts';

const TARGET = Number(process.env.BENCH_P6_SUBSCRIPTIONS ?? 10_000);
const USERS = 100;
const STEPS = 4;
/** Opening stops here (and the figure uses what was reached) so the row stays bounded on a slow machine. */
const OPEN_BUDGET_MS = Number(process.env.BENCH_P6_BUDGET_MS ?? 100_000);
/** Sockets opened at once (BENCH_P6_CONCURRENCY; fewer on a loaded machine, where 50 at once time out). */
const OPEN_CONCURRENCY = Number(process.env.BENCH_P6_CONCURRENCY ?? 50);
const SNAPSHOT_DIR = process.env.BENCH_P6_HEAPSNAPSHOTS ? resolve(process.env.BENCH_P6_HEAPSNAPSHOTS) : null;

/** Signals the server to write a heap snapshot and waits until the file is complete. */
async function heapSnapshot(pid: number, dir: string): Promise<string> {
  const existing = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await sleep(1_000);
    const written = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !existing.has(name));
    if (!written) continue;
    const size = statSync(join(dir, written)).size;
    await sleep(2_000);
    // V8 ends the file with the strings table and a closing brace; the size stops growing.
    if (size > 0 && statSync(join(dir, written)).size === size) return join(dir, written);
  }
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]);
}

async function settledRss(pid: number): Promise<number> {
  await sleep(2_500);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssKb(pid));
    await sleep(200);
  }
  return median(samples);
}

const run: Row['run'] = async () => {
  const databaseUrl = benchDatabaseUrl('p6');
  const notes: string[] = [];
  // Users, project and agent through the real directory service; threads by SQL (fast).
  const host = await startHost({ DATABASE_URL: databaseUrl });
  let threads: BenchThread[];
  try {
    const users = await host.call<BenchThread[]>('setupThreads', { count: USERS });
    const db = await pgClient(databaseUrl);
    try {
      const perUser = Math.ceil(TARGET / USERS) - 1;
      const { rows } = await db.query<{ id: string; ownerId: string }>(
        `INSERT INTO thread (id, "agentId", "ownerId", kind, title, "updatedAt")
         SELECT gen_random_uuid()::text, t."agentId", t."ownerId", 'TEST', 'idle', now()
         FROM thread t CROSS JOIN generate_series(1, ${perUser}) RETURNING id, "ownerId"`,
      );
      const tokenOf = new Map(users.map((user) => [user.userId, user.token]));
      threads = [...users, ...rows.map((row) => ({ threadId: row.id, userId: row.ownerId, token: tokenOf.get(row.ownerId)! }))].slice(0, TARGET);
    } finally {
      await db.end();
    }
  } finally {
    await host.kill();
  }
  if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const server = await serve('node', {
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    // Each user holds TARGET / USERS sockets here; the per-user cap (50 by default) would stop the row at half.
    PARLEY_WS_MAX_SOCKETS_PER_USER: String(Math.ceil(TARGET / USERS)),
    // Every socket comes from 127.0.0.1: the per-address cap (2,000 by default) would close the rest as they arrive.
    PARLEY_MAX_CONNECTIONS_PER_ADDRESS: String(TARGET + 100),
    PARLEY_MAX_CONNECTIONS: String(TARGET + 100),
    ...(SNAPSHOT_DIR ? { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOT_DIR}` } : {}),
  });
  const pid = server.child.pid!;
  const subscriptions: WsSubscription[] = [];
  const errors: unknown[] = [];
  const failedOpens: string[] = [];
  const points: { subscriptions: number; rssKb: number }[] = [];
  try {
    // Warm the code paths (auth, access, stream) with a few subscriptions, then close them.
    const warm = await inPool(50, 10, (i) => openSubscription(server.url.replace(/^http/, 'ws'), threads[i]!.token, RUN_EVENTS, { threadId: threads[i]!.threadId }, () => {}));
    await sleep(500);
    for (const subscription of warm) subscription.close();
    points.push({ subscriptions: 0, rssKb: await settledRss(pid) });
    if (SNAPSHOT_DIR) notes.push(`heap snapshot at 0 subscriptions: ${await heapSnapshot(pid, SNAPSHOT_DIR)}`);
    const wsUrl = server.url.replace(/^http/, 'ws');
    const deadline = Date.now() + OPEN_BUDGET_MS;
    for (let step = 1; step <= STEPS && Date.now() < deadline; step++) {
      const from = Math.round(((step - 1) * threads.length) / STEPS);
      const to = Math.round((step * threads.length) / STEPS);
      try {
        // A socket that fails to open (an acknowledgement later than 30 s on a loaded machine) is counted, not fatal.
        const opened = await inPool(to - from, OPEN_CONCURRENCY, async (i) =>
          Date.now() > deadline
            ? null
            : openSubscription(wsUrl, threads[from + i]!.token, RUN_EVENTS, { threadId: threads[from + i]!.threadId }, () => {}, (error) => errors.push(error)).catch(
                (error: Error) => {
                  failedOpens.push(error.message);
                  return null;
                },
              ),
        );
        subscriptions.push(...opened.filter((x): x is WsSubscription => x !== null));
      } catch (error) {
        notes.push(`opening subscriptions stopped at ${subscriptions.length}: ${(error as Error).message}`);
        break;
      }
      points.push({ subscriptions: subscriptions.length, rssKb: await settledRss(pid) });
      log(`P6 ${subscriptions.length} subscriptions: RSS ${(points.at(-1)!.rssKb / 1024).toFixed(1)} MB`);
    }
    if (SNAPSHOT_DIR) notes.push(`heap snapshot at ${subscriptions.length} subscriptions: ${await heapSnapshot(pid, SNAPSHOT_DIR)}`);
  } finally {
    for (const subscription of subscriptions) subscription.close();
    await server.stop();
  }
  if (errors.length) notes.push(`subscription errors: ${errors.length} (first: ${JSON.stringify(errors[0]).slice(0, 200)})`);
  if (failedOpens.length) notes.push(`sockets that did not open: ${failedOpens.length} (first: ${failedOpens[0]})`);
  const first = points[0]!;
  const last = points.at(-1)!;
  const perSubscriptionKb = (last.rssKb - first.rssKb) / Math.max(1, last.subscriptions);
  const slopes = points.slice(1).map((point, i) => (point.rssKb - points[i]!.rssKb) / Math.max(1, point.subscriptions - points[i]!.subscriptions));
  const measured = { ...spread(slopes), median: perSubscriptionKb };
  if (last.subscriptions < TARGET) notes.push(`only ${last.subscriptions} of ${TARGET} subscriptions were opened within the ${OPEN_BUDGET_MS / 1000} s budget (machine load); the figure is per subscription at that count`);
  notes.push(`RSS (MB) at ${points.map((p) => `${p.subscriptions}: ${(p.rssKb / 1024).toFixed(1)}`).join(', ')}; one WebSocket connection per subscription`);
  return {
    id: 'P6',
    what: `resident memory per idle subscription at ${last.subscriptions} WebSocket subscriptions (child-process server, PostgreSQL + Redis)`,
    // Too few subscriptions say nothing of what one costs: the row fails rather than pass on noise.
    metrics: [{ name: 'RSS per idle subscription', unit: 'KB', measured, budget: `≤ 20 KB (at ≥ ${TARGET / 2} subscriptions)`, pass: last.subscriptions >= TARGET / 2 && perSubscriptionKb <= 20 }],
    notes,
    details: { points },
  };
};

export const memoryPerSubscription: Row = {
  id: 'P6',
  name: 'memory-per-subscription',
  run,
  method: `A \`node bin/parley.js serve\` child (PostgreSQL + Redis), threads seeded by SQL (100 users × 100 threads,
users through the directory service). The bench process opens one WebSocket per subscription
(\`runEvents\` on its own idle thread), ${OPEN_CONCURRENCY} at a time (\`BENCH_P6_CONCURRENCY\`; a socket that fails to open is counted in the notes), in four steps; after each step it waits 2.5 s and
takes the median of five \`VmRSS\` readings of the server from /proc. The figure is
(RSS at the end − RSS before) ÷ subscriptions; the spread is the slope of each step. Before the first
reading, 50 subscriptions are opened and closed to load the code paths. \`ulimit -n\` here is 20,000
(each side needs one descriptor per connection), so 10,000 fit; opening is time-boxed (100 s) and the
row reports the count it reached. RSS includes garbage not yet collected (no GC is forced). Each bench user
holds 100 sockets here, so the server runs with \`PARLEY_WS_MAX_SOCKETS_PER_USER=100\` (the default cap of 50
stopped the row at 5,000).
*Heap by retainer:* \`BENCH_NO_WRITE=1 BENCH_P6_HEAPSNAPSHOTS=<folder> npm run bench -- P6\` starts the server
with \`--heapsnapshot-signal=SIGUSR2\` and writes a snapshot after the first reading and after the last step
(writing one moves RSS, hence no figures are recorded); \`node --max-old-space-size=8192 --import tsx
bench/heap-retainers.ts <last> <first> <subscriptions>\` computes the dominator tree of each and prints the
difference per subscription by constructor (self and retained size) and by retainer (each object charged to
its nearest dominator of a named class). Snapshots are not committed.`,
};
