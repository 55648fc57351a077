import type { ExecutionStatus } from './gql/graphql.ts';
import {
  initialThreadState,
  textOfParts,
  type CurrentError,
  type EventOf,
  type ExecutionView,
  type FailureFields,
  type MessagePart,
  type ThreadMessage,
  type ThreadState,
} from './thread-types.ts';

// How one execution's events change the state: its view (streamed text, reasoning, children), the
// reply it writes into, and how it ended. Pure, as the rest of the thread state.

export function retryAtOf(failure: { occurredAt: string; retryAfterS?: number | null }): number | null {
  return failure.retryAfterS == null ? null : Date.parse(failure.occurredAt) + failure.retryAfterS * 1000;
}

export function failureOf(source: FailureFields): FailureFields {
  const { reason, retryable, retryAfterS, occurredAt, message, messageKey, params, provider, httpStatus, providerCode, requestId, detail } =
    source;
  return { reason, retryable, retryAfterS, occurredAt, message, messageKey, params, provider, httpStatus, providerCode, requestId, detail };
}

export const FAILED_OUTCOMES: readonly (ExecutionStatus | null | undefined)[] = ['FAILED', 'INTERRUPTED', 'REFUSED'];

export function executionOf(state: ThreadState, executionId: string, parentExecutionId?: string | null): ExecutionView {
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
export function withExecution(state: ThreadState, execution: ExecutionView): ThreadState {
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
export function extendByOffset(have: string, text: string, offset: number): string {
  if (offset > have.length || offset + text.length <= have.length) return have;
  return have + text.slice(have.length - offset);
}

/** Appends streamed text; a reply's error stays its last part (a replay may bring text after it). */
export function appendText(parts: readonly MessagePart[], text: string): readonly MessagePart[] {
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
export function withParts(
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
export function updateReply(
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

export function executionStarted(state: ThreadState, event: EventOf<'ExecutionStarted'>): ThreadState {
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

export function textDelta(state: ThreadState, event: EventOf<'TextDelta'>): ThreadState {
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

export function updateReplyIfPresent(state: ThreadState, executionId: string, update: (parts: readonly MessagePart[]) => readonly MessagePart[]) {
  const present = state.messages.some((message) => message.role === 'ASSISTANT' && message.executionId === executionId);
  return present ? updateReply(state, executionId, null, update) : state;
}

export function messageSnapshot(state: ThreadState, event: EventOf<'MessageSnapshot'>): ThreadState {
  if (event.parentExecutionId) {
    const execution = executionOf(state, event.executionId, event.parentExecutionId);
    return withExecution(state, { ...execution, text: textOfParts(event.parts) });
  }
  state = { ...state, executions: withParts(state.executions, event.executionId, event.parts, null) };
  // An empty reply shows nothing yet: it appears with its first part.
  if (event.parts.length === 0) return updateReplyIfPresent(state, event.executionId, () => event.parts);
  return updateReply(state, event.executionId, event.messageId, () => event.parts);
}

export function errorEvent(state: ThreadState, event: EventOf<'ErrorEvent'>): ThreadState {
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

export function executionStatus(state: ThreadState, event: EventOf<'ExecutionFinished'> | EventOf<'ExecutionUpdated'>): ThreadState {
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
