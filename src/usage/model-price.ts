import type { CallTokens } from '../runtime/runtime-event.ts';

/** A model's price per million tokens of each kind, in micro-units; a kind without one is charged as input or output. */
export interface ModelPriceRow {
  modelId: string;
  inputPerMillion: bigint;
  outputPerMillion: bigint;
  cachedInputPerMillion: bigint | null;
  cacheWritePerMillion: bigint | null;
  reasoningPerMillion: bigint | null;
  /** "operator", "demo", or the dataset and its version. */
  source: string;
}


/**
 * A call's cost in pico-units: non-cached input at the input price, cached reads and cache writes
 * at theirs (else input's), text output at the output price and reasoning at its own (else output's).
 */
export function costOf(tokens: CallTokens, price: ModelPriceRow): bigint {
  const uncachedInput = Math.max(0, tokens.inputTokens - tokens.cachedInputTokens - tokens.cacheWriteTokens);
  const textOutput = Math.max(0, tokens.outputTokens - tokens.reasoningTokens);
  return (
    BigInt(uncachedInput) * price.inputPerMillion +
    BigInt(tokens.cachedInputTokens) * (price.cachedInputPerMillion ?? price.inputPerMillion) +
    BigInt(tokens.cacheWriteTokens) * (price.cacheWritePerMillion ?? price.inputPerMillion) +
    BigInt(textOutput) * price.outputPerMillion +
    BigInt(tokens.reasoningTokens) * (price.reasoningPerMillion ?? price.outputPerMillion)
  );
}
