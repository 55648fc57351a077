/**
 * P4: reads of a long thread — 10,000 messages (5,000 turns, 500 characters each: 5 MB of text)
 * and 20,000 durable events (the four a real turn appends: MessageQueued, ExecutionStarted,
 * QueueUpdated, ExecutionFinished), seeded with SQL.
 *  a) `conversation(threadId) { messages(first: 50) }` over HTTP vs the equivalent hand-written SQL
 *     (the page with its access check, one statement through pg);
 *  b) `runEvents(after)` replay of the last 1,000 durable events over graphql-ws (subscribe → 1,000th
 *     event) vs one SQL statement returning the same events plus the recorded reply of each finished
 *     execution (what the replay sends with each ExecutionFinished).
 */
import { benchDatabaseUrl, pgClient, startHost, type BenchThread } from '../lib/hosts.ts';
import { CONVERSATION, graphqlHttp, openSubscription, REPLAY_QUERY } from '../lib/clients.ts';
import { median, spread, nowMs } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Metric, RowResult, Row } from '../lib/types.ts';

const TURNS = 5_000;
const TEXT_CHARS = 500;
const REPLAY = 1_000;
const ROUNDS = 3;
const PER_ROUND = 15;
const REPLAYS_PER_ROUND = 3;


async function seed(databaseUrl: string, thread: BenchThread) {
  const db = await pgClient(databaseUrl);
  try {
    const { rows } = await db.query<{ agentId: string }>(`SELECT "agentId" FROM thread WHERE id = $1`, [thread.threadId]);
    const agentId = rows[0]!.agentId;
    await db.query('BEGIN');
    await db.query(
      `CREATE TEMP TABLE turns ON COMMIT DROP AS
       SELECT *, lag(reply_msg) OVER (ORDER BY k) AS prev_reply FROM (
         SELECT k, gen_random_uuid()::text AS exec_id, gen_random_uuid()::text AS queue_id,
                gen_random_uuid()::text AS user_msg, gen_random_uuid()::text AS reply_msg,
                now() - make_interval(secs => ${TURNS} - k) AS at
         FROM generate_series(1, ${TURNS}) AS k) AS generated`,
    );
    await db.query(
      `INSERT INTO execution (id, "threadId", "agentId", "userId", "queueItemId", status, "ownerInstanceId", "acceptedText",
                              "outputTokens", "createdAt", "startedAt", "finishedAt", "updatedAt")
       SELECT exec_id, $1, $2, $3, queue_id, 'COMPLETED', 'bench-seed', 'question ' || k, 100, at, at, at, at FROM turns`,
      [thread.threadId, agentId, thread.userId],
    );
    const body = (prefix: string) =>
      `jsonb_build_array(jsonb_build_object('type', 'text', 'text', rpad(${prefix} || k || ' ', ${TEXT_CHARS}, 'lorem ipsum dolor sit amet ')))`;
    await db.query(
      `INSERT INTO message (id, "threadId", "executionId", role, parts, "parentId", "activeSeq", "createdAt", "updatedAt")
       SELECT CASE WHEN r = 0 THEN user_msg ELSE reply_msg END, $1, exec_id,
              (CASE WHEN r = 0 THEN 'USER' ELSE 'ASSISTANT' END)::"MessageRole",
              CASE WHEN r = 0 THEN ${body("'question '")} ELSE ${body("'answer '")} END,
              -- One branch, as the turns made it: each question follows the answer before it.
              CASE WHEN r = 0 THEN prev_reply ELSE user_msg END, (k - 1) * 4 + 2, at, at
       FROM turns CROSS JOIN (VALUES (0), (1)) AS v(r) ORDER BY k, r`,
      [thread.threadId],
    );
    await db.query(
      `INSERT INTO thread_event ("threadId", seq, type, "executionId", payload, "createdAt")
       SELECT $1, (k - 1) * 4 + e, t, CASE WHEN e IN (2, 4) THEN exec_id END,
              CASE e
                WHEN 1 THEN jsonb_build_object('type', t, 'queueId', queue_id, 'text', 'question ' || k, 'idempotencyKey', null)
                WHEN 2 THEN jsonb_build_object('type', t, 'acceptedText', 'question ' || k, 'userMessageId', user_msg, 'queueId', queue_id)
                WHEN 3 THEN jsonb_build_object('type', t)
                ELSE jsonb_build_object('type', t, 'status', 'COMPLETED') END,
              at
       FROM turns CROSS JOIN (VALUES (1, 'MessageQueued'), (2, 'ExecutionStarted'), (3, 'QueueUpdated'), (4, 'ExecutionFinished')) AS v(e, t)`,
      [thread.threadId],
    );
    await db.query(
      `UPDATE thread SET "lastEventSeq" = ${TURNS * 4}, "activeLeafMessageId" = (SELECT reply_msg FROM turns WHERE k = ${TURNS}) WHERE id = $1`,
      [thread.threadId],
    );
    await db.query('COMMIT');
    await db.query('ANALYZE message; ANALYZE thread_event; ANALYZE execution');
    const size = await db.query<{ chars: string }>(`SELECT sum(length(parts::text))::text AS chars FROM message WHERE "threadId" = $1`, [thread.threadId]);
    return { agentId, jsonChars: Number(size.rows[0]!.chars) };
  } finally {
    await db.end();
  }
}

