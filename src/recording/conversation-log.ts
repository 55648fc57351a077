import { isDatabaseOutage } from '../db/outage.ts';
import { OPEN_TOOL_CALL_STATES, type MessagePart } from '../conversation/parts.ts';
import type { NewThreadEvent } from '../events/thread-event.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { recordedReply, writeReplyParts } from '../storage/run-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
import type { RunEnding } from './run-ending.ts';
import type { Contribution, RunListener, RunState } from './run-listener.ts';

/** Recorded text and reasoning of one delegation (each); more is shown live but not recovered. */
export const DELEGATION_RECORDED_CHARS = 4_000;

export interface FlushPolicy {
  /** Longest time streamed text waits in memory before it is written. */
  flushMs: number;
  /** Unwritten characters that force a write at once. */
  flushChars: number;
}

type DelegationPart = Extract<MessagePart, { type: 'delegation' }>;
type ToolCallPart = Extract<MessagePart, { type: 'tool-call' }>;

/**
 * Records the reply of a run. Text is kept in memory and written in batches (snapshots), never per
 * token; every structural change (tool call, boundary) is written at once; the final parts are the
 * settlement's to write.
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
  private settling = false;

  constructor(
    /** The driver under Prisma (src/storage/). */
    private readonly sql: SqlRunner,
    private readonly policy: FlushPolicy,
    private readonly onFlushError: (error: unknown) => void,
  ) {}

  /** The reply as recorded so far plus what is still in memory (for a reconnecting client). */
  snapshot(): { messageId: string | null; parts: MessagePart[] } {
    return { messageId: this.messageId, parts: structuredClone(this.parts) };
  }

  /**
   * Opens the run's reply: the one admission created (empty), or the one a resumed or interrupted
   * run already has, read back so it stays one message.
   */
  async open(run: RunState): Promise<void> {
    if (this.messageId) return;
    if (run.assistantMessageId) {
      this.messageId = run.assistantMessageId;
      return;
    }
    const existing = await recordedReply(this.sql, run.executionId);
    if (!existing) return;
    this.messageId = existing.id;
    this.parts = existing.parts as MessagePart[];
    run.assistantMessageId = existing.id;
    run.textLength = lengthOf(this.parts, 'text');
    run.reasoningLength = lengthOf(this.parts, 'reasoning');
  }

  onEvent(event: RuntimeEvent, run: RunState): Promise<void> | void {
    // Streamed text is taken in synchronously: it is the one event of every chunk.
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      this.appendText(event.type === 'text-delta' ? 'text' : 'reasoning', event.text);
      this.scheduleFlush();
      return;
    }
    return this.onStructuralEvent(event, run);
  }

  private async onStructuralEvent(event: RuntimeEvent, run: RunState): Promise<void> {
    switch (event.type) {
      case 'run-started':
        await this.open(run);
        break;
      case 'tool-call': {
        const existing = this.parts.find((part): part is ToolCallPart => part.type === 'tool-call' && part.toolCallId === event.toolCallId);
        if (existing) Object.assign(existing, { state: event.state, output: event.output, error: event.error ?? null, durationMs: event.durationMs ?? null });
        else this.parts.push({ type: 'tool-call', ...toolCallOf(event) });
        this.dirty = true;
        await this.flushUnlessOutage();
        break;
      }
      case 'tool-progress': {
        // Kept on the call's part with the text's batching (never a write per notification); a
        // call that has ended keeps the progress it ended with.
        const call = this.parts.find((part): part is ToolCallPart => part.type === 'tool-call' && part.toolCallId === event.toolCallId);
        if (!call || !OPEN_TOOL_CALL_STATES.has(call.state) || this.settling) break;
        call.progress = { progress: event.progress, total: event.total, message: event.message };
        this.dirty = true;
        this.scheduleFlush();
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

  /**
   * The reply's final parts: a call still open when its run was stopped or interrupted is closed
   * (never left looking as if it still ran), with its event; the run's failure ends it as an error part.
   */
  contribute(ending: RunEnding, run: RunState): Contribution {
    if (!this.messageId) return {};
    const parts = structuredClone(this.parts);
    const events: NewThreadEvent[] = [];
    if (ending.status === 'CANCELLED' || ending.status === 'INTERRUPTED') {
      for (const part of parts) {
        if (part.type !== 'tool-call' || !OPEN_TOOL_CALL_STATES.has(part.state)) continue;
        part.state = ending.status;
        events.push({
          executionId: run.executionId,
          parentExecutionId: run.parentExecutionId,
          payload: {
            type: 'ToolCallEvent',
            messageId: this.messageId,
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            state: ending.status,
            input: part.input,
            output: null,
            error: null,
            durationMs: part.durationMs ?? null,
          },
        });
      }
    }
    if (ending.failure) parts.push({ type: 'error', ...ending.failure });
    return { reply: { messageId: this.messageId, parts }, events };
  }

  /** The reply as it stands, which a delegated child's settlement writes with the child's card in it. */
  currentReply(): Contribution['reply'] {
    return this.messageId ? { messageId: this.messageId, parts: structuredClone(this.parts) } : undefined;
  }

  /** Adds the card of a delegated child (once), so its text and failure have a place in this reply. */
  openDelegation(toolCallId: string, childExecutionId: string): void {
    if (this.delegation(childExecutionId)) return;
    this.dirty = true;
    this.parts.push({ type: 'delegation', toolCallId, childExecutionId, text: '', reasoning: '', truncated: false, error: null });
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

  private delegation(childExecutionId: string): DelegationPart | undefined {
    return this.parts.find((part): part is DelegationPart => part.type === 'delegation' && part.childExecutionId === childExecutionId);
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

  /** Waits for the writes in flight, and leaves later ones to go on (a delegated child's end, in its parent's reply). */
  async writesDone(): Promise<void> {
    await this.writing.catch(() => {});
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
      .then(() => writeReplyParts(this.sql, messageId, parts, new Date()))
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

function toolCallOf(event: Extract<RuntimeEvent, { type: 'tool-call' }>) {
  const { toolCallId, toolName, input, state, output } = event;
  const extra = { error: event.error ?? null, durationMs: event.durationMs ?? null };
  return { toolCallId, toolName, input, state, output, ...extra, ...(event.safeToRepeat === undefined ? {} : { safeToRepeat: event.safeToRepeat }) };
}

function lengthOf(parts: readonly MessagePart[], type: 'text' | 'reasoning'): number {
  return parts.reduce((sum, part) => sum + (part.type === type ? part.text.length : 0), 0);
}
