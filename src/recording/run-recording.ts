import type { OutagePatience } from '../db/outage-patience.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { recordedFailureOf, type RecordedFailure } from '../errors/recorded-failure.ts';
import { ReasonedError } from '../errors/taxonomy.ts';
import { eventAppendCtes, eventRecords, firstSeqOf } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RunEventRecord } from '../events/run-event.ts';
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
  /** The run has ended: later runtime events are ignored. */
  private completed = false;
  /** The settlement committed. */
  private settled = false;
  private settling: Promise<void> | null = null;
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

  /**
   * The settlement: one transaction (BEGIN, the session lock, a read of the run's status, the
   * listeners' rare writes, one statement with the execution's end, the reply's final parts and
   * the events, COMMIT). Safe to call again after it failed (a database outage): nothing was
   * committed then, and it records the same end again; once it committed, calls return at once.
   */
  private settle(outcome: RunOutcome, usage: RunUsage, failure: RecordedFailure | null, beforeSettle?: BeforeSettle): Promise<void> {
    if (this.settled) return Promise.resolve();
    this.completed = true;
    this.settling ??= this.settlePatiently(outcome, usage, failure, beforeSettle).then(
      () => {
        this.settled = true;
      },
      (error: unknown) => {
        this.settling = null;
        throw error;
      },
    );
    return this.settling;
  }

  /**
   * The end stays in memory while the database is out of reach and is recorded once it is back.
   * Past this instance's lease another instance may have interrupted the run (then the status
   * check makes the attempt a no-op), so from then on it is recorded as interrupted too.
   */
  private async settlePatiently(
    outcome: RunOutcome,
    usage: RunUsage,
    failure: RecordedFailure | null,
    beforeSettle?: BeforeSettle,
  ): Promise<void> {
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
    await this.chain.drain();
    const { executionId, threadId } = this.run;
    const publish = await withSessionLock(this.deps.prisma, threadId, async (tx) => {
      const [current] = await tx.$queryRaw<{ status: string | null; reserved: boolean }[]>`
        SELECT (SELECT "status"::text FROM "execution" WHERE "id" = ${executionId}) AS "status",
               EXISTS (SELECT 1 FROM "queue_item" WHERE "steeringExecutionId" = ${executionId}) AS "reserved"`;
      // Someone else already ended it (an interruption by another instance, a Stop of a suspension).
      if (current!.status !== null && current!.status !== 'RUNNING') return [];
      const settlement: Settlement = {
        tx,
        publish: [],
        executionExists: current!.status !== null,
        reserved: current!.reserved,
        end: null,
        reply: null,
        events: [],
      };
      const final = beforeSettle ? await beforeSettle(tx, outcome, settlement) : outcome;
      if (failure) await this.chain.emit({ type: 'run-failed', failure }, this.run, settlement);
      await this.chain.emit({ type: 'run-completed', outcome: final, usage }, this.run, settlement);
      return [...settlement.publish, ...(await writeEnd(tx, threadId, executionId, settlement))];
    });
    this.deps.bus.publishThreadEvents(publish);
  }
}

/** The settlement's one statement: the execution's final state, the reply's final parts, the events. */
async function writeEnd(tx: Tx, threadId: string, executionId: string, settlement: Settlement): Promise<RunEventRecord[]> {
  const { end, reply, events } = settlement;
  const now = new Date();
  const finishedAt = end && end.outcome !== 'SUSPENDED' ? now : null;
  const [row] = await tx.$queryRaw<{ firstSeq: number | null }[]>`
    WITH ended AS (
      UPDATE "execution"
      SET "status" = ${end?.outcome ?? 'RUNNING'}::"ExecutionStatus", "acceptsSteering" = false, "finishedAt" = ${finishedAt}::timestamp(3),
          "error" = COALESCE(${end?.failure ? JSON.stringify(end.failure) : null}::jsonb, "error"),
          "errorReason" = COALESCE(${end?.failure?.reason ?? null}::text, "errorReason"),
          "inputTokens" = "inputTokens" + ${end?.usage.inputTokens ?? 0}::int,
          "outputTokens" = "outputTokens" + ${end?.usage.outputTokens ?? 0}::int,
          "updatedAt" = ${now}::timestamp(3)
      WHERE "id" = ${executionId} AND ${end !== null}::boolean
    ), reply AS (
      UPDATE "message" SET "parts" = ${JSON.stringify(reply?.parts ?? [])}::jsonb, "updatedAt" = ${now}::timestamp(3)
      WHERE "id" = ${reply?.messageId ?? null}::text
    ), ${eventAppendCtes(threadId, events, now)}
    SELECT min("seq")::int AS "firstSeq" FROM appended`;
  return events.length === 0 ? [] : eventRecords(threadId, firstSeqOf(threadId, row?.firstSeq), now, events);
}

const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0 };
