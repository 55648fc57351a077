import type { LiveBus } from './live-bus.ts';
import type { RunEventRecord } from './run-event.ts';

/** Taken from the feed after a Redis outage: live delivery may have had a gap, catch up from the log. */
export const CATCH_UP = Symbol('catch up from the event log');

/**
 * One subscriber's live channel of a thread: what arrived and was not taken yet, whether live
 * delivery is lost (a Redis outage), and a place to park until something happens.
 * It subscribes when created; call `close()` once done.
 */
export class LiveThreadFeed {
  private readonly arrived: (RunEventRecord | typeof CATCH_UP)[] = [];
  private readonly subscription: AsyncIterator<RunEventRecord>;
  private readonly pump: Promise<void>;
  private subscriptionEnded = false;
  private wakeParked: (() => void) | null = null;
  private readonly wake = () => this.wakeParked?.();
  private readonly stopOutage: () => void;
  private readonly stopResync: () => void;
  /** Since when live delivery has been lost, if it is. */
  lostAt: number | null = null;

  constructor(
    bus: LiveBus,
    threadId: string,
    private readonly closed: AbortSignal,
  ) {
    this.subscription = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
    closed.addEventListener('abort', this.wake);
    this.stopOutage = bus.onOutage(() => {
      this.lostAt ??= Date.now();
      this.wake();
    });
    this.stopResync = bus.onResync(() => {
      this.lostAt = null;
      this.arrived.push(CATCH_UP);
      this.wake();
    });
    this.pump = this.receive();
  }

  /** The next arrived event (or catch-up request), undefined when there is none. */
  take(): RunEventRecord | typeof CATCH_UP | undefined {
    return this.arrived.shift();
  }

  get hasArrivals(): boolean {
    return this.arrived.length > 0;
  }

  /** The subscription ended or the subscriber closed the stream. */
  get isOver(): boolean {
    return this.subscriptionEnded || this.closed.aborted;
  }

  /** Waits for an arrival, a change of the live channel, the end, or the deadline (a time in ms; Infinity for none). */
  async park(deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wakeParked = resolve;
      if (Number.isFinite(deadline)) timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    });
    clearTimeout(timer);
    this.wakeParked = null;
  }

  async close(): Promise<void> {
    this.closed.removeEventListener('abort', this.wake);
    this.stopOutage();
    this.stopResync();
    await this.subscription.return?.();
    await this.pump;
  }

  private async receive(): Promise<void> {
    try {
      for (;;) {
        const next = await this.subscription.next();
        if (next.done) break;
        this.arrived.push(next.value);
        this.wake();
      }
    } finally {
      this.subscriptionEnded = true;
      this.wake();
    }
  }
}
