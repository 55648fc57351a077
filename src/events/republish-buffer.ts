import type { ThreadEvent } from './thread-event.ts';

/**
 * Durable thread events whose PUBLISH failed, kept to publish again once Redis is back
 * (subscribers drop what they already have by its seq). Only durable events can be deduplicated
 * that way; the rest is live-only, and an old snapshot sent late would take text away from the
 * client. Bounded: past it, subscribers still catch up from the log.
 */
export class RepublishBuffer {
  private readonly kept: { channel: string; message: string }[] = [];

  constructor(private readonly max = 10_000) {}

  keep(channel: string, message: string): void {
    if (this.kept.length < this.max && isDurable(message)) this.kept.push({ channel, message });
  }

  /** Everything kept, in the order it was published; the buffer is empty afterwards. */
  take(): { channel: string; message: string }[] {
    return this.kept.splice(0);
  }
}

function isDurable(message: string): boolean {
  try {
    return typeof (JSON.parse(message) as ThreadEvent).seq === 'number';
  } catch {
    return false;
  }
}
