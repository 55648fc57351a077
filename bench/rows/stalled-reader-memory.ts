/**
 * P9: memory a reader that stops reading can make the server hold. A round runs `/tokens 50000` on a
 * thread followed by STALLED WebSockets (subscribed, then their TCP sockets paused: they stop reading)
 * and, as the floor measured in the same round, the same run on another thread followed by as many
 * sockets that keep reading. The server's heap is collected (--expose-gc) before and after each run,
 * once the reply is recorded; the stalled sockets are still open then. Also: 1,000 subscriptions
 * sent on one socket, counting how many the server accepts and its RSS growth.
 */
import WebSocket from 'ws';
import { startHost, type BenchThread, type Host } from '../lib/hosts.ts';
import { graphqlHttp, RUN_EVENTS, sendMessage } from '../lib/clients.ts';
import { spread, sleep } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Row } from '../lib/types.ts';
import type { Spread } from '../lib/stats.ts';

/** measured ÷ floor: of the medians, and per round. */
function ratioOf(measured: Spread, floor: Spread): Spread {
  const perRound = measured.rounds.map((value, index) => value / floor.rounds[index]!);
  return { ...spread(perRound), median: measured.median / floor.median };
}

const TOKENS = 50_000;
const SOCKETS = 4;
/** Three by default; a machine that needs more than a minute per run may pass BENCH_P9_ROUNDS=2. */
const ROUNDS = Number(process.env.BENCH_P9_ROUNDS ?? 3);
const SUBSCRIPTIONS_ON_ONE_SOCKET = 1_000;
const MB = 1024 * 1024;

interface Reader {
  socket: WebSocket;
  messages: number;
  finished: boolean;
}

function openReader(wsUrl: string, token: string, threadId: string): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
    const reader: Reader = { socket, messages: 0, finished: false };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      reader.messages++;
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: RUN_EVENTS, variables: { threadId, after: null } } }));
        // The subscription answers nothing until the thread has an event: give it time to be set up.
        setTimeout(() => resolve(reader), 300);
      }
      if (message.type === 'next' && message.payload?.data?.runEvents?.__typename === 'ExecutionFinished') reader.finished = true;
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
    });
    socket.on('error', reject);
  });
}

const pause = (reader: Reader) => (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();

async function replyRecorded(host: Host, thread: BenchThread): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (host.process.exitCode !== null || host.process.signalCode !== null) throw new Error(`the server exited (${host.process.exitCode ?? host.process.signalCode})`);
    // A keep-alive connection the server has just closed answers ECONNRESET: ask again.
    const data = await graphqlHttp<{ conversation: { activeExecutionId: string | null; messages: { edges: { node: { role: string } }[] } } }>(
      host.url,
      thread.token,
      `query BenchRecorded($threadId: ID!) { conversation(threadId: $threadId) { activeExecutionId messages { edges { node { role } } } } }`,
      { threadId: thread.threadId },
    ).catch((error: Error) => {
      console.error('P9 poll failed:', error.cause ?? error);
      return null;
    });
    if (!data) {
      await sleep(100);
      continue;
    }
    const { activeExecutionId, messages } = data.conversation;
    if (activeExecutionId === null && messages.edges.at(-1)?.node.role === 'ASSISTANT') return;
    if (Date.now() > deadline) throw new Error('the reply was not recorded within 300 s');
    await sleep(100);
  }
}

/** Memory growth (bytes, after a full collection) across one run with SOCKETS followers of the thread. */
async function runWith(host: Host, thread: BenchThread, stalled: boolean, tokens = TOKENS) {
  const readers = await Promise.all(Array.from({ length: SOCKETS }, () => openReader(host.wsUrl, thread.token, thread.threadId)));
  if (stalled) readers.forEach(pause);
  const before = await host.call<NodeJS.MemoryUsage>('memory');
  const started = performance.now();
  await sendMessage(host.url, thread.token, thread.threadId, `/tokens ${tokens}`);
  await replyRecorded(host, thread);
  const runMs = performance.now() - started;
  log(`P9: ${stalled ? 'stalled' : 'reading'} run of ${tokens} tokens recorded in ${runMs.toFixed(0)} ms`);
  if (!stalled) {
    const deadline = Date.now() + 60_000;
    while (readers.some((reader) => !reader.finished) && Date.now() < deadline) await sleep(50);
  }
  await sleep(500);
  const after = await host.call<NodeJS.MemoryUsage>('memory');
  const received = readers.reduce((sum, reader) => sum + reader.messages, 0);
  readers.forEach((reader) => reader.socket.terminate());
  return { rss: after.rss - before.rss, heap: after.heapUsed + after.external - (before.heapUsed + before.external), runMs, received };
}

