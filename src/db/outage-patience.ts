import { isDatabaseOutage } from './outage.ts';

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2_000;

/**
 * How long this instance keeps trying to record what it holds in memory (a run's end) while the
 * database is out of reach: as long as its lease is held, then (the run then counts as interrupted)
 * until the database is back — unless the process is stopping, which abandons the attempt and leaves
 * the run to the sweeper of whichever instance outlives the lease.
 */
export class OutagePatience {
  private abandoned = false;
  private readonly wakers = new Set<() => void>();

  /** `leaseHeldUntil`: when this instance's lease, as last renewed, ends (epoch ms). */
  constructor(private readonly leaseHeldUntil: () => number) {}

  leaseHeld(): boolean {
    return Date.now() < this.leaseHeldUntil();
  }

  /** Whether to try `error`'s work again: only for an outage, and not once the process is stopping. */
  worthRetrying(error: unknown): boolean {
    return !this.abandoned && isDatabaseOutage(error);
  }

  /** Waits before attempt `attempt + 1` (exponential, jittered, capped); ends early when abandoned. */
  pause(attempt: number): Promise<void> {
    if (this.abandoned) return Promise.resolve();
    const ceiling = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** attempt);
    const delayMs = ceiling / 2 + Math.random() * (ceiling / 2);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, delayMs);
      this.wakers.add(wake);
    });
  }

  /** The process is stopping: retries end now. */
  abandon(): void {
    this.abandoned = true;
    for (const wake of [...this.wakers]) wake();
  }
}
