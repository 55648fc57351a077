import { z } from 'zod';
import { booleanFlag, optionalUrl } from '../lifecycle/settings.ts';

/** The slice of the settings for logs, metrics and tracing. */
export const observabilitySettings = z.object({
  PARLEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level; logs are JSON on stderr'),
  PARLEY_METRICS: booleanFlag.optional().describe('serve Prometheus metrics at `/metrics`; unset: on in the embedded mode, with `DATABASE_URL` only if `PARLEY_METRICS_TOKEN` is set'),
  PARLEY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().describe('bearer token a scrape of `/metrics` must send (at least 16 characters)'),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http:', 'https:']).describe('OpenTelemetry collector (OTLP over HTTP); unset = no tracing. The exporter’s other `OTEL_EXPORTER_OTLP_*` variables apply'),
});

export type ObservabilitySettings = z.infer<typeof observabilitySettings>;
