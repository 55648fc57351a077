import type { LiveBus } from '../events/live-bus.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { liveEventOf, type RunState } from './run-listener.ts';

/** A coalesced delta is published at once when it grows past this, window or not. */
const MAX_PENDING_DELTA_CHARS = 16_384;

interface PendingDelta {
  type: 'TextDelta' | 'ReasoningDelta';
  text: string;
  offset: number;
}

/**
 * A run's deltas on their way to the subscribers. A delta is live only, and goes out before any
 * listener records it: the recording (batched text writes) must not stand between the model and
 * the reader. Its offset is the run's length before it; the snapshot a subscriber may ask for
 * meanwhile is answered from the conversation log, which has it or not, and either way the
 * subscriber's text has no hole. The first delta after a quiet window goes out at once; the ones
 * that follow within the window are joined and go out at its end, so a slow model's chunks are not
 * delayed and a fast one's do not flood the subscribers.
 */
export class DeltaWindow {
  private pending: PendingDelta | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastPublishedAt = -Infinity;
  private stopped = false;

  constructor(
    private readonly run: RunState,
    private readonly bus: LiveBus,
    private readonly windowMs: number,
  ) {}

  add(event: Extract<RuntimeEvent, { type: 'text-delta' | 'reasoning-delta' }>): void {
    if (this.stopped) return;
    const run = this.run;
    const type = event.type === 'text-delta' ? 'TextDelta' : 'ReasoningDelta';
    const offset = type === 'TextDelta' ? run.textLength : run.reasoningLength;
    if (type === 'TextDelta') run.textLength += event.text.length;
    else run.reasoningLength += event.text.length;
    if (this.pending && this.pending.type !== type) this.publishPending();
    if (this.pending) this.pending.text += event.text;
    else this.pending = { type, text: event.text, offset };
    if (this.timer && this.pending.text.length < MAX_PENDING_DELTA_CHARS) return;
    const sinceLast = performance.now() - this.lastPublishedAt;
    if (sinceLast >= this.windowMs || this.pending.text.length >= MAX_PENDING_DELTA_CHARS) this.publishPending();
    else this.timer ??= setTimeout(() => this.publishPending(), this.windowMs - sinceLast);
  }

  publishPending(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.lastPublishedAt = performance.now();
    this.bus.publishThreadEvents([
      liveEventOf(this.run, { type: pending.type, messageId: this.run.assistantMessageId ?? '', text: pending.text, offset: pending.offset }),
    ]);
  }

  /** The run has ended: what is pending goes out, and nothing after it. */
  publishPendingAndStop(): void {
    this.publishPending();
    this.stopped = true;
  }
}
