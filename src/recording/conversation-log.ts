import { isDatabaseOutage } from '../db/outage.ts';
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import { writeReplyParts } from '../storage/run-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import { OPEN_TOOL_CALL_STATES, type MessagePart } from '../conversation/parts.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunEnd, RunListener, RunState, Settlement } from './run-listener.ts';

/** Recorded text and reasoning of one delegation (each); more is shown live but not recovered. */
export const DELEGATION_RECORDED_CHARS = 4_000;

export interface FlushPolicy {
  /** Longest time streamed text waits in memory before it is written. */
  flushMs: number;
  /** Unwritten characters that force a write at once. */
  flushChars: number;
}

/**
 * Records the assistant turn of a run. Text is kept in memory and written in batches (snapshots),
 * never per token; every structural change (tool call, error, boundary, end) is written at once.
 */
export class ConversationLog implements RunListener {
  private parts: MessagePart[] = [];
  /** Parts changed since the last write. */
  private dirty = false;
  private unflushedChars = 0;
  /** Every character streamed into the reply, written or not. */
  private streamedChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private messageId: string | null = null;
  /** The run's error part, kept so that a settlement tried again (after an outage) replaces it. */
  private failurePart: MessagePart | null = null;
  private settling = false;
  /** Whether the reply was created inside the settlement (a run that failed before it started). */
  private openedInSettlement = false;

  constructor(
    private readonly prisma: PrismaClient,
    /** The driver under Prisma: the reply's timed writes (src/storage/). */
    private readonly sql: SqlRunner,
    private readonly policy: FlushPolicy,
    private readonly onFlushError: (error: unknown) => void,
  ) {}

  /** The assistant message as recorded so far plus what is still in memory (for a reconnecting client). */
  snapshot(): { messageId: string | null; parts: MessagePart[] } {
    return { messageId: this.messageId, parts: structuredClone(this.parts) };
  }

  async onEvent(event: RuntimeEvent, run: RunState): Promise<void> {
    switch (event.type) {
      case 'run-started':
        await this.openTurn(run, this.prisma);
        break;
      case 'text-delta':
        this.appendText('text', event.text);
        this.scheduleFlush();
        break;
      case 'reasoning-delta':
        this.appendText('reasoning', event.text);
        this.scheduleFlush();
        break;
      case 'tool-call': {
        const existing = this.parts.find(
          (part): part is Extract<MessagePart, { type: 'tool-call' }> =>
            part.type === 'tool-call' && part.toolCallId === event.toolCallId,
        );
        if (existing) Object.assign(existing, { state: event.state, output: event.output, error: event.error ?? null, durationMs: event.durationMs ?? null });
        else this.parts.push({ type: 'tool-call', ...pick(event) });
        this.dirty = true;
        await this.flushUnlessOutage();
        break;
      }
      case 'boundary':
        await this.flushUnlessOutage();
        break;
      case 'steered':
        for (const item of event.items) this.parts.push({ type: 'steered-input', queueId: item.queueId, text: item.text });
        this.dirty = true;
        await this.flushUnlessOutage();
        break;
      default:
        break;
    }
  }

  async onSettle(end: RunEnd, run: RunState, settlement: Settlement): Promise<void> {
    // A run swept after its instance died is read back here first (the reply as last written).
    if (end.outcome === 'INTERRUPTED') await this.openTurn(run, settlement.tx);
    if (end.outcome === 'CANCELLED' || end.outcome === 'INTERRUPTED') this.endOpenToolCalls(end.outcome, run, settlement);
    if (end.failure) {
      // A failure before the run started still leaves the question and its error in the conversation.
      // A reply opened by an earlier attempt of the settlement was rolled back with it.
      if (this.openedInSettlement) {
        this.messageId = null;
        run.assistantMessageId = null;
      }
      this.openedInSettlement = this.messageId === null;
      await this.openTurn(run, settlement.tx);
      if (this.failurePart && this.parts.includes(this.failurePart)) this.parts.splice(this.parts.indexOf(this.failurePart), 1);
      this.failurePart = { type: 'error', ...end.failure };
      this.parts.push(this.failurePart);
      this.dirty = true;
    }
    this.settleInto(settlement);
  }

  /**
   * A call still open when its run ended was cancelled by the Stop (the tool server was told) or
   * interrupted with its instance; it is never left looking as if it still ran.
   */
  private endOpenToolCalls(outcome: 'CANCELLED' | 'INTERRUPTED', run: RunState, settlement: Settlement): void {
    for (const part of this.parts) {
      if (part.type !== 'tool-call' || !OPEN_TOOL_CALL_STATES.has(part.state)) continue;
      part.state = outcome;
      this.dirty = true;
      settlement.events.push({
        executionId: run.executionId,
        parentExecutionId: run.parentExecutionId,
        payload: {
          type: 'ToolCallEvent',
          messageId: this.messageId ?? '',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          state: outcome,
          input: part.input,
          output: null,
          error: null,
          durationMs: part.durationMs ?? null,
        },
      });
    }
  }

  /** Adds the card of a delegated child (once), so its text and failure have a place in this reply. */
  openDelegation(toolCallId: string, childExecutionId: string): void {
    if (this.delegation(childExecutionId)) return;
    this.dirty = true;
    this.parts.push({
      type: 'delegation',
      toolCallId,
      childExecutionId,
      text: '',
      reasoning: '',
      truncated: false,
      error: null,
    });
  }

