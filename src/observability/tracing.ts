import { context, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { RunEnding } from '../recording/run-ending.ts';
import type { RunListener } from '../recording/run-listener.ts';

export const TRACER_NAME = 'parley';

/** Span attributes Parley sets (besides the AI SDK's `ai.*` and GraphQL's `graphql.*`). */
export const ATTR_REQUEST_ID = 'parley.request_id';
export const ATTR_QUEUED_BY_REQUEST_ID = 'parley.queued_by_request_id';

export interface TracingOptions {
  /** Where spans go: tests pass an in-memory exporter (exported at once); else OTLP over HTTP. */
  exporter?: SpanExporter;
  /** OTEL_EXPORTER_OTLP_ENDPOINT; tracing is off without it (and without an exporter). */
  otlpEndpoint?: string;
  instanceId: string;
}

interface QueuedOrigin {
  spanContext: SpanContext;
  requestId: string;
}

/** Messages whose origin is remembered for linking their turn; older ones are forgotten first. */
const MAX_REMEMBERED_ORIGINS = 10_000;

/**
 * OpenTelemetry for one instance: GraphQL operations are spans of their request, and every turn
 * (an admitted execution) is a trace of its own, linked to the span of the request that queued
 * its message. Off (and free) unless an endpoint or an exporter is given.
 */
export class ParleyTracing {
  readonly enabled: boolean;
  readonly tracer: Tracer;
  private readonly provider: BasicTracerProvider | null;
  private readonly origins = new Map<string, QueuedOrigin>();

  constructor(options: TracingOptions) {
    const exporter = options.exporter ?? (options.otlpEndpoint ? new OTLPTraceExporter() : null);
    this.enabled = exporter !== null;
    if (!exporter) {
      this.provider = null;
      this.tracer = trace.getTracer(TRACER_NAME);
      return;
    }
    // Spans of one operation nest through the async context; registered once per process.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        [ATTR_SERVICE_NAME]: 'parley',
        'service.instance.id': options.instanceId,
      }),
      spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
    });
    this.tracer = this.provider.getTracer(TRACER_NAME);
  }

  /** Remembers the active span (the sendMessage operation) as the origin of a queued message's turn. */
  rememberQueued(queueItemId: string, requestId: string): void {
    const span = trace.getActiveSpan();
    if (!this.enabled || !span) return;
    if (this.origins.size >= MAX_REMEMBERED_ORIGINS) this.origins.delete(this.origins.keys().next().value!);
    this.origins.set(queueItemId, { spanContext: span.spanContext(), requestId });
  }

  /**
   * Starts the trace of one turn. `admissionStartedAt` (when the consumer began claiming the
   * message) becomes the turn's start and the admission span's; a resumed turn has none.
   */
  startTurn(turn: { executionId: string; threadId: string; queueItemId: string | null; admissionStartedAt?: Date }): TurnTrace {
    if (!this.enabled) return new TurnTrace(null, ROOT_CONTEXT, this.tracer);
    const origin = turn.queueItemId ? this.origins.get(turn.queueItemId) : undefined;
    if (turn.queueItemId) this.origins.delete(turn.queueItemId);
    const links: Link[] = origin ? [{ context: origin.spanContext, attributes: { 'parley.link': 'queued_by' } }] : [];
    const startTime = turn.admissionStartedAt ?? new Date();
    const span = this.tracer.startSpan(
      'parley.turn',
      {
        root: true,
        startTime,
        links,
        attributes: {
          'parley.execution_id': turn.executionId,
          'parley.thread_id': turn.threadId,
          'parley.resumed': turn.admissionStartedAt === undefined,
          ...(origin ? { [ATTR_QUEUED_BY_REQUEST_ID]: origin.requestId } : {}),
        },
      },
      ROOT_CONTEXT,
    );
    const turnContext = trace.setSpan(ROOT_CONTEXT, span);
    if (turn.admissionStartedAt) {
      this.tracer.startSpan('parley.admission', { startTime }, turnContext).end();
    }
    return new TurnTrace(span, turnContext, this.tracer);
  }

  /** Exports what is buffered; called when the instance closes. */
  async shutdown(): Promise<void> {
    await this.provider?.shutdown();
  }
}

/** One turn's trace: its spans nest below it, and its listener records the run's end on it. */
export class TurnTrace implements RunListener {
  constructor(
    private readonly span: Span | null,
    readonly context: Context,
    private readonly tracer: Tracer,
  ) {}

  /** Runs `work` with the turn as the active span, so the AI SDK's spans and ours nest below it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.span ? context.with(this.context, work) : work();
  }

  /** `work` as a child span of whatever span is active (the turn, or a model call inside it). */
  inSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (!this.span) return work();
    return inChildSpan(this.tracer, name, {}, work);
  }

  onEnded(end: RunEnding): void {
    if (!this.span) return;
    if (end.failure) {
      this.span.setAttribute('parley.error_reason', end.failure.reason);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: end.failure.reason });
    }
    this.span.setAttribute('parley.outcome', end.status);
    this.span.setAttribute('parley.input_tokens', end.usage.inputTokens);
    this.span.setAttribute('parley.output_tokens', end.usage.outputTokens);
  }

  end(): void {
    this.span?.end();
  }
}

/** Runs `work` in a new span below the active one; a throw marks the span as an error. */
export async function inChildSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Record<string, string | number | boolean>,
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
