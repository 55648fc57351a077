import type { RunEnding } from '../recording/run-ending.ts';
import type { RunListener } from '../recording/run-listener.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ParleyMetrics } from './metrics.ts';

export interface ObservedRun {
  /** The provider name of the agent's model (`openai`, `demo`, an endpoint of PARLEY_PROVIDERS). */
  provider: string;
  /** The model name without its provider prefix. */
  model: string;
  /** When the message the run answers was queued; absent for resumed runs and delegated children. */
  queuedAt?: Date;
}

/**
 * The run counters, fed by the run's listener chain like every other observer of a run, so that
 * failures from any source (a provider, a crashed tool, an interruption) are counted once.
 */
export class RunMetricsListener implements RunListener {
  private startedAt: number | null = null;

  constructor(
    private readonly metrics: ParleyMetrics,
    private readonly observed: ObservedRun,
  ) {}

  onEvent(event: RuntimeEvent): void {
    const { provider, model } = this.observed;
    switch (event.type) {
      case 'run-started':
        this.startedAt = performance.now();
        this.metrics.runsStarted.inc({ provider });
        if (this.observed.queuedAt) {
          this.metrics.runQueueWait.observe(Math.max(0, (Date.now() - this.observed.queuedAt.getTime()) / 1000));
        }
        break;
      case 'retry-scheduled':
        this.metrics.runRetries.inc({ reason: event.reason, provider });
        break;
      default:
        break;
    }
  }

  onEnded(end: RunEnding): void {
    const { provider, model } = this.observed;
    if (end.failure) this.metrics.runFailures.inc({ reason: end.failure.reason, provider });
    this.metrics.runsFinished.inc({ status: end.status, provider });
    if (this.startedAt !== null) {
      this.metrics.runDuration.observe({ status: end.status }, (performance.now() - this.startedAt) / 1000);
    }
    if (end.usage.inputTokens > 0) this.metrics.modelTokens.inc({ provider, model, direction: 'input' }, end.usage.inputTokens);
    if (end.usage.outputTokens > 0) this.metrics.modelTokens.inc({ provider, model, direction: 'output' }, end.usage.outputTokens);
  }
}