  appendDelegationText(childExecutionId: string, field: 'text' | 'reasoning', text: string): void {
    const card = this.delegation(childExecutionId);
    if (!card) return;
    const room = DELEGATION_RECORDED_CHARS - card[field].length;
    if (text.length > room) card.truncated = true;
    if (room <= 0) return;
    card[field] += text.slice(0, room);
    this.dirty = true;
    this.unflushedChars += Math.min(text.length, room);
    this.streamedChars += Math.min(text.length, room);
    this.scheduleFlush();
  }

  setDelegationError(childExecutionId: string, failure: RecordedFailure): void {
    const card = this.delegation(childExecutionId);
    if (card) card.error = failure;
    this.dirty = true;
  }

  private delegation(childExecutionId: string) {
    return this.parts.find(
      (part): part is Extract<MessagePart, { type: 'delegation' }> =>
        part.type === 'delegation' && part.childExecutionId === childExecutionId,
    );
  }

  private appendText(type: 'text' | 'reasoning', text: string): void {
    this.dirty = true;
    const last = this.parts.at(-1);
    if (last && last.type === type) last.text += text;
    else this.parts.push({ type, text });
    this.unflushedChars += text.length;
    this.streamedChars += text.length;
  }

  /**
   * A structural write that meets a database outage does not end the run: the parts stay in memory,
   * a timed flush tries again, and the settlement writes them in any case.
   */
  private async flushUnlessOutage(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      if (!isDatabaseOutage(error)) throw error;
      this.onFlushError(error);
    }
  }

  private scheduleFlush(): void {
    // Each write carries the whole reply: in a long one, a batch of a quarter of what streamed so
    // far keeps all its writes together to a few times its length, where a fixed batch would make
    // them grow with its square. The timer still bounds how late text is written.
    if (this.unflushedChars >= Math.max(this.policy.flushChars, this.streamedChars / 4)) {
      this.flush().catch(this.onFlushError);
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush().catch(this.onFlushError);
    }, this.policy.flushMs);
  }

  /** Opens the run's reply, or reopens it when a suspended run resumes, so it stays one message. */
  private async openTurn(run: RunState, db: Prisma.TransactionClient): Promise<void> {
    if (this.messageId) return;
    if (run.assistantMessageId) {
      // Admission created the reply's message (empty) with the execution.
      this.messageId = run.assistantMessageId;
      return;
    }
    const existing = await db.message.findFirst({
      where: { executionId: run.executionId, role: 'ASSISTANT' },
      select: { id: true, parts: true },
    });
    if (existing) {
      this.messageId = existing.id;
      this.parts = existing.parts as MessagePart[];
      run.assistantMessageId = existing.id;
      run.textLength = lengthOf(this.parts, 'text');
      run.reasoningLength = lengthOf(this.parts, 'reasoning');
      return;
    }
    const hasUserMessage = await db.message.findFirst({
      where: { executionId: run.executionId, role: 'USER' },
      select: { id: true },
    });
    if (!hasUserMessage && run.acceptedText) {
      await db.message.create({
        data: {
          threadId: run.threadId,
          executionId: run.executionId,
          role: 'USER',
          parts: [{ type: 'text', text: run.acceptedText }],
        },
      });
    }
    const message = await db.message.create({
      data: { threadId: run.threadId, executionId: run.executionId, role: 'ASSISTANT', parts: [] },
      select: { id: true },
    });
    this.messageId = message.id;
    run.assistantMessageId = message.id;
  }

  /** Lets the writes in flight finish, so the settlement transaction is the last writer. */
  async drain(): Promise<void> {
    // What is not written yet is the settlement's to write, in its one statement. A flush still
    // waiting for its timer must not fire: landing after the settlement, it would overwrite the
    // settled reply (its error part, say) with an older snapshot.
    this.settling = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writing.catch(() => {});
  }

  /**
   * The reply's final parts, written by the settlement's statement (after `drain()`); always the
   * whole reply, so a settlement tried again after a failed transaction writes it again too.
   */
  settleInto(settlement: Settlement): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.messageId) return;
    settlement.reply = { messageId: this.messageId, parts: structuredClone(this.parts) };
  }

  /** Writes the current parts; writes are chained so an older snapshot never overwrites a newer one. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const messageId = this.messageId;
    if (!messageId || !this.dirty) return this.writing;
    this.dirty = false;
    this.unflushedChars = 0;
    // Serialized now: the parts go on changing while the write waits for the one before it.
    const parts = JSON.stringify(this.parts);
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        // Every running reply writes here about once a second: one plain statement, returning nothing.
        await writeReplyParts(this.sql, messageId, parts, new Date());
      })
      .catch((error: unknown) => {
        // Not dropped: the parts are still in memory, so the next write (a timed one at the latest) has them.
        this.dirty = true;
        if (!this.settling) {
          this.timer ??= setTimeout(() => {
            this.timer = null;
            this.flush().catch(this.onFlushError);
          }, this.policy.flushMs);
        }
        throw error;
      });
    return this.writing;
  }
}

function pick(event: Extract<RuntimeEvent, { type: 'tool-call' }>) {
  const { toolCallId, toolName, input, state, output } = event;
  const extra = { error: event.error ?? null, durationMs: event.durationMs ?? null };
  return { toolCallId, toolName, input, state, output, ...extra, ...(event.safeToRepeat === undefined ? {} : { safeToRepeat: event.safeToRepeat }) };
}

function lengthOf(parts: readonly MessagePart[], type: 'text' | 'reasoning'): number {
  return parts.reduce((sum, part) => sum + (part.type === type ? part.text.length : 0), 0);
}
