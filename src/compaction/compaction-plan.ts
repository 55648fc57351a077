import type { MessagePart } from '../conversation/parts.ts';
import type { PathMessage } from './compacted-view.ts';

/** Tool calls a compaction must keep verbatim: the run, the user or a card still waits on them. */
const OPEN_CALL_STATES = new Set(['CALLED', 'AWAITING_APPROVAL', 'AWAITING_ANSWER']);

/** What a compaction replaces: the rows before `keptFrom` (the oldest part), and the first kept row, which holds the summary. */
export interface CompactionRange {
  keptFrom: number;
}

/**
 * The oldest part of a path (the rows after the summary in force) that a summary may replace: all
 * but the last `keptTurns` turns (a turn starts at a user message), and never a turn with a call
 * still open (an approval, a question, a call that has not ended), nor anything after it. Null when
 * nothing is left to replace.
 */
export function compactionRange(rows: readonly PathMessage[], keptTurns: number): CompactionRange | null {
  const turnStarts = rows.flatMap((row, index) => (row.role === 'USER' ? [index] : []));
  if (turnStarts.length <= keptTurns) return null;
  let keptFrom = turnStarts[turnStarts.length - keptTurns]!;
  const firstOpen = rows.findIndex((row) => (row.parts as MessagePart[]).some((part) => part.type === 'tool-call' && OPEN_CALL_STATES.has(part.state)));
  if (firstOpen >= 0 && firstOpen < keptFrom) keptFrom = turnStarts.findLast((start) => start <= firstOpen) ?? 0;
  return keptFrom > 0 ? { keptFrom } : null;
}

/** The references to files the replaced messages carried: kept verbatim after the summary. */
export function attachmentReferences(rows: readonly PathMessage[]): string[] {
  return rows.flatMap((row) =>
    (row.parts as MessagePart[]).flatMap((part) => (part.type === 'attachment' ? [`${part.filename} (${part.mediaType}, attachment ${part.attachmentId})`] : [])),
  );
}
