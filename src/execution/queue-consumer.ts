import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ModelMessage } from 'ai';
import type { Admission, AdmittedRun } from './admission.ts';
import { STOP_REASON } from './cancellation.ts';
import { snapshotRecord } from '../events/run-event-stream.ts';
import type { RunningExecution, RunningExecutions } from './running-executions.ts';
import type { RunLauncher } from './run-launcher.ts';

/**
 * Each instance's consumer: on a kick (a new message, a finished run) or a periodic sweep it tries to
 * admit the head of a thread's queue. Any instance may try; the session lock and the database decide.
 */
export class QueueConsumer {
  private readonly busyThreads = new Set<string>();
  private readonly againThreads = new Set<string>();
  private readonly runs = new Set<Promise<void>>();
  /** Admissions under way, counted with the runs so that parallel drains cannot pass the cap. */
  private admitting = 0;
  /** Threads with a claimable head that found every run slot taken; tried again when one frees. */
  private readonly waitingForSlot = new Set<string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private kickSubscription: AsyncIterator<unknown> | null = null;
  private relaySubscription: AsyncIterator<unknown> | null = null;
  private stopped = true;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly admission: Admission,
    private readonly launcher: RunLauncher,
    private readonly running: RunningExecutions,
    private readonly logger: Logger,
    private readonly sweepMs: number,
    /** Runs this instance executes at once; beyond it, messages wait in their queues, pending. */
    private readonly maxConcurrentRuns = Number.POSITIVE_INFINITY,
    /** Extra periodic work (the interruption of executions whose instance died). */
    private readonly onSweep: () => Promise<void> = async () => {},
  ) {}

  start(): void {
    this.stopped = false;
    // In memory the direct call in kick() is the only consumer; with Redis, the others hear it here.
    const kicks = this.bus.queueKicks();
    this.kickSubscription = kicks[Symbol.asyncIterator]();
    void (async () => {
      for await (const { threadId } of kicks) this.tryThread(threadId);
    })().catch((error) => this.logger.error({ err: error }, 'queue kick listener stopped'));
    const relayed = this.bus.instanceMessages();
    this.relaySubscription = relayed[Symbol.asyncIterator]();
    void (async () => {
      for await (const message of relayed) {
        if (message.kind === 'token-revoked') continue;
        const run = this.running.get(message.executionId);
        if (!run) continue;
        if (message.kind === 'cancel') run.controller.abort(new Error(STOP_REASON));
        if (message.kind === 'snapshot') this.publishSnapshot(run);
      }
    })().catch((error) => this.logger.error({ err: error }, 'stop relay listener stopped'));
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs);
    void this.sweep();
  }

  /** Tells every instance's consumer (this one directly) that this thread may have a claimable head. */
  kick(threadId: string): void {
    this.tryThread(threadId);
    this.bus.kickOtherInstances(threadId);
  }

  tryThread(threadId: string): void {
    if (this.stopped) return;
    if (this.busyThreads.has(threadId)) {
      this.againThreads.add(threadId);
      return;
    }
    this.busyThreads.add(threadId);
    void this.drain(threadId).finally(() => {
      this.busyThreads.delete(threadId);
      if (this.againThreads.delete(threadId)) this.tryThread(threadId);
    });
  }

  private async drain(threadId: string): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        if (this.runs.size + this.admitting >= this.maxConcurrentRuns) {
          this.waitingForSlot.add(threadId);
          return;
        }
        this.admitting += 1;
        const admissionStartedAt = new Date();
        let result: Awaited<ReturnType<Admission['admitNext']>>;
        try {
          result = await this.admission.admitNext(threadId);
        } finally {
          this.admitting -= 1;
        }
        if (result.kind === 'idle') return;
        this.bus.publishThreadEvents(result.events);
        if (result.kind === 'admitted') {
          this.launch(result.run, undefined, admissionStartedAt);
          return;
        }
      }
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error, threadId }, 'admission failed; the sweep will try again');
    }
  }

  /** The reply as this instance has it in memory, for subscribers that joined mid-stream. */
  private publishSnapshot(run: RunningExecution): void {
    const snapshot = run.snapshot?.();
    if (!snapshot?.messageId) return;
    this.bus.publishThreadEvents([snapshotRecord(run.threadId, run.executionId, snapshot.messageId, snapshot.parts)]);
  }

  /** Runs an admitted (or resumed) execution; when it ends, the thread's next message may start. */
  launch(run: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): void {
    const threadId = run.execution.threadId;
    const promise = this.launcher
      .run(run, resumeWith, admissionStartedAt)
      .catch((error: unknown) =>
        // Only when its end could not be recorded (the database stayed out of reach while the process
        // stopped): the sweeper of the instance that outlives this one's lease interrupts it.
        this.logger.error({ err: error, executionId: run.execution.id }, 'recording the end of a run failed'),
      )
      .finally(() => {
        this.runs.delete(promise);
        // Threads that waited for a slot go before this thread's next message.
        this.offerFreedSlot();
        this.kick(threadId);
      });
    this.runs.add(promise);
  }

  /** A run ended: the threads that waited for a slot try again (those that still find none wait again). */
  private offerFreedSlot(): void {
    const waiting = [...this.waitingForSlot];
    this.waitingForSlot.clear();
    for (const threadId of waiting) this.tryThread(threadId);
  }

  private async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      // Stops recorded while their relay was lost (another instance, Redis down) still land.
      const requested = await this.prisma.execution.findMany({
        where: { id: { in: this.running.all().map((run) => run.executionId) }, cancelRequestedAt: { not: null } },
        select: { id: true },
      });
      for (const { id } of requested) this.running.get(id)?.controller.abort(new Error(STOP_REASON));
      await this.onSweep();
      const threads = await this.prisma.queueItem.findMany({
        where: { steeringExecutionId: null },
        distinct: ['threadId'],
        select: { threadId: true },
        take: 500,
      });
      for (const { threadId } of threads) this.tryThread(threadId);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error }, 'queue sweep failed');
    }
  }

  /** Stops claiming; running executions are left to the caller (finish or interrupt). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.kickSubscription?.return?.();
    await this.relaySubscription?.return?.();
  }

  /** Whether every run ended (its end recorded or given up) within `withinMs`. */
  async waitForRuns(withinMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    });
    try {
      return await Promise.race([Promise.allSettled([...this.runs]).then(() => true as const), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
