import { InvalidInputError } from '../domain/errors.ts';

/** The largest context window an agent may declare: beyond any model's, so a typo is caught. */
export const MAX_CONTEXT_WINDOW_TOKENS = 100_000_000;
const MAX_KEPT_TURNS = 100;

/** How an agent's history is kept within its model's context window (docs/compaction.md). */
export interface AgentContextInput {
  /** Null: the model dataset's window, when it knows the model. */
  contextWindowTokens?: number | null;
  compaction?: { atPercent?: number | null; keptTurns?: number | null; model?: string | null } | null;
}

export interface AgentContextData {
  contextWindowTokens?: number | null;
  compactAtPercent?: number;
  compactKeptTurns?: number;
  compactionModel?: string | null;
}

function wholeNumberIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(field, `must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/**
 * The columns an agent's context settings change; an absent field stays as it is. `validModel`
 * checks a summary model's name as the agent's own is checked.
 */
export function agentContextData(input: AgentContextInput, validModel: (field: string, model: string) => string): AgentContextData {
  const data: AgentContextData = {};
  if (input.contextWindowTokens !== undefined) {
    data.contextWindowTokens =
      input.contextWindowTokens === null ? null : wholeNumberIn('contextWindowTokens', input.contextWindowTokens, 1, MAX_CONTEXT_WINDOW_TOKENS);
  }
  const compaction = input.compaction;
  if (!compaction) return data;
  if (compaction.atPercent != null) data.compactAtPercent = wholeNumberIn('compaction.atPercent', compaction.atPercent, 1, 100);
  if (compaction.keptTurns != null) data.compactKeptTurns = wholeNumberIn('compaction.keptTurns', compaction.keptTurns, 1, MAX_KEPT_TURNS);
  if (compaction.model !== undefined) {
    data.compactionModel = compaction.model === null ? null : validModel('compaction.model', compaction.model.trim());
  }
  return data;
}
