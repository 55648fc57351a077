import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import type { LimitExceededError } from '../domain/errors.ts';
import type { Module } from '../lifecycle/module.ts';
import { parseModelId, type ModelRegistry } from '../models/registry.ts';
import type { RunListener } from '../recording/run-listener.ts';
import type { Database } from '../db/database.ts';
import { ParleyMetrics } from './metrics.ts';
import { QueueStateReader } from './queue-state.ts';
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

  /** What the live bus tells of its traffic: each event published, each recovery from a Redis outage. */
  busObservers() {
    return {
      published: (kind: 'live' | 'durable') => this.metrics.eventsPublishedOf[kind].inc(),
      resynced: () => this.metrics.redisReconnects.inc(),
    };
  }

  /** The gauges a scrape reads from the instance: its runs, queues, database pool, Redis and tool servers. */
  observeInstance(instance: {
    db: Pick<Database, 'prisma' | 'poolUsage'>;
    liveBus: { connected: boolean };
    running: { all(): unknown[] };
    tools: { countByStatus(): Record<string, number> };
  }): void {
    const queueState = new QueueStateReader(instance.db.prisma, this.logger);
    this.metrics.observe({
      runningExecutions: () => instance.running.all().length,
      queue: () => queueState.read(),
      databasePool: () => instance.db.poolUsage?.() ?? null,
      redisConnected: () => instance.liveBus.connected,
      toolServers: () => instance.tools.countByStatus(),
    });
  }

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    await this.tracing.shutdown().catch((error) => this.logger.warn({ err: error }, 'exporting the last spans failed'));
    this.metrics.close();
  }
}
