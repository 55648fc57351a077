import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ModelMessage } from 'ai';
import type { Admission, AdmittedRun } from './admission.ts';
import { STOP_REASON } from './cancellation.ts';
import { snapshotRecord } from '../events/run-event-stream.ts';
import type { HandedOffResumes } from './handed-off-resumes.ts';
import type { RunningExecution, RunningExecutions } from './running-executions.ts';
import type { RunLauncher } from './run-launcher.ts';
import type { RunOwner, RunSlots, SlotCap } from './run-slots.ts';

/**
 * Each instance's consumer: on a kick (a new message, a finished run) or a periodic sweep it tries to
 * admit the head of a thread's queue. Any instance may try; the session lock and the database decide.
 */
export class QueueConsumer {
  private readonly busyThreads = new Set<string>();
  private readonly againThreads = new Set<string>();
  private readonly runs = new Set<Promise<void>>();
  /**
   * Threads whose head found no run slot here, with the owner of that head once admission saw it
   * (a thread deferred before it was read has none yet). A freed slot goes to the waiting thread
   * whose user runs the fewest runs here, the longest waiting first among equals.
   */
  private readonly waitingForSlot = new Map<string, { owner: Partial<RunOwner>; since: number; cap: SlotCap | null }>();
  private offering = false;
  /** Threads whose handed-off resumption this consumer is claiming now. */
  private readonly resuming = new Set<string>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private kickSubscription: AsyncIterator<unknown> | null = null;
  private stopRelayListener: (() => void) | null = null;
  private stopped = true;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly admission: Admission,
    private readonly launcher: RunLauncher,
    private readonly running: RunningExecutions,
    private readonly logger: Logger,
    private readonly sweepMs: number,
    /** Runs this instance executes at once, in all and per user and project; beyond them, messages wait in their queues, pending. */
    private readonly slots: RunSlots,
    /** Told each time a turn is left waiting because a cap was full. */
    private readonly onDeferred: (cap: SlotCap) => void = () => {},
    /** Extra periodic work (the interruption of executions whose instance died). */
    private readonly onSweep: () => Promise<void> = async () => {},
    /** Resumptions recorded by instances that run no turns (PARLEY_ROLE=api), claimed here. */
    private readonly handedOff: HandedOffResumes | null = null,
  ) {}

  start(): void {
    this.stopped = false;
    // In memory the direct call in kick() is the only consumer; with Redis, the others hear it here.
    const kicks = this.bus.queueKicks();
    this.kickSubscription = kicks[Symbol.asyncIterator]();
    void (async () => {
      for await (const { threadId } of kicks) {
        // Only another instance hands a resumption off, so only its kicks may bring one.
        void this.resumeHandedOff(threadId);
        this.tryThread(threadId);
      }
    })().catch((error) => this.logger.error({ err: error }, 'queue kick listener stopped'));
    this.stopRelayListener = this.bus.onInstanceMessage((message) => {
      if (message.kind !== 'cancel' && message.kind !== 'snapshot') return;
      const run = this.running.get(message.executionId);
      if (!run) return;
      if (message.kind === 'cancel') run.controller.abort(new Error(STOP_REASON));
      if (message.kind === 'snapshot') this.publishSnapshot(run);
    });
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs);
    void this.sweep();
  }

  /** Tells every instance's consumer (this one directly) that this thread may have a claimable head. */
  kick(threadId: string): void {
    // Something changed in the thread (a new message, a reorder): its head is read again.
    this.waitingForSlot.delete(threadId);
    this.tryThread(threadId);
    this.bus.kickOtherInstances(threadId);
  }

  /** Tries the thread unless it waits for a slot that is still not free for it. */
  tryThread(threadId: string): void {
    const waiting = this.waitingForSlot.get(threadId);
    if (waiting && this.slots.capFor(waiting.owner)) return;
    this.drainThread(threadId);
  }

  private drainThread(threadId: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.busyThreads.has(threadId)) {
      this.againThreads.add(threadId);
      return Promise.resolve();
    }
    this.busyThreads.add(threadId);
    return this.drain(threadId).finally(() => {
      this.busyThreads.delete(threadId);
      if (this.againThreads.delete(threadId)) this.tryThread(threadId);
    });
  }

  private async drain(threadId: string): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        if (!this.slots.hasFree()) {
          this.defer(threadId, 'instance', this.waitingForSlot.get(threadId)?.owner ?? {});
          return;
        }
        const admissionStartedAt = new Date();
        const result = await this.admission.admitNext(threadId, this.slots);
        if (result.kind === 'idle') {
          this.waitingForSlot.delete(threadId);
          return;
        }
        if (result.kind === 'deferred') {
          this.defer(threadId, result.cap, result.owner);
          return;
        }
        this.waitingForSlot.delete(threadId);
        this.bus.publishThreadEvents(result.events);
        if (result.kind === 'admitted') {
          this.execute(result.run, undefined, admissionStartedAt);
          return;
        }
      }
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error, threadId }, 'admission failed; the sweep will try again');
    }
  }

  /** The reply as this instance has it in memory, for subscribers that joined mid-stream. */
  private publishSnapshot(run: RunningExecution): void {
    const snapshot = run.snapshot();
    if (!snapshot.messageId) return;
    this.bus.publishThreadEvents([snapshotRecord(run.threadId, run.executionId, snapshot.messageId, snapshot.parts)]);
  }

  /** A thread waits for a slot; the first time a cap keeps it waiting, that is counted and logged. */
  private defer(threadId: string, cap: SlotCap, owner: Partial<RunOwner>): void {
    const waiting = this.waitingForSlot.get(threadId);
    if (!waiting || waiting.cap !== cap || waiting.owner.userId !== owner.userId) {
      this.onDeferred(cap);
      const setting = DEFERRING_SETTINGS[cap];
      // The instance's own cap is ordinary load (its gauge and the queue age show it); the others are news.
      this.logger[cap === 'instance' ? 'debug' : 'info'](
        { threadId, userId: owner.userId, projectId: owner.projectId, cap, limit: this.slots.limits[LIMIT_OF[cap]], setting },
        `a turn waits for a run slot: ${setting} reached on this instance`,
      );
    }
    this.wait(threadId, owner, cap);
  }

  private wait(threadId: string, owner: Partial<RunOwner>, cap: SlotCap | null = null): void {
    const since = this.waitingForSlot.get(threadId)?.since ?? Date.now();
    this.waitingForSlot.set(threadId, { owner, since, cap });
  }

  /** Claims and runs the thread's resumption that an api instance handed off, if it has one. */
  private async resumeHandedOff(threadId: string): Promise<void> {
    if (!this.handedOff || this.stopped || this.resuming.has(threadId)) return;
    this.resuming.add(threadId);
    try {
      const claimed = await this.handedOff.claim(threadId);
      if (!claimed) return;
      this.bus.publishThreadEvents(claimed.events);
      this.launch(claimed.run, claimed.messages);
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error, threadId }, 'resuming a handed-off execution failed; the sweep will try again');
    } finally {
      this.resuming.delete(threadId);
    }
  }

  /** Runs a resumed execution (after an approval or an answer): it takes a slot whatever the caps. */
  launch(run: AdmittedRun, resumeWith?: ModelMessage[]): void {
    this.slots.take(ownerOf(run));
    this.execute(run, resumeWith);
  }

  /** Runs an execution that holds its slot; when it ends, the slot and the thread's next message are offered. */
  private execute(run: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): void {
    const threadId = run.execution.threadId;
    const promise = this.launcher
      .run(run, resumeWith, admissionStartedAt)
      .catch((error: unknown) => {
        // Only when its end could not be recorded (the database stayed out of reach while the process
        // stopped): the sweeper of the instance that outlives this one's lease interrupts it.
        this.logger.error({ err: error, executionId: run.execution.id }, 'recording the end of a run failed');
        return { queuedForNextTurn: true };
      })
      .then(({ queuedForNextTurn }) => {
        this.runs.delete(promise);
        this.slots.release(ownerOf(run));
        // This thread's next message takes its turn with the threads that waited for a slot. With
        // none queued when the end was recorded there is nothing to admit: a later message kicks it.
        if (queuedForNextTurn) this.wait(threadId, { userId: run.execution.userId });
        void this.offerFreedSlots();
        if (queuedForNextTurn) this.bus.kickOtherInstances(threadId);
      });
    this.runs.add(promise);
  }

  /**
   * Slots are free: the waiting threads that a slot is free for try in turn, the one whose user
   * runs the fewest runs here first, until no slot is left or none waits. One at a time, so a user
   * with many waiting threads gets the next slot only when no one with fewer runs waits for it.
   */
  private async offerFreedSlots(): Promise<void> {
    if (this.offering) return;
    this.offering = true;
    try {
      const tried = new Set<string>();
      while (!this.stopped && this.slots.hasFree()) {
        const next = this.fairestWaiting(tried);
        if (!next) return;
        tried.add(next);
        await this.drainThread(next);
      }
    } finally {
      this.offering = false;
    }
  }

  private fairestWaiting(tried: ReadonlySet<string>): string | undefined {
    let best: { threadId: string; running: number; since: number } | undefined;
    for (const [threadId, { owner, since }] of this.waitingForSlot) {
      if (tried.has(threadId) || this.busyThreads.has(threadId) || this.slots.capFor(owner)) continue;
      const running = owner.userId === undefined ? 0 : this.slots.runningOf(owner.userId);
      if (!best || running < best.running || (running === best.running && since < best.since)) best = { threadId, running, since };
    }
    return best?.threadId;
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
      if (this.handedOff) for (const threadId of await this.handedOff.threads()) void this.resumeHandedOff(threadId);
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
    this.stopRelayListener?.();
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

const DEFERRING_SETTINGS: Record<SlotCap, string> = {
  instance: 'PARLEY_MAX_CONCURRENT_RUNS',
  user: 'PARLEY_MAX_CONCURRENT_RUNS_PER_USER',
  project: 'PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT',
};

const LIMIT_OF = { instance: 'perInstance', user: 'perUser', project: 'perProject' } as const;

function ownerOf(run: AdmittedRun): RunOwner {
  return { userId: run.execution.userId, projectId: run.agent.projectId };
}
