import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import type { LimitExceededError } from '../domain/errors.ts';
import type { Module } from '../lifecycle/module.ts';
import { parseModelId, type ModelRegistry } from '../models/registry.ts';
import type { RunListener } from '../recording/run-listener.ts';
import { ParleyMetrics } from './metrics.ts';
import { RunMetricsListener } from './run-metrics.ts';
import type { ObservabilitySettings } from './settings.ts';
import { ParleyTracing } from './tracing.ts';

/** The Prometheus metrics served at /metrics and the OpenTelemetry traces; stopping exports the last spans. */
export class ObservabilityModule implements Module {
  readonly name = 'metrics and tracing';
  readonly metrics = new ParleyMetrics();
  readonly tracing: ParleyTracing;

  constructor(
    settings: ObservabilitySettings,
    instanceId: string,
    private readonly logger: Logger,
    /** Receives the spans (tests: an in-memory exporter) instead of OTEL_EXPORTER_OTLP_ENDPOINT. */
    spanExporter?: SpanExporter,
  ) {
    this.tracing = new ParleyTracing({ exporter: spanExporter, otlpEndpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT, instanceId });
  }

  /** Counts and logs a request refused by a limit, then refuses it. */
  readonly refuseOverLimit = (error: LimitExceededError): never => {
    this.metrics.limitRefusals.inc({ setting: error.setting });
    this.logger.info({ setting: error.setting, limit: error.limit }, `refused: ${error.message}`);
    throw error;
  };

  /** What the execution engine tells of its runs: each turn's trace and metrics, deferred admissions, swept interruptions. */
  runObservers(models: ModelRegistry) {
    return {
      tracing: this.tracing,
      runListeners: (model: string, queuedAt?: Date): RunListener[] => [
        // `openai:gpt-4.1-mini` → `gpt-4.1-mini`: the model label of the metrics.
        new RunMetricsListener(this.metrics, { provider: models.providerName(model), model: parseModelId(model).model, queuedAt }),
      ],
      onDeferred: (cap: string) => this.metrics.admissionsDeferred.inc({ reason: cap }),
      onSwept: (count: number) => this.metrics.interruptionsSwept.inc(count),
    };
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    await this.tracing.shutdown().catch((error) => this.logger.warn({ err: error }, 'exporting the last spans failed'));
  }
}
