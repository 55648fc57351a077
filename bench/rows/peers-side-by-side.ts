/**
 * C2: Parley and LangGraph's JavaScript agent server side by side, driven by the same harness in
 * this process. Parley: one host on PostgreSQL + Redis (bench/lib/hosts.ts), graphql-ws `runEvents`
 * + `sendMessage`, the demo model's `/tokens <n> over <s>`. The peer: `langgraphjs dev` (in memory),
 * its SDK's `client.runs.stream(…, { streamMode: ['custom'] })`, a graph whose node streams the same
 * chunks on the same absolute schedule (bench/peers/langgraph-graph.mjs). Figures: turn start, chunk
 * lateness at 100 concurrent streams of 30 chunks/s, server CPU per turn, memory per idle streaming
 * client, and a reconnect mid-stream (lost and duplicated chunks). Rounds alternate between the two.
 *
 * BENCH_C2_QUICK=1: shorter streams and fewer clients, for a run of a few minutes.
 */
import { benchDatabaseUrl, REDIS_URL, startHost, type BenchThread, type Host } from '../lib/hosts.ts';
import { graphqlHttp, inPool, openSubscription, type WsSubscription } from '../lib/clients.ts';
import { ensureLangGraph, loadLangGraphSdk, procCpuMs, procRssKb, startLangGraph, type LangGraphClient, type PeerServer } from '../lib/peer-langgraph.ts';
import { median, nowMs, percentile, sleep, spread, type Spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Metric, Row } from '../lib/types.ts';

const QUICK = process.env.BENCH_C2_QUICK === '1';
const ROUNDS = 3;
const TURNS_PER_ROUND = QUICK ? 5 : 10;
/** Lateness: STREAMS replies of CHUNKS chunks over SECONDS (30 chunks/s), all started together. */
const STREAMS = 100;
const STREAM_SECONDS = QUICK ? 3 : 10;
const STREAM_CHUNKS = STREAM_SECONDS * 30;
/** CPU per turn: CPU_CLIENTS loops of one-chunk turns, CPU_TURNS turns per round in all. */
const CPU_CLIENTS = 20;
const CPU_TURNS = QUICK ? 40 : 200;
/** Memory: this many clients, each streaming a reply that is running but idle (its next chunk far off). */
const IDLE_CLIENTS = QUICK ? 100 : 500;
const IDLE_SECONDS = 240;
/** Reconnect: RECONNECT_STREAMS replies per round, each dropped after DROP_AFTER chunks for AWAY_MS. */
const RECONNECT_STREAMS = QUICK ? 4 : 10;
const RECONNECT_CHUNKS = 90;
const RECONNECT_SECONDS = 3;
const DROP_AFTER = 30;
const AWAY_MS = 500;
const WAIT_MS = 90_000;

const PEER_STORAGE = 'LangGraph: `langgraphjs dev`, in memory (written to a local JSON file 3 s after changes stop; nothing durable per event)';
const PARLEY_STORAGE = 'Parley: PostgreSQL + Redis';

/** The chunks of `/tokens n`: `t1 `, `t2 `, … and where each ends in the reply text. */
function chunkEnds(n: number): number[] {
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) ends.push((at += `t${i + 1} `.length));
  return ends;
}
const expectedText = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1} `).join('');

/**
 * Lateness of each chunk against its stream's absolute schedule (chunk i due i·interval after the
 * start), the start fitted to the stream's earliest chunk: arrival_i − i·interval − min_j(arrival_j − j·interval).
 * Measured at the client, the same way for both servers; no server instrumentation.
 */
function lateness(arrivals: (number | undefined)[], intervalMs: number): { late: number[]; lost: number } {
  const shifted = arrivals.map((at, i) => (at === undefined ? undefined : at - i * intervalMs));
  const anchor = Math.min(...shifted.filter((x): x is number => x !== undefined));
  return { late: shifted.filter((x): x is number => x !== undefined).map((x) => x - anchor), lost: shifted.filter((x) => x === undefined).length };
}

// ---------------------------------------------------------------- Parley side

const SEND_WITH_RETRY = /* GraphQL */ `
  mutation C2Send($threadId: ID!, $text: String!) {
    sendMessage(threadId: $threadId, text: $text) {
      __typename
      ... on ServiceUnavailableError { retryAfterS }
      ... on Error { message code }
    }
  }
`;
/** How many sendMessage calls answered SERVICE_UNAVAILABLE and were sent again. */
const unavailable = { count: 0, subscriptions: 0 };

const C2_EVENTS = /* GraphQL */ `
  subscription C2Events($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      cursor
      ... on TextDelta { text offset }
      ... on MessageSnapshot { textLength parts { __typename ... on TextPart { text } } }
      ... on ExecutionFinished { status }
    }
  }
