/** The prose of BENCHMARKS.md (method per row, how to reproduce); figures come from results.json. */

export const PREAMBLE = `Every figure is the **median of several rounds** (≥ 3; P2 and P6 are time-boxed and say how many
they completed) with the **min–max spread** of the rounds. Where the issue names a floor, the floor is
measured **in the same run, alternating with or right after the Parley rounds**, on the same machine,
database and Redis, with the same client code, so that the ratio — not the absolute figure — is what
is judged. The machine is shared (2 cores; other engineers' test suites were running: see the load
average above), so absolute figures are noisy; the ratios are far more stable than the absolute values.

## Reproduce

\`\`\`sh
npm run bench                 # all rows (≈ 6–9 min on a busy 2-core machine), writes BENCHMARKS.md and bench/results.json
npm run bench -- P3           # one row (or several: P1 P4); the other rows keep their last results
npm run bench -- P1 --profile # also writes --cpu-prof profiles of the server processes to bench/profiles/<run>/
node --import tsx bench/profile-summary.ts bench/profiles/<run>/<file>.cpuprofile   # self time by package and function
npm run bench -- --render     # re-render BENCHMARKS.md from bench/results.json
\`\`\`

It needs PostgreSQL on 127.0.0.1:5432 (database \`test\`, user postgres) and Redis on 127.0.0.1:6379
(override with \`BENCH_DATABASE_URL\`, \`BENCH_REDIS_URL\`). Each row uses a fresh schema
\`bench_<run>_<row>\`, dropped at the end (also on failure, Ctrl-C and the 9.5-minute hard limit). Every
load is bounded in count and time and runs on loopback only. Server processes are the real server:
\`bench/lib/host.ts\` is \`startTestServer\` (test/support/server.ts → \`buildApp\`) in a child process with
the production values of the flush policy and consumer sweep (the test helper's defaults are test
values) and the per-user mutation rate limit raised out of the way; P6 and P7 spawn \`bin/parley.js\`.
Bench-only instrumentation lives in \`bench/\` and never in \`src/\`:

- **emit times** — the \`ParleyOverrides.runtime\` hook wraps the real \`runAgent\` and wraps its
  \`input.emit\`: the time a \`text-delta\` is handed to the listener chain (recorder → conversation log
  → live broadcaster → pub/sub) is "the chunk left the runtime". The run is identified by a tag in the
  message text (\`/slow 3 TAGp1r0s17 x x …\`), the chunk by its offset, which is exactly the TextDelta's
  \`offset\`; the client joins on (tag, offset). Clocks: \`performance.timeOrigin + performance.now()\`
  in every process (one machine, one clock).
- **SQL statements** — \`pg.Client.prototype.query\` is patched in the server process before the pool
  exists (Prisma's \`$on('query')\` does not fire with driver adapters); statements are classified as
  writes (INSERT/UPDATE/DELETE), BEGIN and COMMIT, by table.
- **clients** — a minimal graphql-ws (\`graphql-transport-ws\`) client on \`ws\`, one WebSocket per
  subscription (as browser tabs would), receive time taken first thing in the \`message\` handler;
  HTTP via \`fetch\` (keep-alive).`;

