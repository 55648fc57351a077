import type { ToolCallPart, ToolProgress } from '../conversation/parts.ts';

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Tokens of one model call by kind, as the provider reported them: input and output are totals. */
export interface CallTokens {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

/** Which budget is nearly spent, and how far: amounts are exact decimal strings of the currency. */
export interface BudgetWarningNotice {
  budgetId: string;
  period: 'DAY' | 'MONTH';
  perUser: boolean;
  agentId: string | null;
  spent: string;
  amount: string;
  warnAtPercent: number;
}

/**
 * What the agent runtime reports while it runs; listeners record and broadcast it. How the run
 * ended is not an event: the runtime returns it (`RunOutcome`) and the run's recording settles it.
 */
export type RuntimeEvent =
  | { type: 'run-started' }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | ToolCallPart
  /** A running tool call's server reported progress (live, coalesced; the last one is kept on its part). */
  | ({ type: 'tool-progress'; toolCallId: string } & ToolProgress)
  | { type: 'retry-scheduled'; attempt: number; delayS: number; reason: string }
  /** A model request ended and its provider reported what it used. */
  | { type: 'model-call'; tokens: CallTokens }
  /** A budget's spend reached its warning share (once per budget and period). */
  | { type: 'budget-warning'; warning: BudgetWarningNotice }
  /**
   * A model request and its tool batch ended and another request follows: everything before it
   * must be recorded. (After the last one the settlement records it, in one statement.)
   */
  | { type: 'boundary' }
  /** Queued messages entered the run at a boundary (steering). */
  | { type: 'steered'; items: { queueId: string; text: string }[] };
