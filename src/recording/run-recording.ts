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
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') this.publishDelta(event);
    await this.chain.emit(event, this.run);
  }

  /**
   * A delta reaches the subscribers before any listener records it: it is live only, and the
   * recording (batched text writes) must not stand between the model and the reader. Its offset is
   * the run's length before it; the snapshot a subscriber may ask for meanwhile is answered from
   * the conversation log, which has it or not, and either way the subscriber's text has no hole.
   */
  private publishDelta(event: Extract<RuntimeEvent, { type: 'text-delta' | 'reasoning-delta' }>): void {
    const run = this.run;
    const text = event.type === 'text-delta';
    const offset = text ? run.textLength : run.reasoningLength;
    if (text) run.textLength += event.text.length;
    else run.reasoningLength += event.text.length;
    this.deps.bus.publishThreadEvents([
      {
        threadId: run.threadId,
        seq: null,
        executionId: run.executionId,
        parentExecutionId: run.parentExecutionId,
        createdAt: new Date().toISOString(),
        payload: {
          type: text ? 'TextDelta' : 'ReasoningDelta',
          messageId: run.assistantMessageId ?? '',
          text: event.text,
          offset,
        },
      },
    ]);
  }

  async fail(error: unknown, usage: RunUsage = NO_USAGE): Promise<void> {
    await this.settle('FAILED', usage, this.reportedFailure ?? recordedFailureOf(error, this.locale));
  }

  /**
   * The run's instance died or shut down: recorded like a failure (retryable, `error.interrupted`),
   * with status INTERRUPTED. `detail` says what happened, for logs and a details view.
   */
  async interrupt(detail: string): Promise<void> {
    const error = new ReasonedError({
      reason: 'APPLICATION_ERROR',
      retryable: true,
      message: detail,
      messageKey: 'error.interrupted',
    });
    await this.settle('INTERRUPTED', NO_USAGE, recordedFailureOf(error, this.locale));
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
