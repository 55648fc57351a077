import type { ModelMessage } from 'ai';
import { messageFiles, turnPath, type StoredFileRow, type TurnPathRow } from '../storage/run-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import { modelToolName } from '../runtime/tools.ts';
import { compactedView, HISTORY_MESSAGES, summaryMessage } from '../compaction/compacted-view.ts';
import { compactIfNeeded, type CompactionAgent, type CompactionOccasion, type CompactorDeps } from '../compaction/compactor.ts';

/** What the model is told of a call a crash interrupted, when the turn is tried again. */
export const INTERRUPTED_CALL_NOTE =
  'This call was interrupted when the server running it stopped: it may or may not have taken effect. It was not run again; check before repeating it.';

/**
 * What a fresh turn shows the model: the active branch up to this turn's reply (never another
 * branch's messages), earlier turns as text, the current turn's message with its attachments as
 * files. The turn's message is its reply's parent: for a regenerated reply, an earlier turn's. A
 * compacted path starts with the summary in force, then the messages it does not replace.
 */
export async function loadHistory(db: SqlRunner, threadId: string, executionId: string): Promise<ModelMessage[]> {
  return historyOf(db, await turnPath(db, threadId, executionId, HISTORY_MESSAGES), executionId);
}

/**
 * A fresh turn's history, compacted first when what it would send passes the agent's threshold of
 * its context window (docs/compaction.md); an ordinary turn reads its path and nothing more.
 */
export async function loadCompactedHistory(
  deps: CompactorDeps,
  agent: CompactionAgent,
  threadId: string,
  executionId: string,
  occasion: CompactionOccasion,
): Promise<ModelMessage[]> {
  const path = await turnPath(deps.sql, threadId, executionId, HISTORY_MESSAGES);
  return historyOf(deps.sql, await compactIfNeeded(deps, agent, threadId, path, occasion), executionId);
}

/** The history of a path already read (the turn's, `turnPath`). */
export async function historyOf(db: SqlRunner, path: TurnPathRow[], executionId: string): Promise<ModelMessage[]> {
  const turnMessageId = path.find((row) => row.depth === 1 && row.fromReply)?.id ?? null;
  const { summary, rows } = compactedView(path);
  const messages: ModelMessage[] = summary ? [summaryMessage(summary)] : [];
  let previous: { role: string; parts: MessagePart[]; text: string } | null = null;
  let previousUserText: string | null = null;
  for (const row of rows) {
    const parts = row.parts as MessagePart[];
    const text = textOf(parts);
    if (row.role === 'ASSISTANT') {
      if (text.length > 0) messages.push({ role: 'assistant', content: text });
      previous = { role: 'ASSISTANT', parts, text };
      continue;
    }
    const retried = row.executionId === executionId && previous !== null && previousUserText === text ? interruptedCalls(previous.parts) : [];
    previousUserText = text;
    previous = null;
    if (retried.length > 0) {
      messages.push({ role: 'user', content: text }, ...retried);
      continue;
    }
    // Only this turn's own message hands its files to the model, and only when it has any.
    const files =
      row.id === turnMessageId && parts.some((part) => part.type === 'attachment')
        ? await messageFiles(db, row.id)
        : [];
    if (files.length === 0) {
      if (text.length > 0) messages.push({ role: 'user', content: text });
      continue;
    }
    messages.push({ role: 'user', content: [{ type: 'text', text }, ...files.map(fileOf)] });
  }
  return messages;
}

/** An attachment as the model gets it: its bytes are stored base64 (see docs/architecture.md). */
function fileOf(file: StoredFileRow) {
  return { type: 'file' as const, data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')), mediaType: file.mediaType, filename: file.filename };
}

/**
 * A retried turn whose earlier try was interrupted during tool calls: each such call, as the model
 * made it, with the note as its result — unless its tool is read-only or idempotent, which the
 * model may simply call again.
 */
function interruptedCalls(parts: readonly MessagePart[]): ModelMessage[] {
  const calls = parts.filter(
    (part): part is Extract<MessagePart, { type: 'tool-call' }> => part.type === 'tool-call' && part.state === 'INTERRUPTED' && part.safeToRepeat !== true,
  );
  if (calls.length === 0) return [];
  const named = calls.map((call) => ({ ...call, modelName: call.toolName.includes('/') ? modelToolName(call.toolName) : call.toolName }));
  return [
    {
      role: 'assistant',
      content: named.map((call) => ({ type: 'tool-call' as const, toolCallId: call.toolCallId, toolName: call.modelName, input: call.input ?? {} })),
    },
    {
      role: 'tool',
      content: named.map((call) => ({
        type: 'tool-result' as const,
        toolCallId: call.toolCallId,
        toolName: call.modelName,
        output: { type: 'error-text' as const, value: INTERRUPTED_CALL_NOTE },
      })),
    },
  ];
}
