import type {
  ClientMessagePartFieldsFragment,
  ClientQueueFieldsFragment,
  ExecutionStatus,
  ThreadConversationQuery,
  ThreadRunEventsSubscription,
} from './gql/graphql.ts';

// A thread as the user sees it, and how each input changes it. Pure: no I/O, no clock; every
// change returns a new state and leaves the old one as it was, so a UI can compare by reference.

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

export function applyToThread(state: ThreadState, input: ThreadInput): ThreadState {
  switch (input.type) {
    case 'conversation':
      return applyConversation(state, input.conversation);
    case 'event':
      return applyEvent(state, input.event);
    case 'queue':
      return { ...state, queue: input.queue };
    case 'connection':
      return { ...state, connection: input.connection };
  }
}

function retryAtOf(failure: { occurredAt: string; retryAfterS?: number | null }): number | null {
  return failure.retryAfterS == null ? null : Date.parse(failure.occurredAt) + failure.retryAfterS * 1000;
}

function failureOf(source: FailureFields): FailureFields {
  const { reason, retryable, retryAfterS, occurredAt, message, messageKey, params, provider, httpStatus, providerCode, requestId, detail } =
    source;
  return { reason, retryable, retryAfterS, occurredAt, message, messageKey, params, provider, httpStatus, providerCode, requestId, detail };
}

const FAILED_OUTCOMES: readonly (ExecutionStatus | null | undefined)[] = ['FAILED', 'INTERRUPTED', 'REFUSED'];

/**
 * A read of the conversation replaces what it covers, unless it is older than what was applied
 * (its eventCursor is before our cursor). Text streamed beyond what it recorded is kept.
 */
function applyConversation(state: ThreadState, conversation: Conversation): ThreadState {
  const read = durableSeq(conversation.eventCursor);
  const have = state.cursor === null ? null : durableSeq(state.cursor);
  if (have !== null && read !== null && read < have) return state;
  let executions = state.executions;
  const messages = conversation.messages.edges.map(({ node }): ThreadMessage => {
    let parts: readonly MessagePart[] = node.parts;
    if (node.role === 'ASSISTANT' && node.executionId) {
      parts = withLiveText(parts, node.executionId, executions);
      executions = withParts(executions, node.executionId, parts, node.outcome ?? null);
    }
    return {
      id: node.id,
      role: node.role,
      executionId: node.executionId ?? null,
      outcome: node.outcome ?? null,
      parts,
      parentId: node.parentId ?? null,
      siblingIds: node.siblingIds,
    };
  });
  // A reply of another branch (a regenerated one's sibling) is not shown again.
  const offPath = new Set(conversation.messages.edges.flatMap(({ node }) => node.siblingIds));
  // A reply streamed here but not yet recorded when the conversation was read stays.
  for (const reply of state.messages) {
    if (reply.role !== 'ASSISTANT' || !reply.executionId) continue;
    if (reply.id !== null && offPath.has(reply.id)) continue;
    if (messages.some((message) => message.role === 'ASSISTANT' && message.executionId === reply.executionId)) continue;
    const lastOfExecution = messages.findLastIndex((message) => message.executionId === reply.executionId);
    if (lastOfExecution >= 0) messages.splice(lastOfExecution + 1, 0, reply);
  }
  // The current error is the latest turn's: a later turn that went well has none.
  const lastExecutionId = messages.findLast((message) => message.executionId)?.executionId;
  const lastReply = messages.find((message) => message.role === 'ASSISTANT' && message.executionId === lastExecutionId);
  const lastFailure = lastReply?.parts.findLast((part) => part.__typename === 'ErrorPart');
  const error =
    lastReply?.executionId && lastFailure?.__typename === 'ErrorPart' && FAILED_OUTCOMES.includes(lastReply.outcome)
      ? { ...failureOf(lastFailure), executionId: lastReply.executionId, retryAt: retryAtOf(lastFailure) }
      : null;
  return {
    ...state,
    loaded: true,
    cursor: conversation.eventCursor,
    messages,
    executions,
    openSuspensions: conversation.openSuspensions,
    activeExecutionId: conversation.activeExecutionId ?? null,
    error: conversation.activeExecutionId ? null : error,
  };
}

/** Recorded parts, with the text streamed beyond them kept (the reply's own, and its cards' children's). */
function withLiveText(parts: readonly MessagePart[], executionId: string, executions: ThreadState['executions']): readonly MessagePart[] {
  const extends_ = (live: string | undefined, recorded: string) => live !== undefined && live.length > recorded.length && live.startsWith(recorded);
  const recorded = textOfParts(parts);
  const live = executions[executionId]?.text;
  let result = extends_(live, recorded) ? appendText(parts, live!.slice(recorded.length)) : parts;
  result = result.map((part) => {
    const childText = part.__typename === 'DelegationPart' ? executions[part.childExecutionId]?.text : undefined;
    return part.__typename === 'DelegationPart' && extends_(childText, part.text) ? { ...part, text: childText! } : part;
  });
  return result;
}

