import type { OutagePatience } from '../db/outage-patience.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { recordedFailureOf, type RecordedFailure } from '../errors/recorded-failure.ts';
import { ReasonedError } from '../errors/taxonomy.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { RunOutcome, RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ListenerChain, RunState, Settlement } from './run-listener.ts';

export interface RecordingDeps {
  prisma: PrismaClient;
  bus: LiveBus;
  /** Retries a settlement that met a database outage; without it, the outage is thrown at once. */
  outagePatience?: OutagePatience;
}

/**
 * Work done in the settlement transaction before the end is recorded; it may change the outcome
 * (a Stop recorded meanwhile turns a suspension into a cancellation).
 */
export type BeforeSettle = (tx: Tx, outcome: RunOutcome, settlement: Settlement) => Promise<RunOutcome>;

/**
 * The single door through which a run's events reach its listeners. It guarantees the failure
 * contract (one failure, delivered as a run-failed event, never after the run completed) and
 * that a run ends atomically: its failure, final text, status, returned reservations and
 * ExecutionFinished are committed together under the thread's session lock, so nothing (the next
 * claim, a reconnecting subscriber, another instance) ever sees half an ending.
 */
export class RunRecording {
  private completed = false;
  private reportedFailure: RecordedFailure | null = null;

  constructor(
    private readonly deps: RecordingDeps,
    private readonly chain: ListenerChain,
    readonly run: RunState,
    private readonly locale: Locale,
  ) {}

  /**
   * A loop may report its own failure and end (as one that reports RunCompleted before it
   * rethrows does): they are recorded as one settlement, and what it throws afterwards is ignored.
   */
  async emit(event: RuntimeEvent): Promise<void> {
    if (this.completed) return;
    if (event.type === 'run-failed') {
      this.reportedFailure ??= event.failure;
      return;
    }
    if (event.type === 'run-completed') {
      await this.settle(event.outcome, event.usage, this.reportedFailure);
      return;
    }
    await this.chain.emit(event, this.run);
  }

  async fail(error: unknown, usage: RunUsage = NO_USAGE): Promise<void> {
    await this.settle('FAILED', usage, this.reportedFailure ?? recordedFailureOf(error, this.locale));
  }

  /**
   * The run's instance died or shut down: recorded like a failure (retryable, `error.interrupted`),
   * with status INTERRUPTED. `detail` says what happened, for logs and a details view.
   */
  async interrupt(detail: string): Promise<void> {
    await this.settle('INTERRUPTED', NO_USAGE, this.interruption(detail));
  }

  private interruption(detail: string): RecordedFailure {
    const error = new ReasonedError({
      reason: 'APPLICATION_ERROR',
      retryable: true,
      message: detail,
      messageKey: 'error.interrupted',
    });
    return recordedFailureOf(error, this.locale);
  }

  /**
   * A run limit stopped the run while it ran (its token budget): status REFUSED, what it
   * streamed kept, and the limit as the run's one failure.
   */
  async refuse(limit: ReasonedError, usage: RunUsage): Promise<void> {
    await this.settle('REFUSED', usage, this.reportedFailure ?? recordedFailureOf(limit, this.locale));
  }

  async finish(
    outcome: Exclude<RunOutcome, 'FAILED' | 'INTERRUPTED'>,
    usage: RunUsage,
    beforeSettle?: BeforeSettle,
  ): Promise<void> {
    await this.settle(outcome, usage, this.reportedFailure, beforeSettle);
  }

  private async settle(
    outcome: RunOutcome,
    usage: RunUsage,
    failure: RecordedFailure | null,
    beforeSettle?: BeforeSettle,
  ): Promise<void> {
    if (this.completed) return;
    this.completed = true;
    await this.chain.drain();
    // The end stays in memory while the database is out of reach and is recorded once it is back.
    // Past this instance's lease another instance may have interrupted the run (then the status
    // check below makes this a no-op), so from then on it is recorded as interrupted too.
    const patience = this.deps.outagePatience;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.settleOnce(outcome, usage, failure, beforeSettle);
        return;
      } catch (error) {
        if (!patience?.worthRetrying(error)) throw error;
        if (!patience.leaseHeld() && outcome !== 'INTERRUPTED') {
          outcome = 'INTERRUPTED';
          failure = this.interruption('the database was out of reach for longer than the instance lease');
          beforeSettle = undefined;
        }
        await patience.pause(attempt);
      }
    }
  }

  private async settleOnce(
    outcome: RunOutcome,
    usage: RunUsage,
    failure: RecordedFailure | null,
    beforeSettle?: BeforeSettle,
  ): Promise<void> {
    const publish = await withSessionLock(this.deps.prisma, this.run.threadId, async (tx) => {
      const current = await tx.execution.findUnique({ where: { id: this.run.executionId }, select: { status: true } });
      // Someone else already ended it (an interruption by another instance, a Stop of a suspension).
      if (current && current.status !== 'RUNNING') return [];
      const settlement: Settlement = { tx, publish: [], executionExists: current !== null };
      const final = beforeSettle ? await beforeSettle(tx, outcome, settlement) : outcome;
      if (failure) await this.chain.emit({ type: 'run-failed', failure }, this.run, settlement);
      await this.chain.emit({ type: 'run-completed', outcome: final, usage }, this.run, settlement);
      return settlement.publish;
    });
    this.deps.bus.publishThreadEvents(publish);
  }
}

const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0 };
