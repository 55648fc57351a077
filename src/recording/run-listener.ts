import type { MessagePart } from '../conversation/parts.ts';
import type { NewThreadEvent, ThreadEvent, ThreadEventPayload } from '../events/thread-event.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ModelCallToWrite } from '../storage/model-call-statements.ts';
import type { RunEnding } from './run-ending.ts';

/** Shared, mutable facts about one run that listeners fill in for the ones after them. */
export interface RunState {
  executionId: string;
  threadId: string;
  agentId: string;
  userId: string;
  parentExecutionId: string | null;
  acceptedText: string;
  assistantMessageId: string | null;
  /** Characters of text and reasoning streamed so far: the offsets of the next deltas. */
  textLength: number;
  reasoningLength: number;
}

/** A live-only event of the run (a delta, a tool call's progress), as subscribers receive it: it has no seq. */
export function liveEventOf(run: RunState, payload: ThreadEventPayload): ThreadEvent {
  return { threadId: run.threadId, seq: null, executionId: run.executionId, parentExecutionId: run.parentExecutionId, createdAt: new Date().toISOString(), payload };
}

/** What a listener adds to a run's end: the final parts of the reply it keeps, events before the end's own, model calls to record. */
export interface Contribution {
  reply?: { messageId: string; parts: MessagePart[] };
  events?: NewThreadEvent[];
  modelCalls?: ModelCallToWrite[];
}

/**
 * Hears a run: each runtime event while it runs; at its end, what it adds to the settlement (a
 * value, computed again if an attempt rolled back), and once the end is committed, the end.
 */
export interface RunListener {
  onEvent?(event: RuntimeEvent, run: RunState): Promise<void> | void;
  /** Waits for its writes still in flight: the settlement must be the last writer. */
  drain?(): Promise<void>;
  /** What the end writes for this listener, given the ending the settlement records. No I/O. */
  contribute?(ending: RunEnding, run: RunState): Contribution;
  /** After the end committed, once. */
  onEnded?(ending: RunEnding, run: RunState): void;
}

/** Delivers each event, and the end, to every listener in order, so a later listener sees what earlier ones recorded. */
export class ListenerChain {
  constructor(private readonly listeners: RunListener[]) {}

  /**
   * Synchronous while every listener takes the event in synchronously (a delta, as a rule: no
   * promise per listener per chunk); from the first listener that returns a promise on, the rest
   * follow once it settles.
   */
  emit(event: RuntimeEvent, run: RunState): Promise<void> | void {
    for (let index = 0; index < this.listeners.length; index++) {
      const pending = this.listeners[index]!.onEvent?.(event, run);
      if (pending) return pending.then(() => this.emitFrom(index + 1, event, run));
    }
  }

  private async emitFrom(start: number, event: RuntimeEvent, run: RunState): Promise<void> {
    for (let index = start; index < this.listeners.length; index++) await this.listeners[index]!.onEvent?.(event, run);
  }

  async drain(): Promise<void> {
    for (const listener of this.listeners) await listener.drain?.();
  }

  contributions(ending: RunEnding, run: RunState): Contribution[] {
    return this.listeners.flatMap((listener) => (listener.contribute ? [listener.contribute(ending, run)] : []));
  }

  ended(ending: RunEnding, run: RunState): void {
    for (const listener of this.listeners) listener.onEnded?.(ending, run);
  }
}