/** Sends SUBSCRIPTIONS_ON_ONE_SOCKET subscribe messages on one socket; counts what the server accepts. */
async function manySubscriptions(host: Host, thread: BenchThread) {
  const before = await host.call<NodeJS.MemoryUsage>('memory');
  const refused = new Set<string>();
  const socket = new WebSocket(host.wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${thread.token}` } })));
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'connection_ack') {
        for (let id = 0; id < SUBSCRIPTIONS_ON_ONE_SOCKET; id++) {
          socket.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query: RUN_EVENTS, variables: { threadId: thread.threadId, after: null } } }));
        }
        resolve();
      }
      if (message.type === 'error') refused.add(message.id);
    });
    socket.on('error', reject);
  });
  const deadline = Date.now() + 60_000;
  let last = -1;
  let unchangedFor = 0;
  // Refusals come at once; wait until their count has not changed for 3 s (the accepted ones answer nothing).
  while (Date.now() < deadline && unchangedFor < 3) {
    unchangedFor = refused.size === last ? unchangedFor + 1 : 0;
    last = refused.size;
    await sleep(1_000);
  }
  await sleep(1_000);
  const after = await host.call<NodeJS.MemoryUsage>('memory');
  socket.terminate();
  return {
    accepted: SUBSCRIPTIONS_ON_ONE_SOCKET - refused.size,
    rss: after.rss - before.rss,
    retained: after.heapUsed + after.external - (before.heapUsed + before.external),
  };
}

const run: Row['run'] = async ({ profileDir }) => {
  // The embedded server (PGlite, in-process bus): its runs are the fastest, so a stalled reader falls
  // furthest behind; on PostgreSQL + Redis a loaded machine streams slowly enough for the kernel's
  // socket buffers to absorb much of a 50,000-token reply.
  const host = await startHost({}, { cpuProf: profileDir, exposeGc: true, startTimeoutMs: 180_000 });
  const rounds: { stalledRss: number; readingRss: number; stalledHeap: number; readingHeap: number; stalledReceived: number; readingReceived: number }[] = [];
  let many = { accepted: Number.NaN, rss: Number.NaN, retained: Number.NaN };
  try {
    const threads = await host.call<BenchThread[]>('setupThreads', { count: 2 * ROUNDS + 2 });
    await runWith(host, threads.at(-1)!, false, 1_000); // warm-up: loads the code paths
    for (let r = 0; r < ROUNDS; r++) {
      const reading = await runWith(host, threads[2 * r]!, false);
      const stalled = await runWith(host, threads[2 * r + 1]!, true);
      rounds.push({
        stalledRss: stalled.rss / SOCKETS,
        readingRss: reading.rss / SOCKETS,
        stalledHeap: stalled.heap / SOCKETS,
        readingHeap: reading.heap / SOCKETS,
        stalledReceived: stalled.received / SOCKETS,
        readingReceived: reading.received / SOCKETS,
      });
      log(
        `P9 round ${r}: per stalled socket RSS ${(stalled.rss / SOCKETS / MB).toFixed(2)} MB, heap+external ${(stalled.heap / SOCKETS / MB).toFixed(2)} MB ` +
          `(reading: ${(reading.rss / SOCKETS / MB).toFixed(2)} / ${(reading.heap / SOCKETS / MB).toFixed(2)} MB); runs ${reading.runMs.toFixed(0)} / ${stalled.runMs.toFixed(0)} ms`,
      );
    }
    many = await manySubscriptions(host, threads.at(-2)!);
    log(
      `P9: ${many.accepted} of ${SUBSCRIPTIONS_ON_ONE_SOCKET} subscriptions accepted on one socket, retained +${(many.retained / MB).toFixed(1)} MB, RSS +${(many.rss / MB).toFixed(1)} MB`,
    );
  } finally {
    await host.kill();
  }
  const perSocket = spread(rounds.map((round) => (round.stalledHeap - round.readingHeap) / MB));
  return {
    id: 'P9',
    what: `memory held for readers that stop reading during a /tokens ${TOKENS} run (${SOCKETS} stalled WebSockets), and ${SUBSCRIPTIONS_ON_ONE_SOCKET} subscriptions on one socket`,
    metrics: [
      {
        name: 'memory retained per stalled socket (heap + external after a full GC), beyond a reading one',
        unit: 'MB',
        measured: perSocket,
        budget: '≤ 1 MB',
        pass: perSocket.median <= 1,
      },
      {
        name: 'memory retained per stalled socket (heap + external after a full GC)',
        unit: 'MB',
        measured: spread(rounds.map((round) => round.stalledHeap / MB)),
        floor: spread(rounds.map((round) => round.readingHeap / MB)),
        ratio: ratioOf(spread(rounds.map((round) => round.stalledHeap / MB)), spread(rounds.map((round) => round.readingHeap / MB))),
        budget: 'report',
        pass: null,
      },
      {
        name: 'RSS growth per stalled socket',
        unit: 'MB',
        measured: spread(rounds.map((round) => round.stalledRss / MB)),
        floor: spread(rounds.map((round) => round.readingRss / MB)),
        ratio: ratioOf(spread(rounds.map((round) => round.stalledRss / MB)), spread(rounds.map((round) => round.readingRss / MB))),
        budget: 'report',
        pass: null,
      },
      {
        name: `subscriptions accepted of ${SUBSCRIPTIONS_ON_ONE_SOCKET} on one socket`,
        unit: 'subscriptions',
        measured: spread([many.accepted]),
        budget: '≤ PARLEY_WS_MAX_SUBSCRIPTIONS (100)',
        pass: many.accepted <= 100,
      },
      {
        name: `memory retained with ${SUBSCRIPTIONS_ON_ONE_SOCKET} subscriptions sent on one socket (heap + external after a full GC)`,
        unit: 'MB',
        measured: spread([many.retained / MB]),
        budget: 'report',
        pass: null,
      },
    ],
    notes: [
      `messages received per reading socket: ${rounds.map((round) => round.readingReceived.toFixed(0)).join(', ')}; per stalled socket before it stopped reading: ${rounds.map((round) => round.stalledReceived.toFixed(0)).join(', ')}`,
      'the floor is the growth with as many sockets that keep reading the same run, in the same round (what the run itself leaves behind)',
      'RSS is reported but not judged: a 50,000-token run grows the heap by hundreds of MB that V8 keeps after collecting, so RSS differences between runs are noise of that size; what a stalled socket makes the server keep is the retained heap + external memory',
      `with ${SUBSCRIPTIONS_ON_ONE_SOCKET} subscriptions sent on one socket: RSS ${(many.rss / MB).toFixed(1)} MB`,
    ],
    details: { rounds, many },
  };
};

export const stalledReaderMemory: Row = {
  id: 'P9',
  name: 'stalled-reader-memory',
  run,
  method: `A host child on the embedded database (PGlite, in-process bus; its runs are the fastest, so a stalled
reader falls furthest behind), started with \`--expose-gc\`. A round: four WebSockets subscribe
(\`runEvents\`, live) to a fresh thread and keep reading while \`/tokens 50000\` runs (the floor: what the run
itself leaves behind), then four WebSockets subscribe to another fresh thread and pause their TCP sockets
(they stop reading) before the same run. Memory is read in the server after a full collection before the
run and once the reply is recorded (and, for the reading sockets, once each has received
ExecutionFinished), with the stalled sockets still open. The figure with the budget is the retained memory
(heap + external after a full collection): (stalled growth − reading growth) ÷ 4; RSS is reported too. Then 1,000 \`subscribe\` messages are sent on one socket; the server's answers are
counted (the ones beyond \`PARLEY_WS_MAX_SUBSCRIPTIONS\` are refused with \`TOO_MANY_SUBSCRIPTIONS\`) and
the retained memory is read with the accepted subscriptions still open.`,
};
