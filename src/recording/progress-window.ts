import type { LiveBus } from '../events/live-bus.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { liveEventOf, type RunState } from './run-listener.ts';

type ProgressEvent = Extract<RuntimeEvent, { type: 'tool-progress' }>;

interface CallWindow {
  lastPublishedAt: number;
  pending: ProgressEvent | null;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A run's tool-call progress on its way to the subscribers, live only, coalesced like its text
 * deltas: the first report after a quiet window goes out at once; the ones within the window
 * replace each other and the last goes out at its end. Progress is a state, not a stream: a
 * report that is overtaken is simply not sent (the call's part keeps the last one).
 *
 * A tool starts as soon as the model has named it, so its first reports may come before the run
 * has recorded the call: those wait (the last of them) until the call is announced.
 */
export class ProgressWindow {
  private readonly calls = new Map<string, CallWindow>();
  /** Calls recorded as running: their progress may go out. */
  private readonly announced = new Set<string>();
  /** The last report of each call not announced yet. */
  private readonly early = new Map<string, ProgressEvent>();
  private stopped = false;

  constructor(
    private readonly run: RunState,
    private readonly bus: LiveBus,
    private readonly windowMs: number,
  ) {}

  /** Whether the report may go on now (to the listeners, and here to the subscribers); one that may not is kept for `announce`. */
  admits(event: ProgressEvent): boolean {
    if (this.stopped) return false;
    if (this.announced.has(event.toolCallId)) return true;
    this.early.set(event.toolCallId, event);
    return false;
  }

  /** The call is recorded as running: its progress may go out from now on; returns the last report that came before. */
  announce(toolCallId: string): ProgressEvent | undefined {
    if (this.stopped) return undefined;
    this.announced.add(toolCallId);
    const early = this.early.get(toolCallId);
    this.early.delete(toolCallId);
    return early;
  }

  add(event: ProgressEvent): void {
    if (this.stopped) return;
    let call = this.calls.get(event.toolCallId);
    if (!call) {
      call = { lastPublishedAt: -Infinity, pending: null, timer: undefined };
      this.calls.set(event.toolCallId, call);
    }
    call.pending = event;
    if (call.timer) return;
    const sinceLast = performance.now() - call.lastPublishedAt;
    if (sinceLast >= this.windowMs) this.publish(call);
    else call.timer = setTimeout(() => this.publish(call), this.windowMs - sinceLast);
  }

  /** The call changed state (it ended): its last progress goes out before that, and the call is forgotten. */
  settleCall(toolCallId: string): void {
    const call = this.calls.get(toolCallId);
    if (!call) return;
    this.publish(call);
    this.calls.delete(toolCallId);
  }

  /** The call ended: later reports of it are dropped. */
  forget(toolCallId: string): void {
    this.announced.delete(toolCallId);
    this.early.delete(toolCallId);
  }

  /** The run has ended: what is pending goes out, and nothing after it. */
  publishPendingAndStop(): void {
    for (const call of this.calls.values()) this.publish(call);
    this.calls.clear();
    this.announced.clear();
    this.early.clear();
    this.stopped = true;
  }

  private publish(call: CallWindow): void {
    clearTimeout(call.timer);
    call.timer = undefined;
    const pending = call.pending;
    if (!pending) return;
    call.pending = null;
    call.lastPublishedAt = performance.now();
    const { run } = this;
    this.bus.publishThreadEvents([
      liveEventOf(run, {
        type: 'ToolCallProgress',
        messageId: run.assistantMessageId ?? '',
        toolCallId: pending.toolCallId,
        progress: pending.progress,
        total: pending.total,
        message: pending.message,
      }),
    ]);
  }
}
