import { randomUUID } from 'node:crypto';
import type { MessagePart } from '../conversation/parts.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import { assertDurable, eventRecords, firstSeqOf } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { NewThreadEvent, ThreadEvent, ThreadEventPayload } from '../events/thread-event.ts';
import type { Checkpoint } from '../runtime/agent-runtime.ts';
import type { PendingToolCall } from '../runtime/agent-run-input.ts';
import type { RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ModelCallToWrite } from '../storage/model-call-statements.ts';
import { withThreadLock } from '../storage/session-lock.ts';
import { settlementFacts, writeEnd } from '../storage/settlement-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { DeltaWindow } from './delta-window.ts';
import { ProgressWindow } from './progress-window.ts';
import type { EndStatus, RunEnding } from './run-ending.ts';
import type { Contribution, ListenerChain, RunState } from './run-listener.ts';

export interface RecordingDeps {
  /** The driver under Prisma (src/storage/): the run's statements. */
  sql: SqlClient;
  bus: LiveBus;
  /**
   * Deltas arriving within this window of the last one published go out together, as one delta:
   * what subscribers receive per second then does not grow with the model's chunk rate. 0: each
   * delta is published alone.
   */
  deltaWindowMs?: number;
}

/** What a committed settlement tells the run's launcher. */
export interface Settled {
  /** A message waited in the thread's queue when the end was recorded: the thread has a next turn to admit. */
  queuedForNextTurn: boolean;
}

/**
 * The single door through which a run's events reach its listeners, and its end with them. A run
 * ends once and atomically: its failure, final text, status, returned reservations, a card and
 * ExecutionFinished are committed together under the thread's session lock, so nothing (the next
 * claim, a reconnecting subscriber, another instance) ever sees half an ending. It records the
 * ending it is given; it decides none of it.
 */
export class RunRecording {
  /** The run has ended: later runtime events are ignored. */
  private completed = false;
  private settled: Promise<Settled> | null = null;
  private readonly deltas: DeltaWindow;
  private readonly progress: ProgressWindow;

  constructor(
    private readonly deps: RecordingDeps,
    private readonly chain: ListenerChain,
    readonly run: RunState,
  ) {
    this.deltas = new DeltaWindow(run, deps.bus, deps.deltaWindowMs ?? 0);
    this.progress = new ProgressWindow(run, deps.bus, deps.deltaWindowMs ?? 0);
  }

  /** Synchronous for a delta its listeners take in synchronously (the common case: see ListenerChain). */
  emit(event: RuntimeEvent): Promise<void> | void {
    if (this.completed) return;
    // A delta reaches the subscribers before any listener records it (see DeltaWindow); whatever
    // else the run says comes after the text before it.
    if (event.type === 'tool-progress') return this.emitProgress(event);
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      this.deltas.add(event);
      return this.chain.emit(event, this.run);
    }
    return this.emitOther(event);
  }

  private async emitOther(event: Exclude<RuntimeEvent, { type: 'tool-progress' | 'text-delta' | 'reasoning-delta' }>): Promise<void> {
    this.deltas.publishPending();
    // A call's new state comes after its progress before it.
    if (event.type === 'tool-call') this.progress.settleCall(event.toolCallId);
    await this.chain.emit(event, this.run);
    if (event.type !== 'tool-call') return;
    if (event.state !== 'CALLED') return this.progress.forget(event.toolCallId);
    const early = this.progress.announce(event.toolCallId);
    if (early) await this.emitProgress(early);
  }

  /** Progress, live only like a delta, goes out the same way (see ProgressWindow); its call's part keeps the last. */
  private async emitProgress(event: Extract<RuntimeEvent, { type: 'tool-progress' }>): Promise<void> {
    if (!this.progress.admits(event)) return;
    this.progress.add(event);
    await this.chain.emit(event, this.run);
  }

  /**
   * The settlement: one transaction (BEGIN, the session lock, one read, one write, COMMIT), then
   * the events published and the listeners told. Safe to call again after it failed (a database
   * outage): nothing was committed then, and it writes the end it is given again; once it
   * committed, calls answer what it did.
   */
  settle(ending: RunEnding): Promise<Settled> {
    this.completed = true;
    this.deltas.publishPendingAndStop();
    this.progress.publishPendingAndStop();
    this.settled ??= this.settleOnce(ending).catch((error: unknown) => {
      this.settled = null;
      throw error;
    });
    return this.settled;
  }

  private async settleOnce(ending: RunEnding): Promise<Settled> {
    await this.chain.drain();
    const { run } = this;
    const { recorded, events, queuedForNextTurn } = await withThreadLock(this.deps.sql, run.threadId, async (tx) => {
      const facts = await settlementFacts(tx, run.threadId, run.executionId);
      const recorded = recordedEnding(ending, facts);
      if (!recorded) return { recorded, events: [] as ThreadEvent[], queuedForNextTurn: nextTurnQueued(null, facts) };
      const write = settlementOf(recorded, run, facts, this.chain.contributions(recorded, run), new Date());
      assertDurable(write.events);
      const firstSeq = await writeEnd(tx, write);
      const events = eventRecords(run.threadId, firstSeqOf(run.threadId, firstSeq), write.at, write.events);
      return { recorded, events, queuedForNextTurn: nextTurnQueued(recorded, facts) };
    });
    this.deps.bus.publishThreadEvents(events);
    if (recorded) this.chain.ended(recorded, run);
    return { queuedForNextTurn };
  }
}

