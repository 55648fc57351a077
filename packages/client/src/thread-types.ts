import type {
  ClientMessagePartFieldsFragment,
  ClientQueueFieldsFragment,
  ExecutionStatus,
  ThreadConversationQuery,
  ThreadRunEventsSubscription,
} from './gql/graphql.ts';

// A thread as the user sees it, and the inputs that change it (thread-state.ts applies them). Pure:
// no I/O, no clock; every change returns a new state and leaves the old one as it was, so a UI can
// compare by reference.

export type RunEvent = ThreadRunEventsSubscription['runEvents'];
export type RunEventType = RunEvent['__typename'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { __typename: T }>;
export type MessagePart = ClientMessagePartFieldsFragment;
export type Queue = ClientQueueFieldsFragment;
export type Conversation = ThreadConversationQuery['conversation'];
export type Suspension = Conversation['openSuspensions'][number];
type ConversationMessage = Conversation['messages']['edges'][number]['node'];

export interface ThreadMessage {
  /** Null only for a reply known from its error alone, until the next read of the conversation. */
  readonly id: string | null;
  readonly role: ConversationMessage['role'];
  readonly executionId: string | null;
  /** The status of the message's execution: RUNNING while it streams, then how it ended. */
  readonly outcome: ExecutionStatus | null;
  readonly parts: readonly MessagePart[];
  /** The message it follows in its branch (as of the last read of the conversation). */
  readonly parentId?: string | null;
  /**
   * The messages with the same parent and role, oldest first, itself included: "2 / 3" is
   * `siblingIds.indexOf(id) + 1` of `siblingIds.length`; switchBranch to a neighbour moves there.
   * A message known from events only has itself until the conversation is read again.
   */
  readonly siblingIds: readonly string[];
}

/** One execution's streamed output; a delegated child lists under its parent's `children`. */
export interface ExecutionView {
  readonly executionId: string;
  readonly parentExecutionId: string | null;
  readonly status: ExecutionStatus | null;
  readonly text: string;
  readonly reasoning: string;
  readonly children: readonly string[];
}

export type FailureFields = Omit<Extract<MessagePart, { __typename: 'ErrorPart' }>, '__typename'>;

/** The latest failure, with the moment a `retryAfterS` countdown ends (ms since the epoch). */
export interface CurrentError extends FailureFields {
  readonly executionId: string;
  readonly retryAt: number | null;
}

export interface RetryCountdown {
  readonly executionId: string;
  readonly attempt: number;
  readonly reason: EventOf<'RetryScheduled'>['reason'];
  readonly retryAt: number;
}

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'unavailable' | 'closed';

export interface Connection {
  readonly status: ConnectionStatus;
  /** Why the last subscription ended, and when the session subscribes again (ms since the epoch). */
  readonly error: { readonly message: string; readonly code: string | null } | null;
  readonly retryAt: number | null;
}

export interface ThreadState {
  readonly threadId: string;
  /** True once the conversation has been read. */
  readonly loaded: boolean;
  /** The cursor of the last durable event applied: the only place to resume from. */
  readonly cursor: string | null;
  readonly messages: readonly ThreadMessage[];
  readonly executions: Readonly<Record<string, ExecutionView>>;
  readonly openSuspensions: readonly Suspension[];
  readonly queue: Queue | null;
  readonly activeExecutionId: string | null;
  readonly error: CurrentError | null;
  readonly retries: Readonly<Record<string, RetryCountdown>>;
  /** The last budget warning of the thread's runs: a budget's spend reached its warning share. */
  readonly budgetWarning?: EventOf<'BudgetWarning'>;
  readonly connection: Connection;
  /** Set when an event moved the active path somewhere this state does not hold: read the conversation again. */
  readonly needsConversation?: boolean;
}

export type ThreadInput =
  | { readonly type: 'conversation'; readonly conversation: Conversation }
  | { readonly type: 'event'; readonly event: RunEvent }
  | { readonly type: 'queue'; readonly queue: Queue }
  | { readonly type: 'connection'; readonly connection: Connection };

export function initialThreadState(threadId: string): ThreadState {
  return {
    threadId,
    loaded: false,
    cursor: null,
    messages: [],
    executions: {},
    openSuspensions: [],
    queue: null,
    activeExecutionId: null,
    error: null,
    retries: {},
    connection: { status: 'connecting', error: null, retryAt: null },
  };
}

/** Durable events have integer cursors; live-only ones (`<seq>.<n>`) are never a resume point. */
export function durableSeq(cursor: string): number | null {
  return /^\d+$/.test(cursor) ? Number(cursor) : null;
}

export function textOfParts(parts: readonly MessagePart[]): string {
  return parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
}