function applyEvent(state: ThreadState, event: RunEvent): ThreadState {
  const seq = durableSeq(event.cursor);
  if (seq !== null) {
    const have = state.cursor === null ? null : durableSeq(state.cursor);
    if (have !== null && seq <= have) return state;
    state = { ...state, cursor: event.cursor };
  }
  switch (event.__typename) {
    case 'MessageQueued':
    case 'QueueUpdated':
      return state;
    case 'ExecutionStarted':
      return executionStarted(state, event);
    case 'TextDelta':
      return textDelta(state, event);
    case 'ReasoningDelta': {
      const execution = executionOf(state, event.executionId, event.parentExecutionId);
      const reasoning = extendByOffset(execution.reasoning, event.text, event.offset);
      return reasoning === execution.reasoning ? state : withExecution(state, { ...execution, reasoning });
    }
    case 'MessageSnapshot':
      return messageSnapshot(state, event);
    case 'MessageSteered':
      return updateReply(state, event.executionId, null, (parts) => [
        ...parts,
        ...event.queueIds.map((queueId, index): MessagePart => ({ __typename: 'SteeredInputPart', queueId, text: event.texts[index] ?? '' })),
      ]);
    case 'ToolCallEvent':
      if (event.parentExecutionId) return state;
      return updateReply(state, event.executionId, event.messageId, (parts) => {
        const at = parts.findIndex((part) => part.__typename === 'ToolCallPart' && part.toolCallId === event.toolCallId);
        const known = at >= 0 && parts[at]!.__typename === 'ToolCallPart' ? (parts[at] as Extract<MessagePart, { __typename: 'ToolCallPart' }>) : null;
        const call: MessagePart = {
          __typename: 'ToolCallPart',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          state: event.state,
          input: event.input ?? known?.input ?? null,
          output: event.output ?? known?.output ?? null,
          toolError: event.error ?? null,
          durationMs: event.durationMs ?? known?.durationMs ?? null,
          progress: known?.progress ?? null,
        };
        return at >= 0 ? parts.map((part, index) => (index === at ? call : part)) : [...parts, call];
      });
    case 'ToolCallProgress':
      // Live only, and about a call this state already holds (its CALLED event came first, durable).
      if (event.parentExecutionId) return state;
      return updateReplyIfPresent(state, event.executionId, (parts) => {
        const at = parts.findIndex((part) => part.__typename === 'ToolCallPart' && part.toolCallId === event.toolCallId);
        const call = at >= 0 ? parts[at] : undefined;
        if (call?.__typename !== 'ToolCallPart' || call.state !== 'CALLED') return parts;
        return parts.map((part, index) => (index === at ? { ...call, progress: event.progress } : part));
      });
    case 'SuspensionOpened': {
      if (state.openSuspensions.some((open) => open.id === event.suspensionId)) return state;
      const call = state.messages
        .flatMap((message) => message.parts)
        .find((part) => part.__typename === 'ToolCallPart' && part.toolCallId === event.toolCallId);
      const suspension: Suspension = {
        id: event.suspensionId,
        kind: event.kind,
        status: 'OPEN',
        executionId: event.executionId,
        toolCallId: event.toolCallId,
        toolName: call?.__typename === 'ToolCallPart' ? call.toolName : '',
        payload: event.payload,
      };
      return { ...state, openSuspensions: [...state.openSuspensions, suspension] };
    }
    case 'SuspensionResolved':
      return { ...state, openSuspensions: state.openSuspensions.filter((open) => open.id !== event.suspensionId) };
    case 'RetryScheduled':
      return {
        ...state,
        retries: {
          ...state.retries,
          [event.executionId]: {
            executionId: event.executionId,
            attempt: event.attempt,
            reason: event.reason,
            retryAt: Date.parse(event.createdAt) + event.delayS * 1000,
          },
        },
      };
    case 'ErrorEvent':
      return errorEvent(state, event);
    case 'ExecutionFinished':
    case 'ExecutionUpdated':
      return executionStatus(state, event);
    case 'BranchSwitched':
      return branchSwitched(state, event);
    case 'BudgetWarning':
      return { ...state, budgetWarning: event };
    case 'ThreadCompacted':
      // What the model is sent changed, not what the thread shows: the originals stay on the path.
      return state;
  }
}

