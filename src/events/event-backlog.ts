import type { ThreadEvent } from './thread-event.ts';

/**
 * The bytes of events a connection holds for a reader that is not keeping up: what its live
 * feeds have received and not yet delivered, plus what its transport has accepted and not yet
 * sent (a WebSocket's bufferedAmount). Shared by every subscription of one connection, so the
 * bound holds per connection, whatever the number of subscriptions on it.
 */
export class EventBacklog {
  private held = 0;

  constructor(
    readonly maxBytes: number,
    private readonly inTransport: () => number = () => 0,
    /** Told each time an event is refused (its subscription then drops what waits for it). */
    private readonly onOverflow: () => void = () => {},
  ) {}

  /** Takes room for an arrived event; false when it would pass the bound (nothing is taken then). */
  tryHold(bytes: number): boolean {
    if (this.held + this.inTransport() + bytes > this.maxBytes) {
      this.onOverflow();
      return false;
    }
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

/** Room for a record and the object around it, erring high: strings count two bytes a character. */
export function estimatedBytes(record: ThreadEvent): number {
  const payload = record.payload;
  const variable =
    payload.type === 'TextDelta' || payload.type === 'ReasoningDelta' ? payload.text.length : JSON.stringify(payload).length;
  return 400 + 2 * variable;
}
