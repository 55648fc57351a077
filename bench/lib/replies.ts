/**
 * The client harness of paced replies (C1, P2): one WebSocket subscriber per thread, replies of
 * `/tokens n over s` sent over HTTP, and the server's own record of when each chunk left its
 * runtime (`emitsByTag`: host.ts for Parley, sdk-server.ts for the AI SDK floor). The same code
 * drives every server it is pointed at, so their figures differ by the server only.
 *
 * Two lateness measures per chunk:
 *   - from its emit: arrival − the moment the server's runtime handed the chunk on;
 *   - from its schedule: arrival − the moment the model had it due (the stream's start plus
 *     i·interval). A server whose event loop is saturated also emits late (its timers and stream
 *     stages run late), and then a reply is stretched: its chunks arrive soon after they were
 *     emitted but seconds after they were due. Only the schedule's lateness sees that, so a step
 *     is judged by it. The start is recovered from the emits: min over i of (emit_i − i·interval),
 *     as no chunk leaves before it is due.
 */
import { inPool, openSubscription, sendMessage, type WsSubscription } from './clients.ts';
import { sleep } from './stats.ts';
import { measured } from './process-usage.ts';

/** Receives of one stream: [offset, length, arrival] of each delta, in arrival order. */
export type Receives = [number, number, number][];

export interface Joined {
  /** Arrival − emit, per chunk that arrived. */
  lateness: number[];
  /** Arrival − due (the schedule), per chunk that arrived. */
  dueLateness: number[];
  emittedAt: number[];
  lost: number;
  /** Last emit − first emit: how long the reply took to leave the server. */
  durationMs: number;
}

/**
 * Joins one stream's emits ([offset, emittedAt, …] flat, in emit order) with its receives: a chunk
 * arrives with the first delta that covers its offset (deltas within a delta window go out joined).
 */
export function joinStream(emits: number[], receives: Receives, intervalMs: number): Joined {
  const sorted = [...receives].sort((a, b) => a[0] - b[0]);
  let start = Infinity;
  for (let i = 0; i < emits.length; i += 2) start = Math.min(start, emits[i + 1]! - (i / 2) * intervalMs);
  const lateness: number[] = [];
  const dueLateness: number[] = [];
  const emittedAt: number[] = [];
  let lost = 0;
  let j = 0;
  for (let i = 0; i < emits.length; i += 2) {
    const offset = emits[i]!;
    while (j < sorted.length && sorted[j]![0] + sorted[j]![1] <= offset) j++;
    const receive = sorted[j];
    if (!receive || receive[0] > offset) {
      lost++;
      continue;
    }
    lateness.push(receive[2] - emits[i + 1]!);
    dueLateness.push(receive[2] - (start + (i / 2) * intervalMs));
    emittedAt.push(emits[i + 1]!);
  }
  const durationMs = emits.length >= 4 ? emits.at(-1)! - emits[1]! : 0;
  return { lateness, dueLateness, emittedAt, lost, durationMs };
}

/**
 * The chunks emitted while every stream was emitting (from the last stream's first chunk to the
 * first stream's last chunk), their lateness of both kinds, and that window's length.
 */
export function windowed(streams: Joined[]) {
  const firsts = streams.map((stream) => stream.emittedAt[0] ?? Infinity);
  const lasts = streams.map((stream) => stream.emittedAt.at(-1) ?? -Infinity);
  const start = Math.max(...firsts);
  const end = Math.min(...lasts);
  // A stream that emitted nothing has no first chunk: its absence is a loss, not a start.
  const started = firsts.filter(Number.isFinite);
  const inside: number[] = [];
  const insideDue: number[] = [];
  const all: number[] = [];
  for (const stream of streams) {
    stream.lateness.forEach((value, index) => {
      all.push(value);
      const at = stream.emittedAt[index]!;
      if (at >= start && at <= end) {
        inside.push(value);
        insideDue.push(stream.dueLateness[index]!);
      }
    });
  }
  return {
    inside,
    insideDue,
    all,
    overlapMs: Number.isFinite(end - start) ? Math.max(0, end - start) : 0,
    windowStart: start,
    windowEnd: end,
    firstEmit: Math.min(...started),
    lastFirstEmit: started.length ? Math.max(...started) : Number.NaN,
  };
}

/** A server the harness drives: Parley's host (host.ts) or the AI SDK floor (sdk-server.ts); both answer these IPC commands. */
export interface ReplyServer {
  pid: number;
  url: string;
  wsUrl: string;
  call<T = unknown>(cmd: string, args?: unknown): Promise<T>;
}

export interface ReplyThread {
  threadId: string;
  token: string;
  tag?: string;
}

/** What one step of N replies left behind, before any verdict. */
export interface ReplyStepRaw {
  streams: Joined[];
  /** Per stream: chunks it should have emitted but did not (a reply that did not run to its end). */
  unemitted: number;
  unfinished: number;
  refusals: string[];
  /** Replies that ended otherwise than COMPLETED (their ExecutionFinished status). */
  failed: string[];
  snapshots: number;
  /** From the first send to the last send's answer. */
  sendMs: number;
  sendStarted: number;
  /** The server process's CPU from the first send to the last reply's end (ms), in cores, and its peak RSS (MB). */
  cpuMs: number;
  cpuCores: number;
  rssMb: number;
}

