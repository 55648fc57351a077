import { estimatedBytes, type EventBacklog } from './event-backlog.ts';
import type { LiveBus } from './live-bus.ts';
import type { ThreadEvent } from './thread-event.ts';

/** Taken from the feed after a Redis outage: live delivery may have had a gap, catch up from the log. */
export const CATCH_UP = Symbol('catch up from the event log');

/**
 * Taken from the feed after it dropped what it held for a reader that fell behind its bound:
 * catch up from the log, then take snapshots of the running replies (their deltas are gone).
 */
export const DROPPED = Symbol('dropped for a slow reader');

type Arrival = ThreadEvent | typeof CATCH_UP | typeof DROPPED;

/**
 * Set once the subscriber leaves; wakes the feed parked for it. (An AbortSignal would do, at the
 * cost of an EventTarget per subscription.)
 */
export class Departure {
  left = false;
  private wake: (() => void) | null = null;

  leave(): void {
    this.left = true;
    this.wake?.();
  }

  onLeave(wake: (() => void) | null): void {
    this.wake = wake;
  }
}

/**
 * One subscriber's live channel of a thread: what arrived and was not taken yet, whether live
 * delivery is lost (a Redis outage), and a place to park until something happens.
 * It listens from when it is created (the bus fans the thread's one channel out to every feed);
 * call `close()` once done.
 */
export class LiveThreadFeed {
  private readonly arrived: Arrival[] = [];
  /** Bytes held in the backlog for each arrived record, in the same order as `arrived`. */
  private readonly sizes: number[] = [];
  private heldBytes = 0;
  /** Arrivals are dropped until the reader takes the DROPPED marker. */
  private dropping = false;
  private readonly stopListening: () => void;
  private wakeParked: (() => void) | null = null;
  private readonly wake = () => this.wakeParked?.();
  private readonly stopOutage: () => void;
  private readonly stopResync: () => void;
  /** Since when live delivery has been lost, if it is. */
  lostAt: number | null = null;

  constructor(
    bus: LiveBus,
    threadId: string,
    private readonly departure: Departure,
    private readonly backlog: EventBacklog | null = null,
  ) {
    this.stopListening = bus.subscribeThread(threadId, (event) => {
      this.add(event);
      this.wake();
    });
    departure.onLeave(this.wake);
    this.stopOutage = bus.onOutage(() => {
      this.lostAt ??= Date.now();
      this.wake();
    });
    this.stopResync = bus.onResync(() => {
      this.lostAt = null;
      this.add(CATCH_UP);
      this.wake();
    });
  }

  /** The next arrived event (or catch-up request), undefined when there is none. */
  take(): Arrival | undefined {
    const next = this.arrived.shift();
    const size = this.sizes.shift() ?? 0;
    this.heldBytes -= size;
    this.backlog?.release(size);
    if (next === DROPPED) this.dropping = false;
    return next;
  }

  get hasArrivals(): boolean {
    return this.arrived.length > 0;
  }

  /** The subscriber closed the stream. */
  get isOver(): boolean {
    return this.departure.left;
  }

  /** Waits for an arrival, a change of the live channel, the end, or the deadline (a time in ms; Infinity for none). */
  // Not an async function: an idle subscription parks here, and a suspended async function keeps
  // a frame; a bare promise keeps only its resolver.
  park(deadline: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const wake = () => {
        clearTimeout(timer);
        this.wakeParked = null;
        resolve();
      };
      this.wakeParked = wake;
      if (Number.isFinite(deadline)) timer = setTimeout(wake, Math.max(0, deadline - Date.now()));
    });
  }

  close(): void {
    this.stopListening();
    this.backlog?.release(this.heldBytes);
    this.heldBytes = 0;
    this.arrived.length = 0;
    this.sizes.length = 0;
    this.departure.onLeave(null);
    this.stopOutage();
    this.stopResync();
  }

  /**
   * Queues an arrival within the connection's backlog bound. Past it, everything queued is
   * dropped for one DROPPED marker: the durable events are in the log and the running replies
   * have snapshots, so the reader loses nothing it cannot get back once it reads again.
   */
  private add(arrival: Arrival): void {
    if (this.dropping) return;
    const size = typeof arrival === 'symbol' ? 0 : estimatedBytes(arrival);
    if (this.backlog && !this.backlog.tryHold(size)) {
      this.backlog.release(this.heldBytes);
      this.heldBytes = 0;
      this.arrived.length = 0;
      this.sizes.length = 0;
      this.dropping = true;
      this.arrived.push(DROPPED);
      this.sizes.push(0);
      return;
    }
    this.heldBytes += size;
    this.arrived.push(arrival);
    this.sizes.push(size);
  }
}