const run: Row['run'] = async ({ profileDir }) => {
  const databaseUrl = benchDatabaseUrl('p4');
  const host = await startHost({ DATABASE_URL: databaseUrl }, { noConsumer: true, countSql: true, cpuProf: profileDir });
  const db = await pgClient(databaseUrl);
  const page = { parley: [] as number[], floor: [] as number[] };
  const replay = { parley: [] as number[], floor: [] as number[] };
  let statements: Record<string, number> = {};
  let seeded: Record<string, unknown> = {};
  try {
    const [thread] = await host.call<BenchThread[]>('setupThreads', { count: 1 });
    seeded = await seed(databaseUrl, thread!);
    log(`P4 seeded ${TURNS * 2} messages (${seeded.jsonChars} chars of parts JSON), ${TURNS * 4} events`);
    const after = String(TURNS * 4 - REPLAY);

    const pageOnce = async () => {
      const t = performance.now();
      const data = await graphqlHttp<{ conversation: { messages: { edges: unknown[] } } }>(host.url, thread!.token, CONVERSATION, {
        threadId: thread!.threadId,
      });
      if (data.conversation.messages.edges.length !== 50) throw new Error('expected 50 messages');
      return performance.now() - t;
    };
    const pageSql = async () => {
      const t = performance.now();
      const result = await db.query(
        `SELECT m.id, m.role, m.parts, m."createdAt", t."lastEventSeq"
         FROM thread t
         JOIN agent a ON a.id = t."agentId"
         JOIN membership ms ON ms."projectId" = a."projectId" AND ms."userId" = $2
         JOIN message m ON m."threadId" = t.id
         WHERE t.id = $1 AND (t.kind = 'SHARED' OR t."ownerId" = $2)
         ORDER BY m.seq ASC LIMIT 51`,
        [thread!.threadId, thread!.userId],
      );
      if (result.rows.length !== 51) throw new Error('expected 51 rows');
      return performance.now() - t;
    };
    const replayOnce = async () => {
      let count = 0;
      let t0 = 0;
      let done: (at: number) => void = () => {};
      const finished = new Promise<number>((resolve) => (done = resolve));
      const subscription = await openSubscription(
        host.wsUrl.replace('/graphql', '/graphql'),
        thread!.token,
        REPLAY_QUERY,
        { threadId: thread!.threadId, after },
        (at, data) => {
          if (data.runEvents.__typename !== 'MessageSnapshot' && ++count === REPLAY) done(at);
        },
      );
      t0 = nowMs();
      const at = await Promise.race([finished, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('replay timed out')), 60_000))]);
      subscription.close();
      return at - t0;
    };
    const replaySql = async () => {
      const t = performance.now();
      const result = await db.query(
        `SELECT e.seq, e.type, e."executionId", e.payload, e."createdAt", m.id AS "messageId", m.parts
         FROM thread_event e
         LEFT JOIN LATERAL (
           SELECT id, parts FROM message
           WHERE e.type = 'ExecutionFinished' AND "executionId" = e."executionId" AND role = 'ASSISTANT'
           ORDER BY seq DESC LIMIT 1) m ON true
         WHERE e."threadId" = $1 AND e.seq > $2 ORDER BY e.seq`,
        [thread!.threadId, Number(after)],
      );
      if (result.rows.length !== REPLAY) throw new Error(`expected ${REPLAY} events, got ${result.rows.length}`);
      return performance.now() - t;
    };

    // Warm-up, and the statements each read costs the server.
    for (let i = 0; i < 3; i++) await Promise.all([pageOnce(), pageSql()]);
    await replayOnce();
    await replaySql();
    await host.call('sqlCounts', { reset: true });
    await pageOnce();
    statements.conversationPage = (await host.call<{ total: number }>('sqlCounts', { reset: true })).total;
    await replayOnce();
    statements.replay1000 = (await host.call<{ total: number }>('sqlCounts', { reset: true })).total;

    for (let r = 0; r < ROUNDS; r++) {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < PER_ROUND; i++) {
        a.push(await pageOnce());
        b.push(await pageSql());
      }
      page.parley.push(median(a));
      page.floor.push(median(b));
      const c: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < REPLAYS_PER_ROUND; i++) {
        c.push(await replayOnce());
        d.push(await replaySql());
      }
      replay.parley.push(median(c));
      replay.floor.push(median(d));
      log(`P4 round ${r}: page ${page.parley[r]!.toFixed(1)} vs ${page.floor[r]!.toFixed(1)} ms; replay ${replay.parley[r]!.toFixed(1)} vs ${replay.floor[r]!.toFixed(1)} ms`);
    }
  } finally {
    await db.end();
    await host.kill();
  }
  const metric = (name: string, series: { parley: number[]; floor: number[] }): Metric => {
    const measured = spread(series.parley);
    const floor = spread(series.floor);
    const ratio = { ...spread(series.parley.map((x, i) => x / series.floor[i]!)), median: measured.median / floor.median };
    return { name, unit: 'ms', measured, floor, ratio, budget: '≤ 2× floor', pass: ratio.median <= 2 };
  };
  return {
    id: 'P4',
    what: `conversation first page (50 of ${TURNS * 2} messages, 5 MB text) and runEvents(after) replay of ${REPLAY} durable events`,
    metrics: [metric('conversation first page', page), metric(`runEvents replay of ${REPLAY} events`, replay)],
    notes: [
      `medians of ${PER_ROUND} sequential requests (page) and ${REPLAYS_PER_ROUND} replays per round; the floor runs on an open pg connection from the bench process`,
      `server-side SQL statements: conversation page ${statements.conversationPage}, replay of ${REPLAY} events ${statements.replay1000} (the floor: 1 statement each)`,
    ],
    details: { seeded, statements, page, replay },
  };
};

