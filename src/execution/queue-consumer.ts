import type { Logger } from 'pino';
import type { LiveBus } from '../events/live-bus.ts';
import type { Admission } from './admission.ts';
import type { RunLauncher } from './run-launcher.ts';
import type { RunOwner, RunSlots, SlotCap } from './run-slots.ts';

export interface QueueConsumerDeps {
  bus: LiveBus;
  admission: Admission;
  /** Runs this instance executes at once, in all and per user and project; beyond them, messages wait in their queues, pending. */
  slots: RunSlots;
  /** Where admitted runs go. */
  launcher: Pick<RunLauncher, 'launch'>;
  logger: Logger;
  /** Told each time a turn is left waiting because a cap was full. */
  onDeferred: (cap: SlotCap) => void;
}

/**
 * Admits queued turns on this instance: on a kick (a new message, a finished run) or a sweep it
 * tries to admit the head of a thread's queue and hands what it admitted to the launcher. Any
 * instance may try; the session lock and the database decide.
 */
export class QueueConsumer {
  private readonly busyThreads = new Set<string>();
  private readonly againThreads = new Set<string>();
  /**
   * Threads whose head found no run slot here, with the owner of that head once admission saw it
   * (a thread deferred before it was read has none yet). A freed slot goes to the waiting thread
   * whose user runs the fewest runs here, the longest waiting first among equals.
   */
  private readonly waitingForSlot = new Map<string, { owner: Partial<RunOwner>; since: number; cap: SlotCap | null }>();
  private offering = false;
  private stopped = true;

  constructor(private readonly deps: QueueConsumerDeps) {}

  start(): void {
    this.stopped = false;
  }

  /** Stops admitting; running executions are left to the caller (finish or interrupt). */
  stop(): void {
    this.stopped = true;
  }

  /** Tells every instance's consumer (this one directly) that this thread may have a claimable head. */
  kick(threadId: string): void {
    // Something changed in the thread (a new message, a reorder): its head is read again.
    this.waitingForSlot.delete(threadId);
    this.tryThread(threadId);
    this.deps.bus.kickOtherInstances(threadId);
  }

  /** Tries the thread unless it waits for a slot that is still not free for it. */
  tryThread(threadId: string): void {
    const waiting = this.waitingForSlot.get(threadId);
    if (waiting && this.deps.slots.capFor(waiting.owner)) return;
    void this.drainThread(threadId);
  }

  /**
   * A run of the thread ended and gave its slot back: the thread's next message takes its turn with
   * the threads that waited for a slot. With none queued when the end was recorded there is
   * nothing to admit: a later message kicks it.
   */
  runEnded(threadId: string, userId: string, queuedForNextTurn: boolean): void {
    if (queuedForNextTurn) this.wait(threadId, { userId });
    void this.offerFreedSlots();
    if (queuedForNextTurn) this.deps.bus.kickOtherInstances(threadId);
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
    const { slots, admission, bus, launcher } = this.deps;
    try {
      for (;;) {
        if (this.stopped) return;
        if (!slots.hasFree()) {
          this.defer(threadId, 'instance', this.waitingForSlot.get(threadId)?.owner ?? {});
          return;
        }
        const admissionStartedAt = new Date();
        const result = await admission.admitNext(threadId, slots);
        if (result.kind === 'idle') {
          this.waitingForSlot.delete(threadId);
          return;
        }
        if (result.kind === 'deferred') {
          this.defer(threadId, result.cap, result.owner);
          return;
        }
        this.waitingForSlot.delete(threadId);
        bus.publishThreadEvents(result.events);
        if (result.kind === 'admitted') {
          launcher.launch(result.run, undefined, admissionStartedAt);
          return;
        }
      }
    } catch (error) {
      if (!this.stopped) this.deps.logger.error({ err: error, threadId }, 'admission failed; the sweep will try again');
    }
  }

  /** A thread waits for a slot; the first time a cap keeps it waiting, that is counted and logged. */
  private defer(threadId: string, cap: SlotCap, owner: Partial<RunOwner>): void {
    const waiting = this.waitingForSlot.get(threadId);
    if (!waiting || waiting.cap !== cap || waiting.owner.userId !== owner.userId) {
      this.deps.onDeferred(cap);
      const setting = DEFERRING_SETTINGS[cap];
      // The instance's own cap is ordinary load (its gauge and the queue age show it); the others are news.
      this.deps.logger[cap === 'instance' ? 'debug' : 'info'](
        { threadId, userId: owner.userId, projectId: owner.projectId, cap, limit: this.deps.slots.limits[LIMIT_OF[cap]], setting },
        `a turn waits for a run slot: ${setting} reached on this instance`,
      );
    }
    this.wait(threadId, owner, cap);
  }

  private wait(threadId: string, owner: Partial<RunOwner>, cap: SlotCap | null = null): void {
    const since = this.waitingForSlot.get(threadId)?.since ?? Date.now();
    this.waitingForSlot.set(threadId, { owner, since, cap });
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
      while (!this.stopped && this.deps.slots.hasFree()) {
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
    const { slots } = this.deps;
    let best: { threadId: string; running: number; since: number } | undefined;
    for (const [threadId, { owner, since }] of this.waitingForSlot) {
      if (tried.has(threadId) || this.busyThreads.has(threadId) || slots.capFor(owner)) continue;
      const running = owner.userId === undefined ? 0 : slots.runningOf(owner.userId);
      if (!best || running < best.running || (running === best.running && since < best.since)) best = { threadId, running, since };
    }
    return best?.threadId;
  }
}

const DEFERRING_SETTINGS: Record<SlotCap, string> = {
  instance: 'PARLEY_MAX_CONCURRENT_RUNS',
  user: 'PARLEY_MAX_CONCURRENT_RUNS_PER_USER',
  project: 'PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT',
};

const LIMIT_OF = { instance: 'perInstance', user: 'perUser', project: 'perProject' } as const;
