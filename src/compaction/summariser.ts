import { generateText, type ModelMessage } from 'ai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import { PARLEY_PROVIDER_OPTIONS, SUMMARY_INSTRUCTIONS, SUMMARY_REQUEST } from '../models/summary-request.ts';
import type { CallTokens } from '../runtime/runtime-event.ts';
import { summaryMessage, type PathMessage } from './compacted-view.ts';
import type { CompactionPart } from '../conversation/parts.ts';

export interface SummaryRequest {
  model: LanguageModelV3;
  /** The agent's window, which the demo model checks as a provider would. */
  windowTokens: number | null;
  /** The summary in force before this one: the new one replaces it too. */
  previous: CompactionPart | null;
  rows: readonly PathMessage[];
  signal?: AbortSignal;
}

/** What the model wrote, and what its call took and gave (usage, like any model call). */
export interface WrittenSummary {
  text: string;
  tokens: CallTokens;
}

/** The replaced messages as the summary's model reads them: their texts, each file named. */
function rangeMessages(rows: readonly PathMessage[]): ModelMessage[] {
  return rows.flatMap((row): ModelMessage[] => {
    const parts = row.parts as MessagePart[];
    const files = parts.flatMap((part) => (part.type === 'attachment' ? [`[attachment: ${part.filename}]`] : []));
    const text = [textOf(parts), ...files].filter(Boolean).join('\n');
    if (text.length === 0) return [];
    return [row.role === 'USER' ? { role: 'user', content: text } : { role: 'assistant', content: text }];
  });
}

/** Asks the model for a summary of the oldest part of a thread (one call, no tools). */
export async function writeSummary(request: SummaryRequest): Promise<WrittenSummary> {
  const result = await generateText({
    model: request.model,
    system: SUMMARY_INSTRUCTIONS,
    messages: [...(request.previous ? [summaryMessage(request.previous)] : []), ...rangeMessages(request.rows), { role: 'user', content: SUMMARY_REQUEST }],
    // The summary in force leads as a system message of our own making, not user input.
    allowSystemInMessages: true,
    maxRetries: 1,
    abortSignal: request.signal,
    providerOptions: request.windowTokens === null ? undefined : { [PARLEY_PROVIDER_OPTIONS]: { contextWindowTokens: request.windowTokens } },
  });
  const usage = result.usage;
  const text = result.text.trim();
  if (text.length === 0) throw new Error('The model wrote an empty summary.');
  return {
    text,
    tokens: {
      inputTokens: usage.inputTokens ?? 0,
      cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
      cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      reasoningTokens: usage.outputTokenDetails?.reasoningTokens ?? 0,
    },
  };
}
