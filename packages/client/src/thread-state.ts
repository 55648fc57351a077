import {
  durableSeq,
  textOfParts,
  type Conversation,
  type EventOf,
  type MessagePart,
  type RunEvent,
  type Suspension,
  type ThreadInput,
  type ThreadMessage,
  type ThreadState,
} from './thread-types.ts';
import {
  appendText,
  errorEvent,
  executionOf,
  executionStarted,
  executionStatus,
  extendByOffset,
  FAILED_OUTCOMES,
  failureOf,
  messageSnapshot,
  retryAtOf,
  textDelta,
  updateReply,
  updateReplyIfPresent,
  withExecution,
  withParts,
} from './thread-updates.ts';

export * from './thread-types.ts';
export { childrenOf } from './thread-updates.ts';

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
