/**
 * Streams of the demo model followed over graphql-ws: sends `/slow <s> TAG<tag> x x …` to threads,
 * records when each TextDelta arrives at its subscriber, and joins that with the emit times the
 * runner instance recorded (host.ts BENCH_RECORD_EMITS) on (tag, offset). The server coalesces
 * the deltas of a short window (PARLEY_DELTA_WINDOW_MS) into one: an emitted chunk arrived when the
 * delta whose text covers its offset did.
 */
import type { Host, BenchThread } from './hosts.ts';
import { inPool, openSubscription, RUN_EVENTS, sendMessage, type WsSubscription } from './clients.ts';
import { sleep } from './stats.ts';

const TAG = /\bTAG(\S+)/;

export class StreamFleet {
  readonly receives = new Map<string, number>();
  /** Per tag, the deltas received in order: [offset, offset + text length, receive time]. */
  private readonly covered = new Map<string, [number, number, number][]>();
  private readonly executionTags = new Map<string, string>();
  private readonly early = new Map<string, [number, number, number][]>();

  private received(tag: string, offset: number, end: number, at: number): void {
    this.receives.set(`${tag}:${offset}`, at);
    const list = this.covered.get(tag) ?? [];
    list.push([offset, end, at]);
    this.covered.set(tag, list);
  }

  /** When the delta covering this offset of the tag's reply arrived (binary search; deltas arrive in offset order). */
  arrivalOf(tag: string, offset: number): number | undefined {
    const exact = this.receives.get(`${tag}:${offset}`);
    if (exact !== undefined) return exact;
    const list = this.covered.get(tag);
    if (!list) return undefined;
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const [start, end, at] = list[mid]!;
      if (offset < start) high = mid - 1;
      else if (offset >= end) low = mid + 1;
      else return at;
    }
    return undefined;
  }
  readonly finished = new Set<string>();
  /** Every runEvents message the subscribers received. */
  deliveredEvents = 0;
  readonly subscriptions: WsSubscription[] = [];
  errors: unknown[] = [];

  private onEvent = (receivedAt: number, data: any) => {
    const event = data.runEvents;
    this.deliveredEvents++;
    switch (event?.__typename) {
      case 'ExecutionStarted': {
        const tag = TAG.exec(event.acceptedText)?.[1];
        if (!tag) return;
        this.executionTags.set(event.executionId, tag);
        for (const [offset, end, at] of this.early.get(event.executionId) ?? []) this.received(tag, offset, end, at);
        this.early.delete(event.executionId);
        break;
      }
      case 'TextDelta': {
        const tag = this.executionTags.get(event.executionId);
        const end = event.offset + (event.text?.length ?? 0);
        if (tag) this.received(tag, event.offset, end, receivedAt);
        else {
          const list = this.early.get(event.executionId) ?? [];
          list.push([event.offset, end, receivedAt]);
          this.early.set(event.executionId, list);
        }
        break;
      }
      case 'ExecutionFinished': {
        const tag = this.executionTags.get(event.executionId);
        if (tag) this.finished.add(tag);
        break;
      }
      default:
        break;
    }
  };

  /** One WebSocket connection per thread, each with one runEvents subscription (as many browser tabs). */
  async subscribe(wsUrl: string, threads: BenchThread[], concurrency = 16): Promise<void> {
    const opened = await inPool(threads.length, concurrency, (index) =>
      openSubscription(wsUrl, threads[index]!.token, RUN_EVENTS, { threadId: threads[index]!.threadId }, this.onEvent, (error) =>
        this.errors.push(error),
      ),
    );
    this.subscriptions.push(...opened);
  }

  /**
   * Starts one paced reply per thread (`seconds` long at `rate` chunks/s) and waits for all of them
   * to finish. Returns the tags used.
   */
  async round(
    sendUrl: string,
    threads: BenchThread[],
    roundName: string,
    seconds: number,
    rate: number,
    timeoutMs = 30_000,
  ): Promise<{ tags: string[]; unfinished: number }> {
    const words = Math.max(1, Math.round(seconds * rate) - 3);
    const filler = Array.from({ length: words }, () => 'x').join(' ');
    const tags = threads.map((_, index) => `${roundName}s${index}`);
    await inPool(threads.length, 16, (index) =>
      sendMessage(sendUrl, threads[index]!.token, threads[index]!.threadId, `/slow ${seconds} TAG${tags[index]} ${filler}`),
    );
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && tags.some((tag) => !this.finished.has(tag))) await sleep(50);
    return { tags, unfinished: tags.filter((tag) => !this.finished.has(tag)).length };
  }

  /** Latencies (ms) of every recorded emit of the given tags; emits without a receive are counted as lost. */
  join(emits: [string, number, number][], include: (tag: string) => boolean) {
    const latencies: number[] = [];
    let lost = 0;
    let firstEmit = Infinity;
    let lastReceive = -Infinity;
    for (const [tag, offset, emittedAt] of emits) {
      if (!include(tag)) continue;
      const receivedAt = this.arrivalOf(tag, offset);
      if (receivedAt === undefined) {
        lost++;
        continue;
      }
      latencies.push(receivedAt - emittedAt);
      firstEmit = Math.min(firstEmit, emittedAt);
      lastReceive = Math.max(lastReceive, receivedAt);
    }
    return { latencies, lost, spanMs: lastReceive - firstEmit };
  }

  close(): void {
    for (const subscription of this.subscriptions) subscription.close();
    this.subscriptions.length = 0;
  }
}

export async function takeEmits(host: Host): Promise<[string, number, number][]> {
  return host.call<[string, number, number][]>('emits');
}
