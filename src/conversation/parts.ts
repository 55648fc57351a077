import type { RecordedFailure } from '../errors/recorded-failure.ts';

export const TOOL_CALL_STATES = [
  'CALLED',
  'SUCCEEDED',
  'FAILED',
  'AWAITING_APPROVAL',
  'AWAITING_ANSWER',
  'DENIED',
  'CANCELLED',
  'INTERRUPTED',
] as const;
/** A call in one of these states had not ended when its run did. */
export const OPEN_TOOL_CALL_STATES: ReadonlySet<ToolCallState> = new Set(['CALLED', 'AWAITING_APPROVAL']);
export type ToolCallState = (typeof TOOL_CALL_STATES)[number];

/** A stored file a part names; `/attachments/<attachmentId>` serves it. */
export interface AttachmentRef {
  attachmentId: string;
  filename: string;
  mediaType: string;
  size: number;
}

/** Where the server serves a stored file (GET, with the reader's Authorization header). */
export function downloadPathOf(attachmentId: string): string {
  return `/attachments/${attachmentId}`;
}

/** What a tool server's call answers, as its part's `output` keeps it. */
export interface ToolServerOutput {
  text: string;
  truncated: boolean;
  /** The files of its result kept as attachments of the reply (absent when there were none). */
  attachments?: (AttachmentRef & { downloadPath: string })[];
}

/**
 * How far a running call has got, as its tool server last said (MCP `notifications/progress`):
 * `progress` grows; `total` when the server knows it; `message` in the server's words.
 */
export interface ToolProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

/** The typed parts of a Message, stored as JSON on `message.parts`. */
/** A tool call as the runtime reports it and the reply records it: one shape for both. */
export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
  state: ToolCallState;
  output: unknown;
  /** Why a FAILED call failed, as the model was told. */
  error?: string | null;
  durationMs?: number | null;
  /** A tool-server tool annotated read-only or idempotent (a retry may simply call it again). */
  safeToRepeat?: boolean;
  /** The last progress its tool server reported while it ran (absent when it reported none). */
  progress?: ToolProgress | null;
}

/**
 * A summary that replaces, for the model, every message of the path before the message that holds
 * it (docs/compaction.md). The originals stay in the thread; `undone` (uncompactThread) sends them again.
 */
export interface CompactionPart {
  type: 'compaction';
  summary: string;
  /** The first and the last message the summary replaces, and how many there are. */
  firstMessageId: string;
  throughMessageId: string;
  replacedMessages: number;
  /** The model that wrote the summary, what its call took and gave, and the estimates before and after. */
  model: string;
  inputTokens: number;
  outputTokens: number;
  replacedTokens: number;
  summaryTokens: number;
  createdAt: string;
  undone: boolean;
  /** When it was undone (ISO), absent while it is in force. */
  undoneAt?: string;
}

export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | ToolCallPart
  | {
      type: 'delegation';
      toolCallId: string;
      childExecutionId: string;
      text: string;
      reasoning: string;
      truncated: boolean;
      error: RecordedFailure | null;
    }
  | ({ type: 'error' } & RecordedFailure)
  | ({ type: 'attachment' } & AttachmentRef)
  | { type: 'steered-input'; queueId: string; text: string }
  | CompactionPart;

export function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is Extract<MessagePart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('');
}
