import type { ModelMessage } from 'ai';
import type { AdmittedRun } from './admission.ts';

/**
 * How the rest of the server asks for turns to run, whichever instance runs them: the execution
 * module's port (src/execution/execution-module.ts).
 */
export interface TurnScheduler {
  /** Something changed in the thread's queue: every instance's consumer looks at its head again. */
  kick(threadId: string): void;
  /** Runs a resolved suspension's execution here, from its checkpoint: it takes a run slot whatever the caps. */
  resume(run: AdmittedRun, resumeWith: ModelMessage[]): void;
  /**
   * Whether this instance runs turns (PARLEY_ROLE). One that does not records a resolution and
   * kicks the thread: an instance that does claims it (HandedOffResumes).
   */
  readonly runsTurnsHere: boolean;
}