export const longThreadReads: Row = {
  id: 'P4',
  name: 'long-thread-reads',
  run,
  method: `One thread seeded by SQL in a fresh schema: 5,000 turns = 10,000 messages of 500 characters (5 MB of
text), 5,000 COMPLETED executions, and 20,000 durable events — the four a real turn appends
(MessageQueued, ExecutionStarted, QueueUpdated, ExecutionFinished: src/queue/queue-service.ts,
src/execution/admission.ts, src/recording/live-broadcaster.ts), with the payloads Parley writes.
(a) \`conversation(threadId) { eventCursor activeExecutionId messages(first: 50) { … parts … } }\` over HTTP,
15 sequential requests per round, median; *floor:* one hand-written statement through \`pg\` returning
the same page with the same access check (thread ⋈ agent ⋈ membership, TEST threads only for their
owner, ORDER BY seq LIMIT 51).
(b) \`runEvents(threadId, after: <seq of the 19,000th event>)\` over graphql-ws: from sending the subscribe
(connection already acknowledged) to receiving the 1,000th durable event (MessageSnapshots not counted),
3 per round, median; *floor:* one statement returning the same 1,000 events plus, for each
ExecutionFinished, the recorded reply (what the replay sends with it) via LEFT JOIN LATERAL.`,
};