export const METHODS: Record<string, string> = {
  P1: `Two instances share a fresh PostgreSQL schema and Redis, each in its own process (bench/lib/host.ts):
**B** runs every reply — its runtime records emit times; **A** serves the 200 subscribers — its queue
consumer is stopped right after start (\`parley.consumer.stop()\`), so it never claims a run, and its
\`sendMessage\` kicks reach B through Redis. As a second check, every execution's \`ownerInstanceId\` is
read back and only streams owned by B are counted (the "excluded" count in the notes must be 0). 200
threads (one user each), one WebSocket + \`runEvents\` subscription per thread on A, from the bench
process. Each round sends \`/slow 3 TAG… x x …\` to all 200 threads: the demo model paces 150 chunks over
3 s, i.e. 50 chunks/s per stream, 10,000 chunks/s in total. Latency = client receive − emit time, per
chunk; p50 and p99 per round; one 1-second warm-up round is discarded.
*Floor:* a child process PUBLISHes, with ioredis, TextDelta-shaped payloads of the same size (the
RunEventRecord JSON Parley publishes, plus the emit time) on 200 channels, each paced by a
\`setTimeout(20 ms)\` chain exactly like the demo model's \`/slow\`, for 3 s; an ioredis SUBSCRIBE client in
the bench process takes the receive time first thing in its \`message\` handler. Same topology: producer
process → Redis → consumer process, minus Parley's second hop (instance A, GraphQL execution, WebSocket).
Why this method: timestamping inside the wrapper measures from the runtime boundary, so it includes
everything Parley does with a chunk (recording, conversation log, broadcast, Redis, A's subscription
stream and GraphQL execution, graphql-ws) and nothing of the demo model's own pacing timers or the
AI SDK's stream transforms, which a real provider would replace.`,
  P2: `One instance (PostgreSQL, in-process pub/sub — the same pub/sub as the floor), emit times recorded as in
P1, subscribers in the bench process (one WebSocket each). A ladder of concurrent streams (25, 50, 100,
200, 300, 400, 600, 800, 1000, 1200 streams × 50 chunks/s, 4 s each). A step *sustains* its load when
p99 ≤ 100 ms, no chunk is lost, and all its streams were running together for ≥ 2 s (the window runs
from the last stream's first chunk to the first stream's last chunk); its delivered events/s = chunks
emitted in that window and received ÷ the window's length: the rate at which every stream of the step
was being delivered at once. A step whose streams never all run together (runs start more slowly than
they end) does not sustain that concurrency.
A round's figure is the delivered events/s of its highest sustained step; later rounds start one step
below the previous round's best. Time-boxed (75 s Parley, 55 s floor; the number of rounds completed is in the notes).
*Floor:* the same ladder against a bare graphql-yoga + graphql-ws server wired like src/server/app.ts
(\`useServer\` + \`yoga.getEnveloped\`), one \`echo(topic)\` subscription on yoga's in-memory \`createPubSub\`,
events of the same size produced in the server process by the same \`setTimeout\` chains.`,
  P3: `A host with its queue consumer stopped (the queue just grows: no run competes with the mutation, so
this is the mutation's own cost), PostgreSQL, 50 threads with one user each. 50 client loops in the bench
process, each sending \`sendMessage\` to its own thread over HTTP (keep-alive) back to back for 3 s; the
response (MessageQueued) comes after the COMMIT. Latency per request; p50/p99 per round.
*Floor:* 50 loops doing \`BEGIN; INSERT one row (uuid, thread id, text, position, timestamp); COMMIT\`
through \`pg\` on the same database, on a pool of 10 connections — the size of the server's own pool
(src/db/database.ts \`max: 10\`), so both sides have the same number of connections. Parley and floor
rounds alternate. The number of SQL statements one \`sendMessage\` costs is counted on the server.`,
  P4: `One thread seeded by SQL in a fresh schema: 5,000 turns = 10,000 messages of 500 characters (5 MB of
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
  P5: `One instance with the production flush policy (PARLEY_TEXT_FLUSH_MS=250, PARLEY_TEXT_FLUSH_CHARS=2000),
statements counted in the server's pg client. A round: reset the counters, \`sendMessage('/tokens 1000')\`
(1,000 chunks \`t1 \` … \`t1000 \`, 5,893 characters, streamed as fast as the runtime pulls), wait for
ExecutionFinished on the subscription, wait 500 ms more, read the counters; then an idle window of
the same length is counted and subtracted (it was 0). The window includes the whole turn: the
sendMessage, admission, streaming and finishing.`,
  P6: `A \`node bin/parley.js serve\` child (PostgreSQL + Redis), threads seeded by SQL (100 users × 100 threads,
users through the directory service). The bench process opens one WebSocket per subscription
(\`runEvents\` on its own idle thread), 50 at a time, in four steps; after each step it waits 2.5 s and
takes the median of five \`VmRSS\` readings of the server from /proc. The figure is
(RSS at the end − RSS before) ÷ subscriptions; the spread is the slope of each step. Before the first
reading, 50 subscriptions are opened and closed to load the code paths. \`ulimit -n\` here is 20,000
(each side needs one descriptor per connection), so 10,000 fit; opening is time-boxed (100 s) and the
row reports the count it reached. RSS includes garbage not yet collected (no GC is forced).`,
  P7: `Embedded: \`npm start\` with \`PORT=0\` and a fresh \`PARLEY_DATA_DIR\` (PGlite initdb, migrations, demo
user/project/agent, token) from spawn to the "Parley is running" banner on stdout. PostgreSQL:
\`node bin/parley.js serve\` with a fresh schema (\`CREATE SCHEMA\`, migrations) and Redis, to the same
banner. Three rounds each; the servers are stopped with SIGTERM between rounds.`,
};

export const FINDINGS = `## Budgets missed: what stands in the way, and what to change in src/

Evidence: statement counts from the server's pg client (P3, P4, P5 notes), \`node --cpu-prof\` profiles of
the server processes (\`npm run bench -- P3 --profile\`, \`-- P1 --profile\`; summarize with
bench/profile-summary.ts). No file under src/ was changed by the benchmark work.

1. **Too many sequential SQL round trips per request (P3 sendMessage, P4 page, subscription set-up,
   P2's run start rate).** One \`sendMessage\` = **16 statements** (the floor: 3): token → user 2
   (\`userForToken\`, api_token then user), \`access.thread\` 3 (thread, agent, membership) — **done twice**
   (\`QueueService.enqueueOrAnswer\` and again in \`enqueue\`) —, open question 1, then the transaction 7
   (BEGIN, \`SELECT … FOR UPDATE\`, tail position, INSERT queue_item, UPDATE thread, INSERT thread_event,
   COMMIT), each a round trip through Prisma's client engine. The P3 profile of the server is ~40 % idle,
   ~19 % in socket writes, ~11 % in Prisma's WebAssembly query compiler and ~9 % in @prisma/client: it waits
   on serial round trips and on its 10-connection pool (held for 7 round trips per transaction), it is not
   CPU-bound. The conversation page costs 7 statements (auth 2, access 3, active execution 1, page 1).
   Fixes, in order of gain:
   - \`src/queue/queue-service.ts\` \`enqueueOrAnswer\`: pass the \`thread\` it already checked into a private
     \`enqueueChecked(user, thread, …)\` instead of calling \`enqueue\`, which runs \`access.thread\` again
     (−3 statements, ≈ −20 %).
   - \`src/auth/access.ts\` \`thread()\`: one query — \`findFirst({ where: { id, …visibleThreadsWhere },
     include: { agent: { include: { project: { select: { memberships: { where: { userId }, select: { role: true } } } } } } } })\`
     with Prisma's \`relationJoins\` preview feature (or one \`$queryRaw\` joining thread, agent, membership),
     and \`projectRole\` computed from it (−2 per access check: sendMessage −4, page −2, subscribe −2).
   - \`src/auth/tokens.ts\` \`userForToken\` (used by \`authenticate\` in src/server/app.ts): one statement
     (\`relationJoins\`/raw join) and a short-lived in-process cache keyed by token hash (e.g. 30 s, dropped
     on token revocation) (−2 per request/subscription).
   - \`src/queue/queue-service.ts\` \`insert\` + \`src/events/event-log.ts\` \`appendThreadEvents\`: one
     statement for the whole enqueue — a CTE that locks the thread, bumps \`lastEventSeq\`, inserts the
     item at \`max(position)+1\` and inserts the event (\`$queryRaw\` inside the same \`withSessionLock\`):
     the transaction goes from 7 round trips to 4 (BEGIN, lock, CTE, COMMIT), or 3 if the lock is the
     CTE's first step.
   Expected: sendMessage 16 → ~6 statements and ~half the connection hold time: p50 ≈ 2.5–3× lower
   (the ratio would still be above 3× on this machine unless Prisma's per-statement cost goes too; for
   the hot paths \`$queryRaw\`/TypedSQL avoids the query compiler). Page 7 → 3–4 statements.

2. **N+1 in the replay (P4 runEvents after: 1,000 events = 257 statements).** \`src/events/run-event-stream.ts\`,
   \`streamThreadEvents\` → \`replayed()\` calls \`recordedSnapshot()\` (one \`message.findFirst\`) for every
   replayed ExecutionFinished. Fix: after \`readThreadEvents\`, collect the executionIds of the
   ExecutionFinished events of the batch and load their replies in one query
   (\`message.findMany({ where: { executionId: { in: ids }, role: 'ASSISTANT' }, orderBy: { seq: 'desc' } })\`,
   first per execution), then yield from the map; same for the gap-filling calls. Expected: 257 → ~6
   statements and the replay from ~40× to ~2–3× the floor (the rest is GraphQL execution of 1,250
   payloads and 250 snapshots).

3. **P5: 16 writes per reply, but only 3 are the 1,000 tokens** (the three 2,000-character
   \`UPDATE message\` flushes — the batching works). The other 13 are per turn: INSERT queue_item, UPDATE
   thread ×3 + INSERT thread_event ×3 (each \`appendThreadEvents\` call: MessageQueued, ExecutionStarted +
   QueueUpdated, ExecutionFinished), INSERT execution, INSERT message ×2 (user, assistant), DELETE
   queue_item, UPDATE execution, UPDATE queue_item. (An \`INSERT instance\` in the by-table list is the
   lease heartbeat; the idle window subtracts it.) The turn is already 4 transactions (enqueue,
   admission, … , the end-of-run settlement). Fixes: (a) \`appendThreadEvents\` (src/events/event-log.ts)
   as one CTE statement (\`WITH t AS (UPDATE thread … RETURNING "lastEventSeq") INSERT INTO thread_event
   SELECT …\`): −3; (b) \`ReservationReturn.handle\` (src/execution/steering.ts) runs
   \`queueItem.updateMany\` in every root run's settlement even when nothing was ever reserved for it:
   skip it unless a reservation exists (a flag set when \`steerQueuedMessage\`/\`take\` touches the run, or
   fold it into the settlement CTE): −1; (c) insert the assistant message together with the user
   message at admission (src/execution/admission.ts, one INSERT with two rows) instead of at the first
   flush: −1; (d) in the settlement, the last text flush and the execution's final UPDATE can be one
   statement (\`UPDATE … FROM\` / CTE): −1. Expected: 16 → 10 per 1,000-token reply.

4. **P6: ~37 KB RSS per idle subscription (budget 20 KB).** Per subscription the server holds a
   WebSocket with its buffers, a graphql-ws context, a Yoga envelope and GraphQL context (with the
   Prisma \`User\` row from authentication), the \`streamThreadEvents\` async generator with its \`pump\`
   loop, buffer and pending promise, a pub/sub listener, and — with Redis — a channel subscription per
   thread; RSS also holds not-yet-collected garbage of the set-up queries (no GC is forced). What to do:
   take a heap snapshot of the server at 10,000 (\`node --heapsnapshot-signal=SIGUSR2 bin/parley.js serve\`,
   then \`kill -USR2\`) and compare retained sizes by constructor; the likely wins are (a) one pub/sub
   listener per thread topic per instance with an in-process fan-out to that thread's subscribers
   (src/events/live-bus.ts / run-event-stream.ts) instead of one Redis-event-target listener per
   subscriber, and (b) not retaining the GraphQL context and envelope of an idle subscription beyond
   what the stream needs. Both are needed to get near 20 KB; the snapshot says how much each weighs.

5. **Closed subscriptions are not released until the thread's next event** (MaxListenersExceededWarning
   "11 thread:<id> listeners" in P4, after 11 replays were closed). \`streamThreadEvents\` is an async
   generator parked in \`await new Promise(wake)\`; graphql-ws calls \`return()\` on close, which for an
   async generator is queued behind that await, so the \`finally\` (unsubscribe, \`stopResync\`) only runs
   when another event arrives on the thread — for idle threads, never. Memory and Redis channels leak
   per closed subscription. Fix in src/events/run-event-stream.ts: return an explicit AsyncIterator (or a
   \`Repeater\` from @repeaterjs/repeater, which Yoga already depends on) whose \`return()\` sets \`ended\`,
   calls \`waiter.wake?.()\` and \`subscription.return?.()\` at once, so the wait resolves and the finally runs.

6. **P1 (p50 ~10×, p99 ~16× raw Redis) and P2 (~0.17× the bare Yoga echo).** No chunk is lost and
   the p50 stays in single-digit milliseconds, but the budget is relative to one Redis hop. Profiles of
   both instances under P1 (\`npm run bench -- P1 --profile\`, 60 streams):
   - **B (runs the replies) is CPU-saturated: ~79 % busy**, of which **~26 % is Prisma** (≈14.5 % its
     WebAssembly query compiler, ≈12 % @prisma/client) plus ≈5 % \`writeUtf8String\`/≈4 % \`writev\` into
     pg — the conversation log's flushes: \`ConversationLog.flush\` (src/recording/conversation-log.ts)
     rewrites the whole \`parts\` JSON of every running reply every 250 ms through a Prisma \`update\`
     (60 runs → 240 full-JSON UPDATEs/s; the bytes sent grow with the reply, O(n²) over a long one);
     ≈15 % is the AI SDK's web streams (\`streamText\` transforms, node:internal/webstreams) and ≈2 % \`ai\`.
     A chunk emitted while the event loop is busy with a flush waits behind it: that queueing is the
     p99 tail. Fix: make the flush cheap — one \`$executeRaw\` that appends the new text
     (e.g. keep the streamed text in its own column and \`SET text = text || $delta\`, or \`jsonb_set\` of
     the last text part) instead of re-sending the whole parts array through the query compiler; and
     publish the live delta before awaiting the recorder/log listeners (src/execution/run-recording.ts
     / the listener order in src/execution/run-launcher.ts: put \`LiveBroadcaster\` first for
     \`text-delta\`, it does not depend on what the others record except \`assistantMessageId\`, which
     could be assigned at admission). Expected: p50 close to the floor + one GraphQL hop (≈2–3×), p99
     down with B's CPU.
   - **A (serves the subscribers) is ~48 % busy**: ≈10 % \`writev\` (one WebSocket write per event per
     subscriber), ≈13 % Prisma (its share of sendMessage and subscription set-up), ≈3 %
     @graphql-tools/executor, ≈1 % each graphql-ws, @repeaterjs/repeater, redis-event-target and
     run-event-stream. The GraphQL hop itself is modest; fixes 1 and 5 matter more here. Small wins:
     resolve the \`RunEvent\` union with \`resolveType\` only (drop the per-type \`isTypeOf\` closures in
     src/schema/run-events.ts) and encode the event's global ids once per event rather than per
     subscriber.
   - **P2:** the live path keeps p99 < 30 ms at every step Parley reached; what limits it is that **runs
     cannot be started fast enough for 100 streams of 4 s to run together** (16-statement sendMessage,
     plus admission's own transaction per run in src/execution/admission.ts, plus B-side flush load as
     above). Fixes 1 and the cheap flush are what raise P2; the floor itself tops out near 10,000 events/s
     on this machine (the client process is part of both).`;
