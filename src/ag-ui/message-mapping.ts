import type { Message, ToolCall } from '@ag-ui/core';
import type { MessagePart, ToolCallPart, ToolCallState } from '../conversation/parts.ts';

/**
 * How Parley's records are named and shaped as AG-UI messages. A user message sent over AG-UI keeps
 * the client's id (its turn's idempotency key); everything else is named from Parley's ids, so the
 * same reply has the same AG-UI ids in a stream, in a snapshot and in the next request's history.
 */

/** The idempotency key's namespace of a client-chosen key (src/queue/queue-service.ts). */
const CLIENT_KEY_PREFIX = 'client:';

/** Tool calls in these states have their result: the model was given it. */
const ANSWERED_STATES: ReadonlySet<ToolCallState> = new Set(['SUCCEEDED', 'FAILED', 'DENIED', 'CANCELLED', 'INTERRUPTED']);

export function toolResultMessageId(toolCallId: string): string {
  return `${toolCallId}-result`;
}

export function reasoningMessageId(replyId: string, span: number): string {
  return `${replyId}-reasoning-${span}`;
}

/** The idempotency key a message sent with the client's id is stored under. */
export function storedClientKey(messageId: string): string {
  return `${CLIENT_KEY_PREFIX}${messageId}`;
}

/** The client's message id a stored idempotency key carries, or null for a key Parley chose. */
export function clientMessageIdOf(storedKey: string | null | undefined): string | null {
  return storedKey?.startsWith(CLIENT_KEY_PREFIX) ? storedKey.slice(CLIENT_KEY_PREFIX.length) : null;
}

export function isAnswered(part: ToolCallPart): boolean {
  return ANSWERED_STATES.has(part.state);
}

/** What the model was given as the call's result, as the AG-UI tool message's text. */
export function toolResultContent(part: ToolCallPart): string {
  if (part.state === 'FAILED') return part.error ?? 'The tool failed.';
  if (part.state === 'DENIED') return 'The user denied this call.';
  if (part.state === 'CANCELLED' || part.state === 'INTERRUPTED') return `The call was ${part.state.toLowerCase()}.`;
  if (typeof part.output === 'string') return part.output;
  return JSON.stringify(part.output ?? null);
}

export function toolCallOf(part: ToolCallPart): ToolCall {
  return { id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } };
}

const textOfKind = (parts: readonly MessagePart[], type: 'text' | 'reasoning') =>
  parts.flatMap((part) => (part.type === type ? [part.text] : [])).join('');

/** A user message of the thread as AG-UI shows it. */
export function userMessage(id: string, parts: readonly MessagePart[]): Message {
  return { id, role: 'user', content: textOfKind(parts, 'text') };
}

/** A reply as AG-UI messages: its reasoning, the assistant message (text and tool calls), the tool results. */
export function replyMessages(replyId: string, parts: readonly MessagePart[]): Message[] {
  const reasoning = textOfKind(parts, 'reasoning');
  const calls = parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const text = textOfKind(parts, 'text');
  return [
    ...(reasoning ? [{ id: reasoningMessageId(replyId, 1), role: 'reasoning' as const, content: reasoning }] : []),
    { id: replyId, role: 'assistant', ...(text ? { content: text } : {}), ...(calls.length ? { toolCalls: calls.map(toolCallOf) } : {}) },
    ...calls.filter(isAnswered).map((call) => ({
      id: toolResultMessageId(call.toolCallId),
      role: 'tool' as const,
      toolCallId: call.toolCallId,
      content: toolResultContent(call),
    })),
  ];
}

export { textOfKind };