`;

/** One thread's subscription and what it received. */
class ParleyWatch {
  subscription: WsSubscription | null = null;
  /** Arrival of the delta that completed chunk i, and how many deltas carried it. */
  arrivals: (number | undefined)[] = [];
  deliveries: number[] = [];
  /** Text by the README's client rule: a snapshot replaces it, a delta applies beyond what it has. */
  text = '';
  /** Chunks re-sent inside a snapshot that the client already had. */
  resentInSnapshot = 0;
  lastDurableCursor: string | null = null;
  finished = 0;
  started = 0;
  firstChunkAt: number | undefined;
  startedAt: number | undefined;
  errors: unknown[] = [];
  private ends: number[] = [];

  constructor(
    readonly thread: BenchThread,
    readonly host: Host,
  ) {}

  expect(n: number): void {
    this.ends = chunkEnds(n);
    this.arrivals = new Array(n).fill(undefined);
    this.deliveries = new Array(n).fill(0);
    this.text = '';
    this.resentInSnapshot = 0;
    this.firstChunkAt = undefined;
    this.startedAt = undefined;
  }

  private onEvent = (at: number, data: any) => {
    const event = data.runEvents;
    if (!event) return;
    // Durable cursors are integers; live-only ones (deltas, snapshots) carry a dot.
    if (typeof event.cursor === 'string' && !event.cursor.includes('.')) this.lastDurableCursor = event.cursor;
    switch (event.__typename) {
      case 'ExecutionStarted':
        this.started++;
        this.startedAt ??= at;
        break;
      case 'TextDelta': {
        this.firstChunkAt ??= at;
        const end = event.offset + event.text.length;
        for (let i = 0; i < this.ends.length; i++) {
          const start = i === 0 ? 0 : this.ends[i - 1]!;
          if (start >= event.offset && this.ends[i]! <= end) {
            this.deliveries[i]!++;
            this.arrivals[i] ??= at;
          }
        }
        if (end > this.text.length) this.text += event.text.slice(this.text.length - event.offset);
        break;
      }
      case 'MessageSnapshot': {
        const text = (event.parts as { __typename: string; text?: string }[]).filter((part) => part.__typename === 'TextPart').map((part) => part.text).join('');
        this.resentInSnapshot += this.ends.filter((end) => end <= Math.min(text.length, this.text.length)).length;
        this.text = text;
        break;
      }
      case 'ExecutionFinished':
        this.finished++;
        break;
      default:
        break;
    }
  };

  async open(after: string | null = null): Promise<void> {
    this.subscription = await openSubscription(this.host.wsUrl, this.thread.token, C2_EVENTS, { threadId: this.thread.threadId, after }, this.onEvent, (error) => {
      // A subscription ending with SERVICE_UNAVAILABLE is resumed from the last durable cursor after
      // retryAfterS, as the README asks of clients.
      const unavailableError = (Array.isArray(error) ? error : []).find((e: any) => e?.extensions?.code === 'SERVICE_UNAVAILABLE');
      if (!unavailableError) return void this.errors.push(error);
      unavailable.subscriptions++;
      const closing = this.subscription;
      setTimeout(() => {
        if (this.subscription !== closing) return;
        closing?.close();
        this.open(this.lastDurableCursor).catch((reopenError) => this.errors.push(reopenError));
      }, (unavailableError.extensions.retryAfterS ?? 1) * 1000);
    });
  }

  close(): void {
    this.subscription?.close();
    this.subscription = null;
  }

  /**
   * sendMessage, sent again after `retryAfterS` while it answers SERVICE_UNAVAILABLE (the database
   * saturated or unreachable), as the API asks clients to; each wait is counted in `unavailable`.
   */
  async send(text: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let result: { __typename: string; retryAfterS?: number };
      try {
        const data = await graphqlHttp<{ sendMessage: { __typename: string; retryAfterS?: number } }>(this.host.url, this.thread.token, SEND_WITH_RETRY, {
          threadId: this.thread.threadId,
          text,
        });
        result = data.sendMessage;
      } catch (error) {
        // The same answer as a GraphQL error (where the typed result could not be reached).
        const retryAfterS = /"code":"SERVICE_UNAVAILABLE","retryAfterS":(\d+(?:\.\d+)?)/.exec((error as Error).message)?.[1];
        if (retryAfterS === undefined) throw error;
        result = { __typename: 'ServiceUnavailableError', retryAfterS: Number(retryAfterS) };
      }
      if (result.__typename === 'MessageQueued') return;
      if (result.__typename !== 'ServiceUnavailableError' || attempt >= 5) throw new Error(`sendMessage: ${JSON.stringify(result)}`);
      unavailable.count++;
      await sleep((result.retryAfterS ?? 1) * 1000);
    }
  }
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(5);
  }
}

// ---------------------------------------------------------------- LangGraph side

interface PeerStream {
  arrivals: (number | undefined)[];
  /** When the graph's node wrote chunk i (its payload's `at`). */
  emits: (number | undefined)[];
  deliveries: number[];
  runId?: string;
  lastEventId?: string;
  firstChunkAt?: number;
}

/** Streams one run of the peer's graph and records each chunk's arrival; `stopAfter` drops the connection after that many chunks. */
async function peerStream(
  client: LangGraphClient,
  threadId: string,
  n: number,
  seconds: number,
  options: { stopAfter?: number; onChunk?: (stream: PeerStream) => void } = {},
): Promise<PeerStream> {
  const stream: PeerStream = { arrivals: new Array(n).fill(undefined), emits: new Array(n).fill(undefined), deliveries: new Array(n).fill(0) };
  const controller = new AbortController();
  let received = 0;
  try {
    for await (const part of client.runs.stream(threadId, 'agent', {
      input: { n, seconds },
      streamMode: ['custom'],
      // A stream that can be joined again from its last event id, with a run that goes on meanwhile.
      ...(options.stopAfter !== undefined ? { streamResumable: true, onDisconnect: 'continue' as const } : {}),
      signal: controller.signal,
      onRunCreated: ({ run_id }) => (stream.runId = run_id),
    })) {
      if (part.event !== 'custom') continue;
      const at = nowMs();
      recordPeerChunk(stream, part, at);
      options.onChunk?.(stream);
      if (options.stopAfter !== undefined && ++received >= options.stopAfter) controller.abort();
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return stream;
}

function recordPeerChunk(stream: PeerStream, part: { id?: string; data: unknown }, at: number): void {
  const { i, at: emittedAt } = part.data as { i: number; at: number };
  stream.firstChunkAt ??= at;
  stream.arrivals[i] ??= at;
  stream.emits[i] ??= emittedAt;
  stream.deliveries[i]!++;
  if (part.id) stream.lastEventId = part.id;
}

// ---------------------------------------------------------------- the row

interface Figures {
  turnStart: number[];
  lateP99: number[];
  lateP50: number[];
  lost: number[];
  startSpreadMs: number[];
  peakStreams: number[];
  /** Server and bench-process CPU (ms per second) during the lateness rounds. */
  serverCpuMsPerS: number[];
  harnessCpuMsPerS: number[];
  toStarted: number[];
  cpuPerTurn: number[];
  idleKb: number[];
  reconnectLost: number[];
  reconnectDuplicated: number[];
  resent: number[];
  idleCpuMsPerS: number;
}
const emptyFigures = (): Figures => ({
  turnStart: [],
  lateP99: [],
  lateP50: [],
  lost: [],
  startSpreadMs: [],
  peakStreams: [],
  serverCpuMsPerS: [],
  harnessCpuMsPerS: [],
  toStarted: [],
  cpuPerTurn: [],
  idleKb: [],
  reconnectLost: [],
  reconnectDuplicated: [],
  resent: [],
  idleCpuMsPerS: Number.NaN,
});

async function idleCpuMsPerS(pid: number): Promise<number> {
  const before = procCpuMs(pid);
  await sleep(3_000);
  return (procCpuMs(pid) - before) / 3;
}

async function settledRssKb(pid: number): Promise<number> {
  await sleep(2_500);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(procRssKb(pid));
    await sleep(200);
  }
  return median(samples);
}

const parleyEnv = (schema: string) => ({
  DATABASE_URL: benchDatabaseUrl(schema),
  REDIS_URL,
  // Every bench thread is in one project, 50 threads to a user: the per-project (16) and per-user
  // (8) run caps and the per-user socket cap (50) would hold the row below its load.
  PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: '100000',
  PARLEY_MAX_CONCURRENT_RUNS_PER_USER: '100000',
  PARLEY_WS_MAX_SOCKETS_PER_USER: '1000',
});

const run: Row['run'] = async () => {
  ensureLangGraph(log);
  const { Client } = await loadLangGraphSdk();
  const notes: string[] = [];
  let peerDiagnostics = '';
  const parley = emptyFigures();
  const peer = emptyFigures();

  let host = await startHost(parleyEnv('c2'));
  // Enough jobs for the 100 concurrent streams (its default of 10 would cap them at 10).
  let lg: PeerServer = await startLangGraph(STREAMS + 10);
  let lgClient = new Client({ apiUrl: lg.url });
  const watches: ParleyWatch[] = [];
  try {
    const needed = 1 + CPU_CLIENTS + STREAMS + RECONNECT_STREAMS * ROUNDS;
    const threads = await host.call<BenchThread[]>('setupThreads', { count: needed, threadsPerUser: 50 });
    const take = (() => {
      let next = 0;
      return (count: number) => threads.slice(next, (next += count)).map((thread) => new ParleyWatch(thread, host));
    })();
    const peerThreads = async (count: number) => inPool(count, 16, async () => (await lgClient.threads.create()).thread_id);
    log(`C2 Parley pid ${host.pid} (${PARLEY_STORAGE}), LangGraph pid ${lg.pid} on ${lg.url} (in memory)`);
    parley.idleCpuMsPerS = await idleCpuMsPerS(host.pid);
    peer.idleCpuMsPerS = await idleCpuMsPerS(lg.pid);

    // (a) turn start: request sent → first chunk at the client, one client, idle server.
    {
      const [watch] = take(1);
      watches.push(watch!);
      await watch!.open();
      const [peerThread] = await peerThreads(1);
      const toStarted: number[] = [];
      const parleyTurn = async () => {
        watch!.expect(1);
        const before = watch!.finished;
        const sentAt = nowMs();
        await watch!.send('/tokens 1');
        await until(() => watch!.finished > before, WAIT_MS, 'a turn of /tokens 1');
        if (watch!.firstChunkAt === undefined) throw new Error('a /tokens 1 turn streamed no chunk');
        toStarted.push(watch!.startedAt! - sentAt);
        return watch!.firstChunkAt - sentAt;
      };
      const peerTurn = async () => {
        const sentAt = nowMs();
        const stream = await peerStream(lgClient, peerThread!, 1, 0);
        if (stream.firstChunkAt === undefined) throw new Error('a peer turn streamed no chunk');
        return stream.firstChunkAt - sentAt;
      };
      for (let i = 0; i < 3; i++) {
        await parleyTurn();
        await peerTurn();
      }
      toStarted.length = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const p: number[] = [];
        const l: number[] = [];
        for (let i = 0; i < TURNS_PER_ROUND; i++) p.push(await parleyTurn());
        for (let i = 0; i < TURNS_PER_ROUND; i++) l.push(await peerTurn());
        parley.turnStart.push(median(p));
        parley.toStarted.push(median(toStarted.splice(0)));
        peer.turnStart.push(median(l));
        log(`C2 turn start round ${r}: Parley ${median(p).toFixed(1)} ms, LangGraph ${median(l).toFixed(1)} ms`);
      }
      watch!.close();
    }

    // (c) server CPU per turn: CPU_CLIENTS loops of one-chunk turns, CPU from /proc/<pid>/stat.
    {
      const loops = take(CPU_CLIENTS);
      watches.push(...loops);
      await inPool(loops.length, 16, (i) => loops[i]!.open());
      const lgLoops = await peerThreads(CPU_CLIENTS);
      const perClient = Math.ceil(CPU_TURNS / CPU_CLIENTS);
      const parleyRound = async (turns: number) => {
        const before = procCpuMs(host.pid);
        await Promise.all(
          loops.map(async (watch) => {
            for (let t = 0; t < turns; t++) {
              const done = watch.finished;
              await watch.send('/tokens 1');
              await until(() => watch.finished > done, WAIT_MS, 'a turn of /tokens 1');
            }
          }),
        );
        return (procCpuMs(host.pid) - before) / (turns * loops.length);
      };
      const peerRound = async (turns: number) => {
        const before = procCpuMs(lg.pid);
        await Promise.all(lgLoops.map(async (threadId) => {
          for (let t = 0; t < turns; t++) await peerStream(lgClient, threadId, 1, 0);
        }));
        return (procCpuMs(lg.pid) - before) / (turns * lgLoops.length);
      };
      await parleyRound(2);
      await peerRound(2);
      for (let r = 0; r < ROUNDS; r++) {
        parley.cpuPerTurn.push(await parleyRound(perClient));
        peer.cpuPerTurn.push(await peerRound(perClient));
        log(`C2 CPU per turn round ${r}: Parley ${parley.cpuPerTurn[r]!.toFixed(2)} ms, LangGraph ${peer.cpuPerTurn[r]!.toFixed(2)} ms`);
      }
      for (const watch of loops) watch.close();
    }

    // (b) chunk lateness at STREAMS concurrent streams of 30 chunks/s.
    {
      const fleet = take(STREAMS);
      watches.push(...fleet);
      await inPool(fleet.length, 16, (i) => fleet[i]!.open());
      const lgFleet = await peerThreads(STREAMS);
      const interval = (STREAM_SECONDS * 1000) / STREAM_CHUNKS;
      const summarize = (figures: Figures, streams: { arrivals: (number | undefined)[]; firstChunkAt?: number }[]) => {
        const late: number[] = [];
        let lost = 0;
        for (const stream of streams) {
          const one = lateness(stream.arrivals, interval);
          late.push(...one.late);
          lost += one.lost;
        }
        const firsts = streams.map((stream) => stream.firstChunkAt).filter((x): x is number => x !== undefined);
        figures.lateP99.push(percentile(late, 99));
        figures.lateP50.push(percentile(late, 50));
        figures.lost.push(lost);
        figures.startSpreadMs.push(Math.max(...firsts) - Math.min(...firsts));
        // The most streams that were delivering at one moment (first to last chunk at the client).
        const edges = streams.flatMap((stream) => {
          const times = stream.arrivals.filter((x): x is number => x !== undefined);
          return times.length ? [[Math.min(...times), 1], [Math.max(...times), -1]] : [];
        });
        let open = 0;
        let peak = 0;
        for (const [, step] of edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!)) peak = Math.max(peak, (open += step!));
        figures.peakStreams.push(peak);
      };
      const peerEmitLate: number[] = [];
      const peerTransit: number[] = [];
      const measured = async <T>(pid: number, figures: Figures, work: () => Promise<T>): Promise<T> => {
        const server = procCpuMs(pid);
        const harness = process.cpuUsage();
        const started = performance.now();
        const result = await work();
        const seconds = (performance.now() - started) / 1000;
        const used = process.cpuUsage(harness);
        figures.serverCpuMsPerS.push((procCpuMs(pid) - server) / seconds);
        figures.harnessCpuMsPerS.push((used.user + used.system) / 1000 / seconds);
        return result;
      };
      for (let r = 0; r < ROUNDS; r++) {
        for (const watch of fleet) watch.expect(STREAM_CHUNKS);
        const before = fleet.map((watch) => watch.finished);
        await measured(host.pid, parley, async () => {
          await inPool(fleet.length, 16, (i) => fleet[i]!.send(`/tokens ${STREAM_CHUNKS} over ${STREAM_SECONDS}`));
          await until(() => fleet.every((watch, i) => watch.finished > before[i]!), WAIT_MS, `${STREAMS} Parley streams`);
        });
        summarize(parley, fleet);
        const lgStreams = await measured(lg.pid, peer, () => Promise.all(lgFleet.map((threadId) => peerStream(lgClient, threadId, STREAM_CHUNKS, STREAM_SECONDS))));
        summarize(peer, lgStreams);
        for (const stream of lgStreams) {
          peerEmitLate.push(...lateness(stream.emits, interval).late);
          stream.arrivals.forEach((at, i) => at !== undefined && stream.emits[i] !== undefined && peerTransit.push(at - stream.emits[i]!));
        }
        log(
          `C2 lateness round ${r}: Parley p99 ${parley.lateP99[r]!.toFixed(1)} ms (lost ${parley.lost[r]}, starts within ${parley.startSpreadMs[r]!.toFixed(0)} ms), ` +
            `LangGraph p99 ${peer.lateP99[r]!.toFixed(1)} ms (lost ${peer.lost[r]}, starts within ${peer.startSpreadMs[r]!.toFixed(0)} ms)`,
        );
      }
      for (const watch of fleet) watch.close();
      peerDiagnostics = `the peer's own timing of the same rounds: its node wrote the chunks with p99 ${percentile(peerEmitLate, 99).toFixed(1)} ms lateness against the schedule (its event loop), node → client p99 ${percentile(peerTransit, 99).toFixed(1)} ms (p50 ${percentile(peerTransit, 50).toFixed(1)})`;
    }

    // (e) reconnect mid-stream: drop after DROP_AFTER chunks, stay away AWAY_MS, resume from the last event id.
    {
      for (let r = 0; r < ROUNDS; r++) {
        const group = take(RECONNECT_STREAMS);
        watches.push(...group);
        let lost = 0;
        let duplicated = 0;
        let resent = 0;
        await Promise.all(
          group.map(async (watch) => {
            watch.expect(RECONNECT_CHUNKS);
            await watch.open();
            await watch.send(`/tokens ${RECONNECT_CHUNKS} over ${RECONNECT_SECONDS}`);
            await until(() => watch.deliveries.filter((count) => count > 0).length >= DROP_AFTER, WAIT_MS, 'the chunks before the drop');
            watch.close();
            const cursor = watch.lastDurableCursor;
            await sleep(AWAY_MS);
            const done = watch.finished;
            await watch.open(cursor);
            await until(() => watch.finished > done, WAIT_MS, 'the resumed Parley stream to finish');
            watch.close();
            // The text the client rebuilt: a chunk is lost when it lacks it, duplicated when it holds it twice.
            const held = new Map<string, number>();
            for (const token of watch.text.split(' ').filter(Boolean)) held.set(token, (held.get(token) ?? 0) + 1);
            for (let i = 0; i < RECONNECT_CHUNKS; i++) if (!held.has(`t${i + 1}`)) lost++;
            for (const times of held.values()) duplicated += times - 1;
            if (watch.text !== expectedText(RECONNECT_CHUNKS) && lost + duplicated === 0) notes.push(`a resumed Parley text differs from the reply: ${JSON.stringify(watch.text.slice(0, 200))}`);
            // Deltas that carried a chunk the client already had: redelivery, dropped by the client rule.
            resent += watch.deliveries.reduce((total, times) => total + Math.max(0, times - 1), 0);
            resent += watch.resentInSnapshot;
          }),
        );
        parley.reconnectLost.push(lost);
        parley.reconnectDuplicated.push(duplicated);
        parley.resent.push(resent);
        const lgGroup = await peerThreads(RECONNECT_STREAMS);
        let lgLost = 0;
        let lgDuplicated = 0;
        await Promise.all(
          lgGroup.map(async (threadId) => {
            const stream = await peerStream(lgClient, threadId, RECONNECT_CHUNKS, RECONNECT_SECONDS, { stopAfter: DROP_AFTER });
            await sleep(AWAY_MS);
            if (!stream.runId || !stream.lastEventId) throw new Error('the peer stream gave no run id or event id before the drop');
            for await (const part of lgClient.runs.joinStream(threadId, stream.runId, { lastEventId: stream.lastEventId, streamMode: ['custom'] })) {
              if (part.event === 'custom') recordPeerChunk(stream, part, nowMs());
            }
            lgLost += stream.deliveries.filter((count) => count === 0).length;
            lgDuplicated += stream.deliveries.reduce((sum, count) => sum + Math.max(0, count - 1), 0);
          }),
        );
        peer.reconnectLost.push(lgLost);
        peer.reconnectDuplicated.push(lgDuplicated);
        log(`C2 reconnect round ${r}: Parley lost ${lost}, duplicated ${duplicated} (${resent} re-sent in snapshots); LangGraph lost ${lgLost}, duplicated ${lgDuplicated}`);
      }
    }

    // (d) memory per idle streaming client: each client streams a reply that is running, its next
    // chunk far off. Both on a fresh server, warmed by one short stream, so neither has heap to spare
    // from the rounds above.
    {
      await host.kill();
      host = await startHost(parleyEnv('c2idle'));
      const idle = (await host.call<BenchThread[]>('setupThreads', { count: IDLE_CLIENTS + 1, threadsPerUser: 50 })).map((thread) => new ParleyWatch(thread, host));
      watches.push(...idle);
      const warm = idle.pop()!;
      warm.expect(3);
      await warm.open();
      await warm.send('/tokens 3 over 0.1');
      await until(() => warm.finished > 0, WAIT_MS, 'the warm-up stream');
      warm.close();
      const before = await settledRssKb(host.pid);
      await inPool(idle.length, 16, async (i) => {
        idle[i]!.expect(2);
        await idle[i]!.open();
        await idle[i]!.send(`/tokens 2 over ${IDLE_SECONDS}`);
      });
      await until(() => idle.every((watch) => watch.arrivals[0] !== undefined), WAIT_MS, `${IDLE_CLIENTS} idle Parley streams to start`);
      const after = await settledRssKb(host.pid);
      parley.idleKb.push((after - before) / IDLE_CLIENTS);
      log(`C2 idle streaming clients: Parley RSS ${(before / 1024).toFixed(1)} → ${(after / 1024).toFixed(1)} MB for ${IDLE_CLIENTS}`);
      for (const watch of idle) watch.close();
      await host.kill();

      // The peer runs each streaming client's reply as a job: a fresh server with enough of them.
      await lg.stop();
      lg = await startLangGraph(IDLE_CLIENTS + 20);
      lgClient = new Client({ apiUrl: lg.url });
      const lgIdle = await peerThreads(IDLE_CLIENTS);
      await peerStream(lgClient, (await peerThreads(1))[0]!, 3, 0.1);
      const lgBefore = await settledRssKb(lg.pid);
      const controllers = lgIdle.map(() => new AbortController());
      const started = new Set<number>();
      const streams = lgIdle.map(async (threadId, i) => {
        try {
          for await (const part of lgClient.runs.stream(threadId, 'agent', { input: { n: 2, seconds: IDLE_SECONDS }, streamMode: ['custom'], signal: controllers[i]!.signal })) {
            if (part.event === 'custom') started.add(i);
          }
        } catch (error) {
          if (!controllers[i]!.signal.aborted) throw error;
        }
      });
      await until(() => started.size === lgIdle.length, WAIT_MS, `${IDLE_CLIENTS} idle LangGraph streams to start`);
      const lgAfter = await settledRssKb(lg.pid);
      peer.idleKb.push((lgAfter - lgBefore) / IDLE_CLIENTS);
      log(`C2 idle streaming clients: LangGraph RSS ${(lgBefore / 1024).toFixed(1)} → ${(lgAfter / 1024).toFixed(1)} MB for ${IDLE_CLIENTS}`);
      for (const controller of controllers) controller.abort();
      await Promise.allSettled(streams);
    }
  } finally {
    for (const watch of watches) watch.close();
    await lg.stop();
    await host.kill();
  }

  if (unavailable.count || unavailable.subscriptions)
    notes.push(
      `Parley answered SERVICE_UNAVAILABLE (its database pool saturated: acquire timeout 5 s) to ${unavailable.count} sendMessage calls, each sent again after its retryAfterS, and ended ${unavailable.subscriptions} subscriptions so, each resumed from its last durable cursor; the waits are inside the figures of the rounds they fell in`,
    );
  const errors = watches.flatMap((watch) => watch.errors);
  if (errors.length) notes.push(`Parley subscription errors: ${errors.length} (first: ${JSON.stringify(errors[0]).slice(0, 200)})`);
  const beside = `(${PARLEY_STORAGE}; LangGraph in memory)`;
  const compare = (name: string, unit: string, p: number[], l: number[], budget: boolean | null = true): Metric => {
    const measured = spread(p);
    const floor = spread(l);
    return {
      name: `${name} ${beside}`,
      unit,
      measured,
      floor,
      ratio: { ...spread(p.map((x, i) => x / l[i]!)), median: measured.median / floor.median },
      budget: budget === null ? 'report' : 'Parley ÷ LangGraph ≤ 1.0',
      pass: budget === null ? null : measured.median / floor.median <= 1,
    };
  };
  const count = (name: string, values: number[], budget: string): Metric => ({
    name,
    unit: 'chunks',
    measured: spread(values) as Spread,
    budget,
    pass: budget === 'report' ? null : values.every((x) => x === 0),
  });
  const list = (values: number[], digits = 1) => values.map((x) => x.toFixed(digits)).join(', ');
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  notes.push(
    `Storage: ${PARLEY_STORAGE}; ${PEER_STORAGE}. Every ratio is Parley ÷ LangGraph with that difference: Parley commits each turn and reply to PostgreSQL, the peer keeps them in its process's memory.`,
    `The "floor" column of this row is the peer (LangGraph JS ${'1.7.3'} with @langchain/langgraph-api 1.5.1, \`langgraphjs dev -n ${STREAMS + 10}\`; \`-n ${IDLE_CLIENTS + 20}\` for the idle clients), not a raw operation.`,
    `turn start (request sent → first chunk at the client, ${TURNS_PER_ROUND} turns per round, each to its end): Parley ${list(parley.turnStart)} ms (of which sent → ExecutionStarted ${list(parley.toStarted)} ms); LangGraph ${list(peer.turnStart)} ms`,
    `chunk lateness at ${STREAMS} concurrent streams of \`/tokens ${STREAM_CHUNKS} over ${STREAM_SECONDS}\` (30 chunks/s): p50 Parley ${parley.lateP50.map((x) => x.toFixed(1)).join(', ')} ms, LangGraph ${peer.lateP50.map((x) => x.toFixed(1)).join(', ')} ms; ` +
      `chunks lost Parley ${sum(parley.lost)}, LangGraph ${sum(peer.lost)}; first chunks of all ${STREAMS} streams within Parley ${parley.startSpreadMs.map((x) => x.toFixed(0)).join(', ')} ms, LangGraph ${peer.startSpreadMs.map((x) => x.toFixed(0)).join(', ')} ms; ` +
      `most streams delivering at once Parley ${list(parley.peakStreams, 0)}, LangGraph ${list(peer.peakStreams, 0)}; server CPU during the rounds Parley ${list(parley.serverCpuMsPerS, 0)} ms/s, LangGraph ${list(peer.serverCpuMsPerS, 0)} ms/s; ` +
      `the harness's own CPU Parley ${list(parley.harnessCpuMsPerS, 0)} ms/s, LangGraph ${list(peer.harnessCpuMsPerS, 0)} ms/s; ${peerDiagnostics}`,
    `server CPU per turn (${CPU_CLIENTS} loops of one-chunk turns, ${Math.ceil(CPU_TURNS / CPU_CLIENTS) * CPU_CLIENTS} turns per round; /proc/<pid>/stat of the server process only — Parley's PostgreSQL and Redis are not counted, the peer's in-memory storage is in its process): ` +
      `Parley ${parley.cpuPerTurn.map((x) => x.toFixed(2)).join(', ')} ms, LangGraph ${peer.cpuPerTurn.map((x) => x.toFixed(2)).join(', ')} ms; idle CPU before the rounds Parley ${parley.idleCpuMsPerS.toFixed(0)} ms/s, LangGraph ${peer.idleCpuMsPerS.toFixed(0)} ms/s (its ${STREAMS + 10} job workers poll)`,
    `memory per idle streaming client: ${IDLE_CLIENTS} clients, each with an open stream of a running reply whose next chunk is ${IDLE_SECONDS / 2} s away (Parley: one WebSocket + runEvents each and \`/tokens 2 over ${IDLE_SECONDS}\`; LangGraph: one runs.stream each): Parley ${parley.idleKb[0]!.toFixed(1)} KB, LangGraph ${peer.idleKb[0]!.toFixed(1)} KB (one measurement each: the figure is its own spread)`,
    `reconnect: ${RECONNECT_STREAMS} streams per round of ${RECONNECT_CHUNKS} chunks over ${RECONNECT_SECONDS} s, each dropped after ${DROP_AFTER} chunks for ${AWAY_MS} ms. Parley resubscribes \`runEvents(after: <last durable cursor>)\` and rebuilds the text by the README rule (a MessageSnapshot replaces it, a delta applies beyond what it has): lost = chunks missing from that text, duplicated = chunks carried by more than one delta; ` +
      `its snapshots re-sent ${sum(parley.resent)} chunks the client had (by design: a snapshot is the whole text so far). LangGraph: \`streamResumable: true, onDisconnect: 'continue'\`, then \`client.runs.joinStream(thread, run, { lastEventId })\`: lost = chunk events never received, duplicated = received twice.`,
  );
  return {
    id: 'C2',
    what: `Parley (PostgreSQL + Redis) and LangGraph's JS agent server (in memory) side by side, same harness${QUICK ? ' — quick mode (BENCH_C2_QUICK=1)' : ''}`,
    metrics: [
      compare('turn start p50', 'ms', parley.turnStart, peer.turnStart),
      // Lateness "at 100 streams" only counts where Parley had (nearly) all of them delivering at once.
      { ...compare(`chunk lateness p99, ${STREAMS} streams × 30 chunks/s`, 'ms', parley.lateP99, peer.lateP99), ...(Math.min(...parley.peakStreams) < 0.9 * STREAMS ? { pass: false } : {}) },
      { ...compare(`streams delivering at once (of ${STREAMS} started together)`, 'streams', parley.peakStreams, peer.peakStreams, null), budget: `≥ ${0.9 * STREAMS} for the lateness to count` },
      compare('server CPU per turn', 'ms', parley.cpuPerTurn, peer.cpuPerTurn),
      compare('RSS per idle streaming client', 'KB', parley.idleKb, peer.idleKb, null),
      count('Parley reconnect: chunks lost', parley.reconnectLost, '0'),
      count('Parley reconnect: chunks duplicated', parley.reconnectDuplicated, '0'),
      count('LangGraph reconnect: chunks lost', peer.reconnectLost, 'report'),
      count('LangGraph reconnect: chunks duplicated', peer.reconnectDuplicated, 'report'),
    ],
    notes,
    details: { quick: QUICK, parley, langgraph: peer },
  };
};

