import { formatMoney, type ClientUsageFieldsFragment as Usage } from '@parley/client';
import type { UsageMessages } from './i18n-usage.ts';

// Tokens and cost in the reader's language. Amounts stay the server's exact decimal strings
// (formatMoney never makes a float of them); token counts are integers, exact as numbers.

export function formatCount(count: number, t: UsageMessages): string {
  return new Intl.NumberFormat(t.numberLocale).format(count);
}

/** The cost, or why it is unknown: some call had no price (never shown as a made-up zero). */
export function formatCost(usage: Usage, t: UsageMessages): string {
  if (usage.cost) return formatMoney(usage.cost, t.numberLocale);
  const pricedCalls = usage.modelCalls - usage.unpricedCalls;
  return pricedCalls > 0 ? t.partlyUnpriced(formatMoney(usage.pricedCost, t.numberLocale), usage.unpricedCalls) : t.costUnknown;
}

/**
 * A reply's line: "57 tokens (50 in · 7 out · 1 reasoning) · $0.000067". Input and output always
 * (the total is their sum: cached input, cache writes and reasoning are among them), the others
 * only when there are any.
 */
export function usageLine(usage: Usage, t: UsageMessages): string {
  const kinds: [number, string][] = [
    [usage.inputTokens, t.tokenKinds.input],
    [usage.outputTokens, t.tokenKinds.output],
    [usage.cachedInputTokens, t.tokenKinds.cached],
    [usage.cacheWriteTokens, t.tokenKinds.cacheWrite],
    [usage.reasoningTokens, t.tokenKinds.reasoning],
  ];
  const detail = kinds
    .filter(([count], index) => index < 2 || count > 0)
    .map(([count, kind]) => `${formatCount(count, t)} ${kind}`)
    .join(' · ');
  return `${t.tokens(formatCount(usage.inputTokens + usage.outputTokens, t))} (${detail}) · ${formatCost(usage, t)}`;
}
