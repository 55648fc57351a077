import { z } from 'zod';
import { booleanFlag, optionalUrl } from '../lifecycle/settings.ts';

/** The slice of the settings for logs, metrics and tracing. */
export const observabilitySettings = z.object({
  PARLEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PARLEY_METRICS: booleanFlag.optional(),
  PARLEY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http:', 'https:']),
});

export type ObservabilitySettings = z.infer<typeof observabilitySettings>;
