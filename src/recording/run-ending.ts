import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { Checkpoint } from '../runtime/agent-runtime.ts';
import type { RunUsage } from '../runtime/runtime-event.ts';

/** REFUSED: a run limit ended it (at admission, or its token budget while it ran). */
export type EndStatus = 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'SUSPENDED' | 'INTERRUPTED' | 'REFUSED';

export const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0 };

/**
 * How a run ended: decided once, by src/execution/ending.ts, from what the runtime returned or
 * threw and why its signal was aborted; the settlement writes it as it is.
 */
export interface RunEnding {
  status: EndStatus;
  usage: RunUsage;
  /** The run's one failure, whatever its source, classified once and localized for its user. */
  failure: RecordedFailure | null;
  /** A suspension's conversation and pending call: its card is opened by the settlement. */
  checkpoint: Checkpoint | null;
}
