/**
 * P10: growth. P3's sendMessage and P4's first page and replay, one client at a time (the cost per
 * request, not contention), on one thread while the database grows by SQL from 1× to 10×, 100× and
 * 1,000×: 1× = 50 threads (each with one queued message) and a measured thread with 100 turns of
 * history (200 messages, 400 events); 1,000× = 50,000 threads and 100,000 turns (200,000 messages,
 * 400,000 events). The figure is the cost at 1,000× against the cost at 1× (flat = 1); the slope per
 * decade of growth is in the notes.
 */
import { benchDatabaseUrl, pgClient, startHost, type BenchThread } from '../lib/hosts.ts';
import { CONVERSATION, graphqlHttp, openSubscription, REPLAY_QUERY, sendMessage } from '../lib/clients.ts';
import { median, nowMs, spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Metric, Row } from '../lib/types.ts';

const SCALES = [1, 10, 100, 1000];
const BASE_THREADS = 50;
const BASE_TURNS = 100;
const REPLAY = 200;
const ROUNDS = 3;
const PER_ROUND = 10;

type Series = Record<'send' | 'page' | 'replay', number[][]>;

const run: Row['run'] = async ({ profileDir }) => {
  const databaseUrl = benchDatabaseUrl('p10');
  // Nothing consumes the measured thread's queue: its sends pile up there, past the default bound of 100.
  const host = await startHost({ DATABASE_URL: databaseUrl, PARLEY_MAX_QUEUED_PER_THREAD: '100000' }, { noConsumer: true, cpuProf: profileDir });
  const db = await pgClient(databaseUrl);
  const series: Series = { send: [], page: [], replay: [] };
  const seedSeconds: number[] = [];
  try {
    const [thread] = await host.call<BenchThread[]>('setupThreads', { count: 1 });
    const { rows } = await db.query<{ agentId: string }>(`SELECT "agentId" FROM thread WHERE id = $1`, [thread!.threadId]);
    const agentId = rows[0]!.agentId;
    let threads = 0;
    let turns = 0;
    const grow = async (scale: number) => {
      const started = performance.now();
      const threadsTo = BASE_THREADS * scale;
      const turnsTo = BASE_TURNS * scale;
      await db.query('BEGIN');
      await db.query(
        `WITH t AS (
           INSERT INTO thread (id, "agentId", "ownerId", kind, "updatedAt")
           SELECT gen_random_uuid()::text, $1, $2, 'TEST', now() FROM generate_series($3::int + 1, $4::int)
           RETURNING id)
         INSERT INTO queue_item (id, "threadId", "userId", text, position, "updatedAt")
         SELECT gen_random_uuid()::text, id, $2, 'waiting', 1, now() FROM t`,
        [agentId, thread!.userId, threads, threadsTo],
      );
      await db.query(
        `CREATE TEMP TABLE turns ON COMMIT DROP AS
         SELECT *, COALESCE(lag(reply_msg) OVER (ORDER BY k), (SELECT "activeLeafMessageId" FROM thread WHERE id = $3)) AS prev_reply FROM (
           SELECT k, gen_random_uuid()::text AS exec_id, gen_random_uuid()::text AS queue_id,
                  gen_random_uuid()::text AS user_msg, gen_random_uuid()::text AS reply_msg,
                  now() - make_interval(secs => $2::int - k) AS at
           FROM generate_series($1::int + 1, $2::int) AS k) AS generated`,
        [turns, turnsTo, thread!.threadId],
      );
      await db.query(
        `INSERT INTO execution (id, "threadId", "agentId", "userId", "queueItemId", status, "acceptedText", "createdAt", "startedAt", "finishedAt", "updatedAt")
         SELECT exec_id, $1, $2, $3, queue_id, 'COMPLETED', 'question ' || k, at, at, at, at FROM turns`,
        [thread!.threadId, agentId, thread!.userId],
      );
      await db.query(
        `INSERT INTO message (id, "threadId", "executionId", role, parts, "parentId", "createdAt", "updatedAt")
         SELECT CASE WHEN r = 0 THEN user_msg ELSE reply_msg END, $1, exec_id,
                (CASE WHEN r = 0 THEN 'USER' ELSE 'ASSISTANT' END)::"MessageRole",
                jsonb_build_array(jsonb_build_object('type', 'text', 'text', rpad(CASE WHEN r = 0 THEN 'question ' ELSE 'answer ' END || k, 100, ' lorem ipsum'))),
                -- One branch, as the turns made it: each question follows the answer before it.
                CASE WHEN r = 0 THEN prev_reply ELSE user_msg END, at, at
         FROM turns CROSS JOIN (VALUES (0), (1)) AS v(r) ORDER BY k, r`,
        [thread!.threadId],
      );
      // The measured thread's own events (from sendMessage) come after the seeded ones: renumber them.
      const { rows: last } = await db.query<{ seq: number }>(`SELECT "lastEventSeq" AS seq FROM thread WHERE id = $1`, [thread!.threadId]);
      await db.query(
        `INSERT INTO thread_event ("threadId", seq, type, "executionId", payload, "createdAt")
         SELECT $1, $2::int + (k - $3::int - 1) * 4 + e, t, CASE WHEN e IN (2, 4) THEN exec_id END,
                CASE e
                  WHEN 1 THEN jsonb_build_object('type', t, 'queueId', queue_id, 'text', 'question ' || k, 'idempotencyKey', null)
                  WHEN 2 THEN jsonb_build_object('type', t, 'acceptedText', 'question ' || k, 'userMessageId', user_msg, 'queueId', queue_id)
                  WHEN 3 THEN jsonb_build_object('type', t)
                  ELSE jsonb_build_object('type', t, 'status', 'COMPLETED') END,
                at
         FROM turns CROSS JOIN (VALUES (1, 'MessageQueued'), (2, 'ExecutionStarted'), (3, 'QueueUpdated'), (4, 'ExecutionFinished')) AS v(e, t)`,
        [thread!.threadId, last[0]!.seq, turns],
      );
      await db.query(
        `UPDATE thread SET "lastEventSeq" = "lastEventSeq" + $2::int * 4, "activeLeafMessageId" = (SELECT reply_msg FROM turns ORDER BY k DESC LIMIT 1) WHERE id = $1`,
        [thread!.threadId, turnsTo - turns],
      );
      await db.query('COMMIT');
      await db.query('ANALYZE thread; ANALYZE queue_item; ANALYZE message; ANALYZE thread_event; ANALYZE execution');
      threads = threadsTo;
      turns = turnsTo;
      seedSeconds.push((performance.now() - started) / 1000);
    };

    const sendOnce = async () => {
      const t = performance.now();
      await sendMessage(host.url, thread!.token, thread!.threadId, 'hello from the benchmark');
      return performance.now() - t;
    };
    const pageOnce = async () => {
      const t = performance.now();
      const data = await graphqlHttp<{ conversation: { messages: { edges: unknown[] } } }>(host.url, thread!.token, CONVERSATION, { threadId: thread!.threadId });
      if (data.conversation.messages.edges.length !== 50) throw new Error('expected 50 messages');
      return performance.now() - t;
    };
    const replayOnce = async () => {
      const { rows: last } = await db.query<{ seq: number }>(`SELECT "lastEventSeq" AS seq FROM thread WHERE id = $1`, [thread!.threadId]);
      let count = 0;
      let done: (at: number) => void = () => {};
      const finished = new Promise<number>((resolve) => (done = resolve));
      const subscription = await openSubscription(host.wsUrl, thread!.token, REPLAY_QUERY, { threadId: thread!.threadId, after: String(last[0]!.seq - REPLAY) }, (at, data) => {
        if (data.runEvents.__typename !== 'MessageSnapshot' && ++count === REPLAY) done(at);
      });
      const t0 = nowMs();
      const at = await Promise.race([finished, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('replay timed out')), 60_000))]);
      subscription.close();
      return at - t0;
    };

    for (const scale of SCALES) {
      await grow(scale);
      // The first step also warms the server up (JIT, pools, caches): 3 s of requests before it is measured.
      const warmUntil = performance.now() + (scale === SCALES[0] ? 3_000 : 300);
      while (performance.now() < warmUntil) await Promise.all([sendOnce(), pageOnce()]);
      await replayOnce();
      const level = { send: [] as number[], page: [] as number[], replay: [] as number[] };
      for (let r = 0; r < ROUNDS; r++) {
        const a: number[] = [];
        const b: number[] = [];
        for (let i = 0; i < PER_ROUND; i++) {
          a.push(await sendOnce());
          b.push(await pageOnce());
        }
        level.send.push(median(a));
        level.page.push(median(b));
        level.replay.push(await replayOnce());
      }
      series.send.push(level.send);
      series.page.push(level.page);
      series.replay.push(level.replay);
      log(`P10 ${scale}×: sendMessage ${median(level.send).toFixed(2)} ms, page ${median(level.page).toFixed(2)} ms, replay ${median(level.replay).toFixed(1)} ms (seeded in ${seedSeconds.at(-1)!.toFixed(1)} s)`);
    }
  } finally {
    await db.end();
    await host.kill();
  }
  const growth = (name: string, levels: number[][]): Metric => {
    const first = spread(levels[0]!);
    const last = spread(levels.at(-1)!);
    const ratio = { ...spread(levels.at(-1)!.map((x, i) => x / levels[0]![i]!)), median: last.median / first.median };
    return { name: `${name} at 1,000× (floor: at 1×)`, unit: 'ms', measured: last, floor: first, ratio, budget: '≤ 1.5× (flat)', pass: ratio.median <= 1.5 };
  };
  const slope = (levels: number[][]) => {
    const medians = levels.map((level) => median(level));
    const perDecade = medians.slice(1).map((value, index) => (value / medians[index]!).toFixed(2));
    return `${medians.map((value, index) => `${SCALES[index]}× ${value.toFixed(2)} ms`).join(', ')}; factor per decade ${perDecade.join(', ')}`;
  };
  return {
    id: 'P10',
    what: 'growth: sendMessage, first page and replay cost per request as threads and history grow 1× → 1,000×',
    metrics: [growth('sendMessage', series.send), growth('conversation first page', series.page), growth(`replay of ${REPLAY} events`, series.replay)],
    notes: [
      `sendMessage: ${slope(series.send)}`,
      `first page: ${slope(series.page)}`,
      `replay of ${REPLAY} events: ${slope(series.replay)}`,
      `seeding per level (s): ${seedSeconds.map((x) => x.toFixed(1)).join(', ')}`,
    ],
    details: { series, seedSeconds },
  };
};

export const costAsDataGrows: Row = {
  id: 'P10',
  name: 'cost-as-data-grows',
  run,
  method: `Growth. One host (PostgreSQL, consumer stopped) and one measured thread; the database grows by SQL
in four steps, 1× → 10× → 100× → 1,000×: 1× = 50 other threads (each with one queued message) and 100
turns of history on the measured thread (200 messages of 100 characters, 400 events, 100 executions);
1,000× = 50,000 threads and 100,000 turns (200,000 messages, 400,000 events). At each step (after
ANALYZE): 3 rounds of 10 sequential \`sendMessage\` and 10 first pages (median per round) and one replay
of the last 200 events. The figure is the cost at 1,000× over the cost at 1× (flat = 1; budget ≤ 1.5×);
the notes give every step and the factor per decade. One client at a time: the cost per request, not
contention. Seeding 1,000× takes ≈ 30 s, the whole row ≈ 70–90 s.`,
};