export const peersSideBySide: Row = {
  id: 'C2',
  name: 'peers-side-by-side',
  run,
  method: `Parley against LangGraph's JavaScript agent server, both driven from this process by the same harness,
rounds alternating between them. *Parley:* one host (bench/lib/hosts.ts, PostgreSQL + Redis) with the per-project,
per-user run caps and the per-user socket cap raised; one WebSocket + \`runEvents\` per thread, turns sent with
\`sendMessage\`, the demo model's \`/tokens <n> over <s>\` (chunk i due at the start + i·s/n). *The peer:*
\`@langchain/langgraph-cli\` 1.5.1 / \`@langchain/langgraph-api\` 1.5.1 / \`@langchain/langgraph\` 1.7.3 /
\`@langchain/core\` 1.4.0 / \`@langchain/langgraph-sdk\` 1.15.0, installed by the row itself from the npm registry
into bench/.peers/langgraph/ (ignored; never in the project's package.json), \`langgraphjs dev -n <jobs>\` on a free
loopback port (in memory: it has no other storage), its log level at \`error\` as Parley's is silent; the graph
(bench/peers/langgraph-graph.mjs) is one node that writes the same chunks \`t1 \`, \`t2 \`, … through
\`config.writer\` on the same absolute schedule; the client is its SDK, \`client.runs.stream(thread, 'agent',
{ streamMode: ['custom'] })\`. The peer's \`-n\` (jobs, 10 by default, which caps concurrent runs) is 110, and
\`IDLE + 20\` for the idle clients. Receive times are taken when the WebSocket message arrives (Parley) or when the
SDK yields the event (the peer). Figures, each Parley ÷ LangGraph:
(a) *turn start*: request sent (\`sendMessage('/tokens 1')\` / \`runs.stream\` with n = 1) → first chunk at the client,
one client, each turn to its end, median of 10 per round; (b) *chunk lateness*: 100 threads each start
\`/tokens 300 over 10\` at once (30 chunks/s); a chunk's lateness is its arrival − i·interval − the stream's start, the start
fitted to the stream's earliest chunk (so a late start is turn start, not lateness), p99 over all chunks of the round,
chunks never received counted as lost; the most streams delivering at once (first to last chunk at the client) is
reported beside it, and the lateness passes only where Parley had ≥ 90 of the 100 at once; (c) *server CPU per turn*: 20 loops of one-chunk turns, the server process's
utime + stime from /proc/<pid>/stat before and after ÷ turns (Parley's PostgreSQL and Redis are not counted; the peer's
storage is in its process); (d) *RSS per idle streaming client*: 500 clients each streaming a reply that is running
but idle (its second chunk 120 s away), growth of the server's VmRSS (median of 5 readings after 2.5 s) ÷ clients
(reported, no budget); (e) *reconnect*: 10 streams per round of 90 chunks over 3 s, each dropped after 30 chunks for
500 ms and resumed from the last event id — Parley's last durable cursor in \`runEvents(after:)\`, the peer's
\`lastEventId\` in \`client.runs.joinStream\` (runs created with \`streamResumable: true, onDisconnect: 'continue'\`) —
counting lost and duplicated chunks. \`BENCH_C2_QUICK=1\`: the same figures with streams of 90 chunks over 3 s, 5 turns
per turn-start round, 40 turns per CPU round, 100 idle clients and 4 reconnects per round (about 3 minutes on an idle
machine, 5 on a loaded one).`,
};
