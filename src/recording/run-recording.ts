import type { OutagePatience } from '../db/outage-patience.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { classify } from '../errors/classify.ts';
import { recordedFailure, type RecordedFailure } from '../errors/recorded-failure.ts';
import { ReasonedError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import { assertDurable, eventRecords, firstSeqOf } from '../events/event-log.ts';
import { eventAppendCtes } from '../storage/event-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { RunOutcome, RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ListenerChain, RunState, Settlement } from './run-listener.ts';

export const NO_USAGE: RunUsage = { inputTokens: 0, outputTokens: 0 };

export interface RecordingDeps {
  prisma: PrismaClient;
  /** The driver under Prisma (src/storage/): the run's statements. */
  sql: SqlClient;
  bus: LiveBus;
  /** Retries a settlement that met a database outage; without it, the outage is thrown at once. */
  outagePatience?: OutagePatience;
  /**
   * Deltas arriving within this window of the last one published go out together, as one delta:
   * what subscribers receive per second then does not grow with the model's chunk rate. 0: each
   * delta is published alone.
   */
  deltaWindowMs?: number;
}

/** A coalesced delta is published at once when it grows past this, window or not. */
const MAX_PENDING_DELTA_CHARS = 16_384;

interface PendingDelta {
  type: 'TextDelta' | 'ReasoningDelta';
  text: string;
  offset: number;
}

/**
 * Work done in the settlement transaction before the end is recorded; it may change the outcome
 * (a Stop recorded meanwhile turns a suspension into a cancellation).
 */
export type BeforeSettle = (tx: Tx, outcome: RunOutcome, settlement: Settlement) => Promise<RunOutcome>;

/** How a run ended, as its launcher (or an interruption) hands it to the recording. */
export interface RunEnding {
  outcome: RunOutcome;
  usage: RunUsage;
  /** Classified once, where it happened; localized here for the run's user. */
  failure?: ClassifiedFailure | null;
  beforeSettle?: BeforeSettle;
}

/**
 * The run's instance died or shut down: recorded like a failure (retryable, `error.interrupted`),
 * with status INTERRUPTED. `detail` says what happened, for logs and a details view.
 */
export function interruption(detail: string): RunEnding {
  const error = new ReasonedError({ reason: 'APPLICATION_ERROR', retryable: true, message: detail, messageKey: 'error.interrupted' });
  return { outcome: 'INTERRUPTED', usage: NO_USAGE, failure: classify(error) };
}

/**
 * The single door through which a run's events reach its listeners, and its end with them. A run
 * ends once and atomically: its failure, final text, status, returned reservations and
 * ExecutionFinished are committed together under the thread's session lock, so nothing (the next
 * claim, a reconnecting subscriber, another instance) ever sees half an ending.
 */
export class RunRecording {
  /** The run has ended: later runtime events are ignored. */
  private completed = false;
  /** The settlement committed. */
  private settled = false;
  private settling: Promise<void> | null = null;
  private pendingDelta: PendingDelta | null = null;
  private deltaTimer: NodeJS.Timeout | undefined;
  private lastDeltaPublishedAt = -Infinity;
  /**
   * Whether the thread's queue held a message for a next turn when the end committed (read under the
   * session lock, so a message queued later kicks the thread itself). True until the settlement knows.
   */
  private nextTurnQueued = true;

  constructor(
    private readonly deps: RecordingDeps,
    private readonly chain: ListenerChain,
    readonly run: RunState,
    private readonly locale: Locale,
  ) {}

  async emit(event: RuntimeEvent): Promise<void> {
    if (this.completed) return;
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') this.addDelta(event);
    // Whatever else the run says comes after the text before it.
    else this.publishPendingDelta();
    await this.chain.emit(event, this.run);
  }

  /**
   * A delta reaches the subscribers before any listener records it: it is live only, and the
   * recording (batched text writes) must not stand between the model and the reader. Its offset is
   * the run's length before it; the snapshot a subscriber may ask for meanwhile is answered from
   * the conversation log, which has it or not, and either way the subscriber's text has no hole.
   * The first delta after a quiet window goes out at once; the ones that follow within the window
   * are joined and go out at its end, so a slow model's chunks are not delayed and a fast one's
   * do not flood the subscribers.
   */
  private addDelta(event: Extract<RuntimeEvent, { type: 'text-delta' | 'reasoning-delta' }>): void {
    const run = this.run;
    const type = event.type === 'text-delta' ? 'TextDelta' : 'ReasoningDelta';
    const offset = type === 'TextDelta' ? run.textLength : run.reasoningLength;
    if (type === 'TextDelta') run.textLength += event.text.length;
    else run.reasoningLength += event.text.length;
    if (this.pendingDelta && this.pendingDelta.type !== type) this.publishPendingDelta();
    if (this.pendingDelta) this.pendingDelta.text += event.text;
    else this.pendingDelta = { type, text: event.text, offset };
    if (this.deltaTimer && this.pendingDelta.text.length < MAX_PENDING_DELTA_CHARS) return;
    const windowMs = this.deps.deltaWindowMs ?? 0;
    const sinceLast = performance.now() - this.lastDeltaPublishedAt;
    if (sinceLast >= windowMs || this.pendingDelta.text.length >= MAX_PENDING_DELTA_CHARS) this.publishPendingDelta();
    else this.deltaTimer ??= setTimeout(() => this.publishPendingDelta(), windowMs - sinceLast);
  }

  private publishPendingDelta(): void {
    clearTimeout(this.deltaTimer);
    this.deltaTimer = undefined;
    const pending = this.pendingDelta;
    if (!pending) return;
    this.pendingDelta = null;
    this.lastDeltaPublishedAt = performance.now();
    const run = this.run;
    this.deps.bus.publishThreadEvents([
      {
        threadId: run.threadId,
        seq: null,
        executionId: run.executionId,
        parentExecutionId: run.parentExecutionId,
        createdAt: new Date().toISOString(),
        payload: { type: pending.type, messageId: run.assistantMessageId ?? '', text: pending.text, offset: pending.offset },
      },
    ]);
  }

  /** After the settlement: whether a message waits for the thread's next turn (true when not known). */
  get queuedForNextTurn(): boolean {
    return this.nextTurnQueued;
  }

  /**
   * The settlement: one transaction (BEGIN, the session lock, a read of the run's status, the
   * listeners' rare writes, one statement with the execution's end, the reply's final parts and
   * the events, COMMIT). Safe to call again after it failed (a database outage): nothing was
   * committed then, and it records the same end again; once it committed, calls return at once.
   */
  settle(ending: RunEnding): Promise<void> {
    if (this.settled) return Promise.resolve();
    this.completed = true;
    this.publishPendingDelta();
    this.settling ??= this.settlePatiently(ending).then(
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
  private async settlePatiently(ending: RunEnding): Promise<void> {
    const patience = this.deps.outagePatience;
    let failure = ending.failure ? recordedFailure(ending.failure, this.locale) : null;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.settleOnce(ending, failure);
        return;
      } catch (error) {
        if (!patience?.worthRetrying(error)) throw error;
        if (!patience.leaseHeld() && ending.outcome !== 'INTERRUPTED') {
          ending = interruption('the database was out of reach for longer than the instance lease');
          failure = recordedFailure(ending.failure!, this.locale);
        }
        await patience.pause(attempt);
      }
    }
  }

  private async settleOnce({ outcome, usage, beforeSettle }: RunEnding, failure: RecordedFailure | null): Promise<void> {
    await this.chain.drain();
    const { executionId, threadId } = this.run;
    let nextTurnQueued = true;
    const publish = await withSessionLock(this.deps.prisma, threadId, async (tx) => {
      const [current] = await tx.$queryRaw<{ status: string | null; reserved: boolean; queued: boolean }[]>`
        SELECT (SELECT "status"::text FROM "execution" WHERE "id" = ${executionId}) AS "status",
               EXISTS (SELECT 1 FROM "queue_item" WHERE "steeringExecutionId" = ${executionId}) AS "reserved",
               EXISTS (SELECT 1 FROM "queue_item" WHERE "threadId" = ${threadId} AND "steeringExecutionId" IS NULL) AS "queued"`;
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
      await this.chain.settle({ outcome: final, usage, failure }, this.run, settlement);
      const written = [...settlement.publish, ...(await writeEnd(tx, threadId, executionId, settlement))];
      // Unused reservations go back to the queue with this end; a suspended turn keeps the thread busy.
      nextTurnQueued = final !== 'SUSPENDED' && (current!.queued || current!.reserved);
      return written;
    });
    this.nextTurnQueued = nextTurnQueued;
    this.deps.bus.publishThreadEvents(publish);
  }
}

/** The settlement's one statement: the execution's final state, the reply's final parts, the events. */
async function writeEnd(tx: Tx, threadId: string, executionId: string, settlement: Settlement): Promise<ThreadEvent[]> {
  const { end, reply, events } = settlement;
  assertDurable(events);
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

