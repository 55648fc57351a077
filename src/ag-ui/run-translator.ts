import { EventType, type BaseEvent } from '@ag-ui/core';
import type { MessagePart, ToolCallPart } from '../conversation/parts.ts';
import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { ThreadEventPayload } from '../events/thread-event.ts';
import { isAnswered, reasoningMessageId, textOfKind, toolResultContent, toolResultMessageId } from './message-mapping.ts';

/** Which run a stream follows: the turn of a queued message (its execution is not known yet), or an execution. */
export type RunTarget = { queueId: string } | { executionId: string };

/** What the client already has of the followed reply (a resumed run's earlier part). */
export interface KnownReply {
  text: number;
  reasoning: number;
  toolCalls: ReadonlySet<string>;
  results: ReadonlySet<string>;
}

/** A reply the client has nothing of yet. */
export function nothingKnown(): KnownReply {
  return { text: 0, reasoning: 0, toolCalls: new Set(), results: new Set() };
}

/** How the followed execution's last event ended it, for the stream to close the run with. */
export interface RunEnd {
  executionId: string;
  status: string;
  failure: { reason: string; message: string; retryable: boolean; retryAfterS: number | null } | null;
}

/**
 * Turns one execution's thread events into AG-UI events (no I/O): text and reasoning as messages
 * (a delta only as far as it is new to the client, by its offset, so a snapshot and the deltas after
 * it never repeat or skip text), tool calls with their arguments and results, a step per model
 * request (a step ends when its tool results are in and the model speaks again), and at the end
 * everything still open closed, as the protocol requires before RUN_FINISHED or RUN_ERROR.
 */
export class RunTranslator {
  private executionId: string | null;
  private textSent: number;
  private reasoningSent: number;
  private readonly toolCallsSent: Set<string>;
  private readonly resultsSent: Set<string>;
  private openText: string | null = null;
  private openReasoning: string | null = null;
  private reasoningSpans = 0;
  private step = 0;
  private stepOpen = false;
  private resultsSinceStep = false;
  private failure: RunEnd['failure'] = null;

  constructor(
    private readonly target: RunTarget,
    known: KnownReply = nothingKnown(),
  ) {
    this.executionId = 'executionId' in target ? target.executionId : null;
    this.textSent = known.text;
    this.reasoningSent = known.reasoning;
    this.toolCallsSent = new Set(known.toolCalls);
    this.resultsSent = new Set(known.results);
  }

  get followedExecutionId(): string | null {
    return this.executionId;
  }

  /** The AG-UI events of one thread event, and the run's end when this event ends it. */
  translate(event: RunEvent): { events: BaseEvent[]; end: RunEnd | null } {
    const payload = event.payload;
    if (payload.type === 'ExecutionStarted' && 'queueId' in this.target && payload.queueId === this.target.queueId) {
      this.executionId = event.executionId;
    }
    // A delegated child's events are shown on its card in this reply, not as this run's.
    if (this.executionId === null || event.executionId !== this.executionId) return { events: [], end: null };
    return { events: this.eventsOf(payload), end: this.endOf(payload) };
  }

  /** Closes whatever is open: the text, the reasoning, the step. */
  close(): BaseEvent[] {
    return [...this.closeText(), ...this.closeReasoning(), ...this.closeStep()];
  }

  private eventsOf(payload: ThreadEventPayload): BaseEvent[] {
    switch (payload.type) {
      case 'ExecutionStarted':
        return this.ensureStep();
      case 'TextDelta':
        return this.text(payload.messageId, payload.offset, payload.text);
      case 'ReasoningDelta':
        return this.reasoning(payload.messageId, payload.offset, payload.text);
      case 'ToolCallEvent':
        return this.toolCall(payload.messageId, { ...payload, type: 'tool-call' });
      case 'MessageSnapshot':
        return this.snapshot(payload.messageId, payload.parts as MessagePart[]);
      case 'ErrorEvent':
        this.failure = { reason: payload.reason, message: payload.message, retryable: payload.retryable, retryAfterS: payload.retryAfterS };
        return [];
      default:
        return [];
    }
  }

  private endOf(payload: ThreadEventPayload): RunEnd | null {
    // A suspension ends the AG-UI run (its interrupt); the execution goes on when a later request answers it.
    const suspended = payload.type === 'ExecutionUpdated' && payload.status === 'SUSPENDED';
    if (payload.type !== 'ExecutionFinished' && !suspended) return null;
    return { executionId: this.executionId!, status: payload.status, failure: this.failure };
  }