export const TOKENS_SUBSCRIPTION = /* GraphQL */ `
  subscription RepliesRunEvents($threadId: ID!) {
    runEvents(threadId: $threadId) {
      __typename
      ... on TextDelta { offset text }
      ... on ExecutionFinished { status }
    }
  }
`;

/**
 * One subscriber per thread of a server, kept open across steps. `step(n, …)` sends `/tokens
 * chunks over seconds` to the first n threads (`sendConcurrency` in flight), waits for every reply
 * to finish (bounded), and joins the server's emits with the arrivals.
 */
export class ReplyFleet {
  readonly threads: ReplyThread[] = [];
  private readonly receives: Receives[] = [];
  private readonly finished: boolean[] = [];
  private readonly subscriptions: WsSubscription[] = [];
  private snapshots = 0;
  readonly errors: unknown[] = [];
  /** Statuses of the replies of the current step that did not complete. */
  private failed: string[] = [];
  private created = 0;

  constructor(
    private readonly server: ReplyServer,
    private readonly options: { threadsPerUser: number; tagPrefix: string },
  ) {}

  async ensure(count: number): Promise<void> {
    if (this.threads.length >= count) return;
    const added = await this.server.call<ReplyThread[]>('setupThreads', {
      count: count - this.threads.length,
      threadsPerUser: this.options.threadsPerUser,
      tagPrefix: `${this.options.tagPrefix}${this.created++}x`,
    });
    const from = this.threads.length;
    this.threads.push(...added);
    this.subscriptions.push(
      ...(await inPool(added.length, 16, (i) => {
        const index = from + i;
        this.receives[index] = [];
        this.finished[index] = false;
        return openSubscription(this.server.wsUrl, added[i]!.token, TOKENS_SUBSCRIPTION, { threadId: added[i]!.threadId }, (at, data) => {
          const event = data.runEvents;
          if (event.__typename === 'TextDelta') this.receives[index]!.push([event.offset, event.text.length, at]);
          else if (event.__typename === 'ExecutionFinished') {
            this.finished[index] = true;
            if (event.status !== 'COMPLETED') this.failed.push(String(event.status));
          }
          else if (event.__typename === 'MessageSnapshot') this.snapshots++;
        }, (error) => this.errors.push(error));
      })),
    );
    await sleep(500);
  }

  /** Sends `text` to the first n threads and waits for their replies (a warm-up: nothing is joined). */
  async warm(n: number, text: string, timeoutMs = 60_000): Promise<void> {
    await this.ensure(n);
    for (let i = 0; i < n; i++) this.finished[i] = false;
    await inPool(n, 32, (i) => sendMessage(this.server.url, this.threads[i]!.token, this.threads[i]!.threadId, text).then(() => true, () => (this.finished[i] = true)));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && this.finished.slice(0, n).some((done) => !done)) await sleep(100);
    await this.server.call('emitsByTag');
  }

  async step(
    n: number,
    args: { chunks: number; seconds: number; sendConcurrency: number; drainMs: number; profilePath?: string },
  ): Promise<ReplyStepRaw> {
    await this.ensure(n);
    for (let i = 0; i < n; i++) {
      this.receives[i] = [];
      this.finished[i] = false;
    }
    this.snapshots = 0;
    this.failed = [];
    await this.server.call('emitsByTag');
    const sendStarted = Date.now();
    const refusals: string[] = [];
    let sendMs = 0;
    if (args.profilePath) await this.server.call('profileStart');
    const usage = await measured(this.server.pid, async () => {
      const sent = await inPool(n, args.sendConcurrency, (i) =>
        sendMessage(this.server.url, this.threads[i]!.token, this.threads[i]!.threadId, `/tokens ${args.chunks} over ${args.seconds}`).then(
          () => true,
          (error: Error) => {
            // A refused send (the server out of pooled connections, say) is a reply not delivered: the step does not hold.
            refusals.push(error.message.slice(0, 200));
            return false;
          },
        ),
      );
      sendMs = Date.now() - sendStarted;
      const deadline = Date.now() + args.seconds * 1000 + args.drainMs;
      while (Date.now() < deadline && this.finished.slice(0, n).some((done, i) => sent[i] && !done)) await sleep(100);
    });
    if (args.profilePath) await this.server.call('profileStop', { path: args.profilePath });
    const unfinished = this.finished.slice(0, n).filter((done) => !done).length;
    await sleep(300);
    const emits = await this.server.call<Record<string, number[]>>('emitsByTag');
    const intervalMs = (args.seconds * 1000) / args.chunks;
    let unemitted = 0;
    const streams = this.threads.slice(0, n).map((thread, i) => {
      const mine = emits[thread.tag!] ?? [];
      // Chunks never emitted (a reply that did not run to its end) are lost too.
      unemitted += Math.max(0, args.chunks - mine.length / 2);
      return joinStream(mine, this.receives[i]!, intervalMs);
    });
    return { streams, unemitted, unfinished, refusals, failed: this.failed, snapshots: this.snapshots, sendMs, sendStarted, cpuMs: usage.cpuMs, cpuCores: usage.cpuCores, rssMb: usage.rssMb };
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.close();
    this.subscriptions.length = 0;
  }
}
