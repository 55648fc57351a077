import { assertDurable, eventRecords, firstSeqOf } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { withThreadLock } from '../storage/session-lock.ts';
import { settlementFacts, writeEnd } from '../storage/settlement-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { DeltaWindow } from './delta-window.ts';
import type { RunEnding } from './run-ending.ts';
import type { ListenerChain, RunState } from './run-listener.ts';
import { nextTurnQueued, recordedEnding, settlementOf } from './settlement.ts';

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

  constructor(
    private readonly deps: RecordingDeps,
    private readonly chain: ListenerChain,
    readonly run: RunState,
  ) {
    this.deltas = new DeltaWindow(run, deps.bus, deps.deltaWindowMs ?? 0);
  }

  async emit(event: RuntimeEvent): Promise<void> {
    if (this.completed) return;
    // A delta reaches the subscribers before any listener records it (see DeltaWindow); whatever
    // else the run says comes after the text before it.
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') this.deltas.add(event);
    else this.deltas.publishPending();
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
