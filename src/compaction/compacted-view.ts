import type { ModelMessage } from 'ai';
import type { CompactionPart, MessagePart } from '../conversation/parts.ts';
import { SUMMARY_HEADING } from '../models/summary-request.ts';

/** How many messages of the path a turn reads back from its end (`turnPath`). */
export const HISTORY_MESSAGES = 100;

/** A message of the path as compaction reads it (the history's rows are such). */
export interface PathMessage {
  id: string;
  role: string;
  parts: unknown;
}

/** The compaction in force on a path: the latest not undone; the model sees its summary, then the messages from its holder on. */
export function activeCompaction<Row extends PathMessage>(rows: readonly Row[]): { part: CompactionPart; holderIndex: number } | null {
  for (let index = rows.length - 1; index >= 0; index--) {
    const part = (rows[index]!.parts as MessagePart[]).findLast(
      (candidate): candidate is CompactionPart => candidate.type === 'compaction' && !candidate.undone,
    );
    if (part) return { part, holderIndex: index };
  }
  return null;
}

/** What the model is sent of a path: the summary in force (if any) and the rows it does not replace. */
export function compactedView<Row extends PathMessage>(rows: readonly Row[]): { summary: CompactionPart | null; rows: readonly Row[] } {
  const active = activeCompaction(rows);
  if (!active) return { summary: null, rows };
  return { summary: active.part, rows: rows.slice(active.holderIndex) };
}

/** The summary as it leads a compacted history: a system message, right after the agent's system prompt. */
export function summaryMessage(part: CompactionPart): ModelMessage {
  return { role: 'system', content: `${SUMMARY_HEADING}\n${part.summary}` };
}
