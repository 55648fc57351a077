import type { RecordedFailure, ToolCallState } from '../events/run-event.ts';

export type RunOutcome = 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'SUSPENDED' | 'INTERRUPTED';

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What the agent runtime reports while it runs; listeners record and broadcast it. */
export type RuntimeEvent =
  | { type: 'run-started' }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; state: ToolCallState; output: unknown }
  | { type: 'retry-scheduled'; attempt: number; delayS: number; reason: string }
  /** After a model request and its tool batch: everything before it must be recorded. */
  | { type: 'boundary' }
  /** Queued messages entered the run at a boundary (steering). */
  | { type: 'steered'; items: { queueId: string; text: string }[] }
  /** The one failure of a run, whatever its source (SPEC §5 failure recording). */
  | { type: 'provider-error'; failure: RecordedFailure }
  | { type: 'run-completed'; outcome: RunOutcome; usage: RunUsage };

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

export interface RunListener {
  handle(event: RuntimeEvent, run: RunState): Promise<void> | void;
}

/** Delivers each event to every listener in order, so a later listener sees what earlier ones recorded. */
export class ListenerChain {
  constructor(private readonly listeners: RunListener[]) {}

  async emit(event: RuntimeEvent, run: RunState): Promise<void> {
    for (const listener of this.listeners) await listener.handle(event, run);
  }
}