  private text(messageId: string, offset: number, text: string): BaseEvent[] {
    const fresh = text.slice(Math.max(0, this.textSent - offset));
    if (offset > this.textSent || fresh.length === 0) return [];
    this.textSent += fresh.length;
    const opening =
      this.openText === messageId
        ? []
        : [...this.closeReasoning(), ...this.nextStepIfAnswered(), { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' }];
    this.openText = messageId;
    return [...opening, { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: fresh }];
  }

  private reasoning(replyId: string, offset: number, text: string): BaseEvent[] {
    const fresh = text.slice(Math.max(0, this.reasoningSent - offset));
    if (offset > this.reasoningSent || fresh.length === 0) return [];
    this.reasoningSent += fresh.length;
    const opening: BaseEvent[] = [];
    if (this.openReasoning === null) {
      const messageId = reasoningMessageId(replyId, ++this.reasoningSpans);
      opening.push(
        ...this.closeText(),
        ...this.nextStepIfAnswered(),
        { type: EventType.REASONING_START, messageId },
        { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' },
      );
      this.openReasoning = messageId;
    }
    return [...opening, { type: EventType.REASONING_MESSAGE_CONTENT, messageId: this.openReasoning, delta: fresh }];
  }

  private toolCall(messageId: string, call: ToolCallPart): BaseEvent[] {
    const events: BaseEvent[] = [];
    if (!this.toolCallsSent.has(call.toolCallId)) {
      this.toolCallsSent.add(call.toolCallId);
      events.push(
        ...this.closeText(),
        ...this.closeReasoning(),
        ...this.nextStepIfAnswered(),
        { type: EventType.TOOL_CALL_START, toolCallId: call.toolCallId, toolCallName: call.toolName, parentMessageId: messageId },
        { type: EventType.TOOL_CALL_ARGS, toolCallId: call.toolCallId, delta: JSON.stringify(call.input ?? {}) },
        { type: EventType.TOOL_CALL_END, toolCallId: call.toolCallId },
      );
    }
    if (isAnswered(call) && !this.resultsSent.has(call.toolCallId)) {
      this.resultsSent.add(call.toolCallId);
      events.push(...this.ensureStep());
      this.resultsSinceStep = true;
      events.push({
        type: EventType.TOOL_CALL_RESULT,
        messageId: toolResultMessageId(call.toolCallId),
        toolCallId: call.toolCallId,
        content: toolResultContent(call),
        role: 'tool',
      });
    }
    return events;
  }

  /** A snapshot of the reply: what of it the client lacks (text past what it has, calls it has not seen). */
  private snapshot(replyId: string, parts: MessagePart[]): BaseEvent[] {
    const events = [...this.reasoning(replyId, 0, textOfKind(parts, 'reasoning')), ...this.text(replyId, 0, textOfKind(parts, 'text'))];
    for (const part of parts) if (part.type === 'tool-call') events.push(...this.toolCall(replyId, part));
    return events;
  }

  private ensureStep(): BaseEvent[] {
    if (this.stepOpen) return [];
    this.stepOpen = true;
    this.resultsSinceStep = false;
    return [{ type: EventType.STEP_STARTED, stepName: `step ${++this.step}` }];
  }

  /** The model speaks after its tool results: a new model request, so a new step. */
  private nextStepIfAnswered(): BaseEvent[] {
    if (this.stepOpen && !this.resultsSinceStep) return [];
    return [...this.closeStep(), ...this.ensureStep()];
  }

  private closeStep(): BaseEvent[] {
    if (!this.stepOpen) return [];
    this.stepOpen = false;
    return [{ type: EventType.STEP_FINISHED, stepName: `step ${this.step}` }];
  }

  private closeText(): BaseEvent[] {
    if (this.openText === null) return [];
    const messageId = this.openText;
    this.openText = null;
    return [{ type: EventType.TEXT_MESSAGE_END, messageId }];
  }

  private closeReasoning(): BaseEvent[] {
    if (this.openReasoning === null) return [];
    const messageId = this.openReasoning;
    this.openReasoning = null;
    return [
      { type: EventType.REASONING_MESSAGE_END, messageId },
      { type: EventType.REASONING_END, messageId },
    ];
  }
}
