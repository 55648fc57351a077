import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { AdmittedRun } from './admission.ts';
import type { RunLauncher } from './run-launcher.ts';
import type { RunOwner, RunSlots } from './run-slots.ts';

/**
 * The runs this instance executes: each holds its run slot until its end is recorded, when the
 * slot is given back and the pool says whether its thread has a next turn waiting.
 */
export class RunPool {
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly launcher: RunLauncher,
    private readonly slots: RunSlots,
    private readonly logger: Logger,
    /** A run ended and its slot is free; `queuedForNextTurn`: a message waited in its thread when the end was recorded. */
    private readonly onEnded: (threadId: string, userId: string, queuedForNextTurn: boolean) => void,
  ) {}

  /** Runs an admitted execution, which holds its slot already. */
  run(run: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): void {
    const { threadId, userId, id } = run.execution;
    const promise = this.launcher
      .run(run, resumeWith, admissionStartedAt)
      .catch((error: unknown) => {
        // Only when its end could not be recorded (the database stayed out of reach while the process
        // stopped): the sweeper of the instance that outlives this one's lease interrupts it.
        this.logger.error({ err: error, executionId: id }, 'recording the end of a run failed');
        return { queuedForNextTurn: true };
      })
      .then(({ queuedForNextTurn }) => {
        this.runs.delete(promise);
        this.slots.release(ownerOf(run));
        this.onEnded(threadId, userId, queuedForNextTurn);
      });
    this.runs.add(promise);
  }

  /** Runs a resumed execution (after an approval or an answer): it takes a slot whatever the caps. */
  resume(run: AdmittedRun, resumeWith: ModelMessage[]): void {
    this.slots.take(ownerOf(run));
    this.run(run, resumeWith);
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

export function ownerOf(run: AdmittedRun): RunOwner {
  return { userId: run.execution.userId, projectId: run.agent.projectId };
}
