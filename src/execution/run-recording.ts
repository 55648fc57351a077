import type { Locale } from '../i18n/catalog.ts';
import type { ListenerChain, RunOutcome, RunState, RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';
import { recordedFailureOf } from './run-failure.ts';

/**
 * The single door through which a run's events reach its listeners. It guarantees the failure
 * contract: a failure is delivered once, as a provider-error event, never after the run completed.
 */
export class RunRecording {
  private completed = false;
  private failed = false;
  private usage: RunUsage = { inputTokens: 0, outputTokens: 0 };

  constructor(
    private readonly chain: ListenerChain,
    readonly run: RunState,
    private readonly locale: Locale,
  ) {}

  get isCompleted(): boolean {
    return this.completed;
  }

  async emit(event: RuntimeEvent): Promise<void> {
    if (this.completed) return;
    if (event.type === 'provider-error') {
      if (this.failed) return;
      this.failed = true;
    }
    if (event.type === 'run-completed') {
      this.completed = true;
      this.usage = event.usage;
    }
    await this.chain.emit(event, this.run);
  }

  async fail(error: unknown, usage: RunUsage = this.usage): Promise<void> {
    if (this.completed || this.failed) return;
    await this.emit({ type: 'provider-error', failure: recordedFailureOf(error, this.locale) });
    await this.emit({ type: 'run-completed', outcome: 'FAILED', usage });
  }

  /** The run's instance died: the failure is recorded like any other, the status says INTERRUPTED. */
  async interrupt(error: unknown): Promise<void> {
    if (this.completed || this.failed) return;
    await this.emit({ type: 'provider-error', failure: recordedFailureOf(error, this.locale) });
    await this.emit({ type: 'run-completed', outcome: 'INTERRUPTED', usage: this.usage });
  }

  async finish(outcome: Exclude<RunOutcome, 'FAILED' | 'INTERRUPTED'>, usage: RunUsage): Promise<void> {
    await this.emit({ type: 'run-completed', outcome, usage });
  }
}
