import { textOf, type MessagePart } from '../conversation/parts.ts';
import { SUMMARY_HEADING } from '../models/summary-request.ts';
import type { PathMessage } from './compacted-view.ts';

/**
 * The texts a message puts in the model's prompt, as the token estimate counts them: its text,
 * its tool calls' inputs and outputs, and the names of its attachments (the files themselves are
 * the provider's to count).
 */
export function promptTextsOf(message: PathMessage): string[] {
  const parts = message.parts as MessagePart[];
  const texts = [textOf(parts)];
  for (const part of parts) {
    if (part.type === 'tool-call') texts.push(JSON.stringify(part.input ?? null), JSON.stringify(part.output ?? null));
    if (part.type === 'attachment') texts.push(part.filename);
  }
  return texts.filter((text) => text.length > 0);
}

export function summaryText(summary: string): string {
  return `${SUMMARY_HEADING}\n${summary}`;
}