/**
 * The path now ends at the event's leaf. When the leaf is on the path shown (an edit or a
 * regeneration cut it there), the messages after it go; otherwise the path is one this state does
 * not hold, and the session reads the conversation again (`needsConversation`).
 */
function branchSwitched(state: ThreadState, event: EventOf<'BranchSwitched'>): ThreadState {
  const leaf = event.leafMessageId ?? null;
  const at = leaf === null ? -1 : state.messages.findIndex((message) => message.id === leaf);
  if (leaf !== null && at < 0) return { ...state, needsConversation: true };
  return { ...state, messages: state.messages.slice(0, at + 1) };
}

function executionOf(state: ThreadState, executionId: string, parentExecutionId?: string | null): ExecutionView {
  return (
    state.executions[executionId] ?? {
      executionId,
      parentExecutionId: parentExecutionId ?? null,
      status: null,
      text: '',
      reasoning: '',
      children: [],
    }
  );
}

/** Adds or replaces an execution, and lists a child under its parent. */
function withExecution(state: ThreadState, execution: ExecutionView): ThreadState {
  let executions = { ...state.executions, [execution.executionId]: execution };
  const parentId = execution.parentExecutionId;
  if (parentId) {
    const parent = executionOf({ ...state, executions }, parentId);
    if (!parent.children.includes(execution.executionId)) {
      executions = { ...executions, [parentId]: { ...parent, children: [...parent.children, execution.executionId] } };
    }
  }
  return { ...state, executions };
}

/** The text with a delta applied only beyond what it already has; a delta past its end cannot apply. */
function extendByOffset(have: string, text: string, offset: number): string {
  if (offset > have.length || offset + text.length <= have.length) return have;
  return have + text.slice(have.length - offset);
}

/** Appends streamed text; a reply's error stays its last part (a replay may bring text after it). */
function appendText(parts: readonly MessagePart[], text: string): readonly MessagePart[] {
  if (text === '') return parts;
  let end = parts.length;
  while (end > 0 && parts[end - 1]!.__typename === 'ErrorPart') end--;
  const before = parts.slice(0, end);
  const last = before.at(-1);
  const extended: MessagePart[] =
    last?.__typename === 'TextPart' ? [...before.slice(0, -1), { __typename: 'TextPart', text: last.text + text }] : [...before, { __typename: 'TextPart', text }];
  return [...extended, ...parts.slice(end)];
}

/** An execution's text and its cards' children's, from a reply's parts. */
function withParts(
  executions: ThreadState['executions'],
  executionId: string,
  parts: readonly MessagePart[],
  status: ExecutionStatus | null,
): ThreadState['executions'] {
  const base: ThreadState = { ...initialThreadState(''), executions };
  const current = executionOf(base, executionId);
  let next = withExecution(base, { ...current, text: textOfParts(parts), status: status ?? current.status });
  for (const part of parts) {
    if (part.__typename !== 'DelegationPart') continue;
    const child = executionOf(next, part.childExecutionId, executionId);
    next = withExecution(next, { ...child, parentExecutionId: executionId, text: part.text, reasoning: part.reasoning });
  }
  return next.executions;
}