/** What the settlement reads under the thread's session lock before it writes. */
export interface SettlementFacts {
  /** The execution's status now; null when its row is gone with its thread. */
  status: string | null;
  /** Queue items are reserved for steering into it. */
  reserved: boolean;
  /** A message waits in the thread's queue. */
  queued: boolean;
  /** A Stop was recorded for it. */
  cancelRequested: boolean;
}

/** The card a suspension opens: what the user answers, and what the run goes on from. */
export interface SuspensionCard {
  id: string;
  kind: PendingToolCall['kind'];
  toolCallId: string;
  toolName: string;
  payload: unknown;
  checkpoint: Checkpoint;
}

/** Everything one run's end writes, in one statement (src/storage/settlement-statements.ts). */
export interface SettlementWrite {
  threadId: string;
  executionId: string;
  status: EndStatus;
  /** Null for a suspension: the turn goes on later. */
  finishedAt: Date | null;
  usage: RunUsage;
  failure: RecordedFailure | null;
  reply: { messageId: string; parts: MessagePart[] } | null;
  /** Reserved steering messages the run did not take go back to their places in the queue. */
  releaseReservations: boolean;
  /** Delegated children still running died with an interrupted run. */
  interruptChildren: boolean;
  card: SuspensionCard | null;
  /** Appended in this order. */
  events: NewThreadEvent[];
  modelCalls: ModelCallToWrite[];
  at: Date;
}

/**
 * The ending as the settlement records it: someone else ended the run already (an interruption by
 * another instance, a Stop of a suspension) — null, nothing is written; a Stop recorded before a
 * suspension's end cancels it, since the user asked for it before the card could open.
 */
export function recordedEnding(ending: RunEnding, facts: SettlementFacts): RunEnding | null {
  if (facts.status !== 'RUNNING') return null;
  if (ending.status === 'SUSPENDED' && facts.cancelRequested) return { ...ending, status: 'CANCELLED', checkpoint: null };
  return ending;
}

/** What the end of `run` writes, from its recorded ending, the facts read under the lock and its listeners' contributions. */
export function settlementOf(
  ending: RunEnding,
  run: RunState,
  facts: SettlementFacts,
  contributions: readonly Contribution[],
  at: Date,
): SettlementWrite {
  const root = run.parentExecutionId === null;
  const event = (payload: ThreadEventPayload): NewThreadEvent => ({ executionId: run.executionId, parentExecutionId: run.parentExecutionId, payload });
  const card = ending.status === 'SUSPENDED' && ending.checkpoint ? cardOf(ending.checkpoint) : null;
  const releaseReservations = root && facts.reserved;
  const events: NewThreadEvent[] = [
    ...(card ? [event({ type: 'SuspensionOpened', suspensionId: card.id, kind: card.kind, toolCallId: card.toolCallId, payload: card.payload })] : []),
    ...contributions.flatMap((contribution) => contribution.events ?? []),
    ...(releaseReservations ? [{ executionId: null, payload: { type: 'QueueUpdated' as const } }] : []),
    ...(ending.failure ? [event({ type: 'ErrorEvent', ...ending.failure })] : []),
    // ExecutionFinished ends a turn of the thread; a suspension (the turn goes on later) and a
    // delegated child's end are updates.
    event(root && ending.status !== 'SUSPENDED' ? { type: 'ExecutionFinished', status: ending.status } : { type: 'ExecutionUpdated', status: ending.status }),
  ];
  return {
    threadId: run.threadId,
    executionId: run.executionId,
    status: ending.status,
    finishedAt: ending.status === 'SUSPENDED' ? null : at,
    usage: ending.usage,
    failure: ending.failure,
    reply: contributions.findLast((contribution) => contribution.reply)?.reply ?? null,
    releaseReservations,
    interruptChildren: root && ending.status === 'INTERRUPTED',
    card,
    events,
    modelCalls: contributions.flatMap((contribution) => contribution.modelCalls ?? []),
    at,
  };
}

/** Whether, once this end is committed, a message waits for the thread's next turn (a suspended turn keeps the thread busy). */
export function nextTurnQueued(ending: RunEnding | null, facts: SettlementFacts): boolean {
  // Ended by someone else: whoever did kicked the thread, and another try costs one read.
  if (ending === null) return true;
  return ending.status !== 'SUSPENDED' && (facts.queued || facts.reserved);
}

function cardOf(checkpoint: Checkpoint): SuspensionCard {
  const { pending } = checkpoint;
  return {
    id: randomUUID(),
    kind: pending.kind,
    toolCallId: pending.toolCallId,
    toolName: pending.toolName,
    payload: pending.card ?? pending.input ?? {},
    checkpoint,
  };
}
