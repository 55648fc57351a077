import type { Prisma } from '../generated/prisma/client.ts';
import type { RunEventRecord } from '../events/run-event.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';

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
 * thread's session lock: listeners write through `tx` and leave events to publish after commit.
 */
export interface Settlement {
  tx: Prisma.TransactionClient;
  publish: RunEventRecord[];
  /** False when the run failed before its execution row was written (a backend refusing it). */
  executionExists: boolean;
}

export interface RunListener {
  handle(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> | void;
  /** Waits for writes still in flight; called before the settlement transaction starts. */
  drain?(): Promise<void>;
}

/** Delivers each event to every listener in order, so a later listener sees what earlier ones recorded. */
export class ListenerChain {
  constructor(private readonly listeners: RunListener[]) {}

  async emit(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> {
    for (const listener of this.listeners) await listener.handle(event, run, settlement);
  }

  async drain(): Promise<void> {
    for (const listener of this.listeners) await listener.drain?.();
  }
}