/** The reply of a top-level execution: created right after the execution's last message if missing. */
function updateReply(
  state: ThreadState,
  executionId: string,
  messageId: string | null,
  update: (parts: readonly MessagePart[]) => readonly MessagePart[],
): ThreadState {
  const at = state.messages.findIndex((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
  if (at >= 0) {
    const reply = state.messages[at]!;
    const parts = update(reply.parts);
    if (parts === reply.parts && (reply.id !== null || messageId === null)) return state;
    const messages = [...state.messages];
    messages[at] = { ...reply, id: reply.id ?? messageId, parts, siblingIds: reply.id === null && messageId ? [messageId] : reply.siblingIds };
    return { ...state, messages };
  }
  const lastOfExecution = state.messages.findLastIndex((message) => message.executionId === executionId);
  const insertAt = lastOfExecution >= 0 ? lastOfExecution + 1 : state.messages.length;
  const outcome = state.executions[executionId]?.status ?? state.messages[lastOfExecution]?.outcome ?? null;
  const reply: ThreadMessage = { id: messageId, role: 'ASSISTANT', executionId, outcome, parts: update([]), siblingIds: messageId ? [messageId] : [] };
  return { ...state, messages: [...state.messages.slice(0, insertAt), reply, ...state.messages.slice(insertAt)] };
}

function executionStarted(state: ThreadState, event: EventOf<'ExecutionStarted'>): ThreadState {
  const execution = executionOf(state, event.executionId, event.parentExecutionId);
  state = withExecution(state, { ...execution, status: 'RUNNING' });
  if (event.parentExecutionId) return state;
  const retries = { ...state.retries };
  delete retries[event.executionId];
  const known = state.messages.some((message) => message.id === event.userMessageId);
  const message: ThreadMessage = {
    id: event.userMessageId,
    role: 'USER',
    executionId: event.executionId,
    outcome: 'RUNNING',
    parts: [{ __typename: 'TextPart', text: event.acceptedText }],
    siblingIds: [event.userMessageId],
  };
  return {
    ...state,
    messages: known ? state.messages : [...state.messages, message],
    activeExecutionId: event.executionId,
    error: null,
    retries,
  };
}

function textDelta(state: ThreadState, event: EventOf<'TextDelta'>): ThreadState {
  const execution = executionOf(state, event.executionId, event.parentExecutionId);
  const text = extendByOffset(execution.text, event.text, event.offset);
  if (text === execution.text) return state;
  const added = text.slice(execution.text.length);
  state = withExecution(state, { ...execution, text });
  if (!event.parentExecutionId) return updateReply(state, event.executionId, event.messageId, (parts) => appendText(parts, added));
  // A child's text shows on its card in the parent's reply.
  const parentId = event.parentExecutionId;
  return updateReplyIfPresent(state, parentId, (parts) =>
    parts.map((part) =>
      part.__typename === 'DelegationPart' && part.childExecutionId === event.executionId ? { ...part, text } : part,
    ),
  );
}

function updateReplyIfPresent(state: ThreadState, executionId: string, update: (parts: readonly MessagePart[]) => readonly MessagePart[]) {
  const present = state.messages.some((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
  return present ? updateReply(state, executionId, null, update) : state;
}

function messageSnapshot(state: ThreadState, event: EventOf<'MessageSnapshot'>): ThreadState {
  if (event.parentExecutionId) {
    const execution = executionOf(state, event.executionId, event.parentExecutionId);
    return withExecution(state, { ...execution, text: textOfParts(event.parts) });
  }
  state = { ...state, executions: withParts(state.executions, event.executionId, event.parts, null) };
  // An empty reply shows nothing yet: it appears with its first part.
  if (event.parts.length === 0) return updateReplyIfPresent(state, event.executionId, () => event.parts);
  return updateReply(state, event.executionId, event.messageId, () => event.parts);
}

function errorEvent(state: ThreadState, event: EventOf<'ErrorEvent'>): ThreadState {
  if (event.parentExecutionId) return state;
  const failure = failureOf(event);
  state = {
    ...state,
    error: { ...failure, executionId: event.executionId, retryAt: retryAtOf(failure) },
  };
  return updateReply(state, event.executionId, null, (parts) => [...parts, { __typename: 'ErrorPart', ...failure }]);
}

/** A failure known from its reply's ErrorPart (its ErrorEvent came before what this state was read from). */
function recordedFailure(state: ThreadState, executionId: string): CurrentError | null {
  const reply = state.messages.find((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
  const failure = reply?.parts.findLast((part) => part.__typename === 'ErrorPart');
  return failure?.__typename === 'ErrorPart' ? { ...failureOf(failure), executionId, retryAt: retryAtOf(failure) } : state.error;
}

function executionStatus(state: ThreadState, event: EventOf<'ExecutionFinished'> | EventOf<'ExecutionUpdated'>): ThreadState {
  const execution = executionOf(state, event.executionId, event.parentExecutionId);
  state = withExecution(state, { ...execution, status: event.status });
  if (event.parentExecutionId) return state;
  const ended = event.status !== 'RUNNING';
  const retries = { ...state.retries };
  if (ended) delete retries[event.executionId];
  return {
    ...state,
    error: FAILED_OUTCOMES.includes(event.status) && state.error?.executionId !== event.executionId ? recordedFailure(state, event.executionId) : state.error,
    messages: state.messages.map((message) =>
      message.executionId === event.executionId && message.outcome !== event.status ? { ...message, outcome: event.status } : message,
    ),
    activeExecutionId: ended && state.activeExecutionId === event.executionId ? null : state.activeExecutionId,
    openSuspensions:
      event.status === 'SUSPENDED' ? state.openSuspensions : state.openSuspensions.filter((open) => open.executionId !== event.executionId),
    retries,
  };
}

/** The thread's top-level executions' views with their children resolved, for a UI's delegation cards. */
export function childrenOf(state: ThreadState, executionId: string): ExecutionView[] {
  return (state.executions[executionId]?.children ?? []).flatMap((id) => (state.executions[id] ? [state.executions[id]] : []));
}
