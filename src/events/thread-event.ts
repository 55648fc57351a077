import type { ToolCallState } from '../conversation/parts.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { ExecutionStatus } from '../generated/prisma/enums.ts';
import type { BudgetWarningNotice } from '../runtime/runtime-event.ts';

/**
 * Everything a `runEvents` subscriber can receive. Durable kinds are appended to the thread event log
 * (they have a seq); deltas are live only, and a reload recovers their text from message snapshots.
 */
export type ThreadEventPayload =
  | { type: 'MessageQueued'; queueId: string; text: string; idempotencyKey: string | null }
  | { type: 'ExecutionStarted'; acceptedText: string; userMessageId: string; queueId: string }
  | { type: 'TextDelta'; messageId: string; text: string; offset: number }
  | { type: 'ReasoningDelta'; messageId: string; text: string; offset: number }
  | {
      type: 'ToolCallEvent';
      messageId: string;
      toolCallId: string;
      toolName: string;
      state: ToolCallState;
      input: unknown;
      output: unknown;
      error?: string | null;
      durationMs?: number | null;
    }
  /** Live only: how far a running call has got; its part keeps the last one. */
  | { type: 'ToolCallProgress'; messageId: string; toolCallId: string; progress: number; total: number | null; message: string | null }
  | { type: 'SuspensionOpened'; suspensionId: string; kind: 'APPROVAL' | 'QUESTION' | 'CLIENT_TOOL' | 'ELICITATION'; toolCallId: string; payload: unknown }
  | { type: 'SuspensionResolved'; suspensionId: string; resolution: unknown }
  | { type: 'MessageSteered'; queueIds: string[]; texts: string[] }
  | { type: 'RetryScheduled'; attempt: number; delayS: number; reason: string }
  | ({ type: 'BudgetWarning' } & BudgetWarningNotice)
  /** A summary now replaces the messages before `messageId` for the model (or, undone, no longer does). */
  | { type: 'ThreadCompacted'; messageId: string; throughMessageId: string; undone: boolean }
  | ({ type: 'ErrorEvent' } & RecordedFailure)
  | { type: 'ExecutionFinished'; status: ExecutionStatus }
  | { type: 'QueueUpdated' }
  | { type: 'ExecutionUpdated'; status: ExecutionStatus }
  | { type: 'MessageSnapshot'; messageId: string; parts: unknown; textLength: number }
  /** The active path now ends at this message (null: no message is on it, as before a first turn). */
  | { type: 'BranchSwitched'; leafMessageId: string | null }
  /** Live only, never delivered: the thread was deleted, and its subscribers end with its not-found error. */
  | { type: 'ThreadDeleted' };

export type ThreadEventType = ThreadEventPayload['type'];

export const TRANSIENT_EVENT_TYPES: ReadonlySet<ThreadEventType> = new Set(['TextDelta', 'ReasoningDelta', 'ToolCallProgress', 'MessageSnapshot', 'ThreadDeleted']);

export interface ThreadEvent {
  threadId: string;
  /** Position in the thread's durable log; null for live-only events. */
  seq: number | null;
  executionId: string | null;
  /** A delegated child's events: the execution whose reply holds the child's card. */
  parentExecutionId: string | null;
  createdAt: string;
  payload: ThreadEventPayload;
}

export type NewThreadEvent = { executionId: string | null; parentExecutionId?: string | null; payload: ThreadEventPayload };
