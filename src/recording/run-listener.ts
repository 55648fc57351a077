import type { Prisma } from '../generated/prisma/client.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { NewThreadEvent, ThreadEvent } from '../events/thread-event.ts';
import type { RunOutcome, RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';

/** How a run ended, as its settlement records it: the outcome, the usage and its one failure. */
export interface RunEnd {
  outcome: RunOutcome;
  usage: RunUsage;
  /** The run's one failure, whatever its source: a provider, the server, an interruption, a limit. */
  failure: RecordedFailure | null;
}

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

/**
 * The end of a run (its failure and its completion) is recorded in one transaction under the
 * thread's session lock. Listeners say what the end writes — the execution's final state, the
 * reply's final parts, the events — and the settlement writes it in one statement
 * (src/recording/run-recording.ts); rarer writes (a returned reservation, a row a failure before
 * the start never wrote) go through `tx`. Events in `publish` are published after commit.
 */
export interface Settlement {
  tx: Prisma.TransactionClient;
  publish: ThreadEvent[];
  /** False when the run failed before its execution row was written (a backend refusing it). */
  executionExists: boolean;
  /** Whether queue items are still reserved for steering into this run (read with its status). */
  reserved: boolean;
  /** The execution's final state; the failure, when there is one, too. */
  end: RunEnd | null;
  /** The reply's message and its final parts. */
  reply: { messageId: string; parts: MessagePart[] } | null;
  /** Durable events the end appends, in order (after any already in `publish`). */
  events: NewThreadEvent[];
}

/** Hears a run: each runtime event while it runs, then its end once, inside the settlement. */
export interface RunListener {
  onEvent?(event: RuntimeEvent, run: RunState): Promise<void> | void;
  /** Says what the end writes (`settlement`); may be called again when an earlier attempt rolled back. */
  onSettle?(end: RunEnd, run: RunState, settlement: Settlement): Promise<void> | void;
  /** Waits for writes still in flight; called before the settlement transaction starts. */
  drain?(): Promise<void>;
}

/** Delivers each event, and the end, to every listener in order, so a later listener sees what earlier ones recorded. */
export class ListenerChain {
  constructor(private readonly listeners: RunListener[]) {}

  async emit(event: RuntimeEvent, run: RunState): Promise<void> {
    for (const listener of this.listeners) await listener.onEvent?.(event, run);
  }

  async settle(end: RunEnd, run: RunState, settlement: Settlement): Promise<void> {
    for (const listener of this.listeners) await listener.onSettle?.(end, run, settlement);
  }

  async drain(): Promise<void> {
    for (const listener of this.listeners) await listener.drain?.();
  }
}
