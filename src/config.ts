import { z } from 'zod';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
    .optional();

const positiveInt = z.coerce.number().int().positive();
const positiveNumber = z.coerce.number().positive();
const booleanFlag = z.enum(['true', 'false'], { message: 'must be true or false' }).transform((value) => value === 'true');

/** `*` (any origin, never with credentials) or a comma list of origins such as `https://app.example.com`. */
const corsOrigins = z
  .string()
  .trim()
  .transform((value, context): '*' | string[] => {
    if (value === '*') return '*';
    const origins = value.split(',').map((origin) => origin.trim()).filter(Boolean);
    for (const origin of origins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
        context.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://app.example.com (or use *)` });
      }
    }
    if (!origins.length) context.addIssue({ code: 'custom', message: 'must be * or a comma list of origins' });
    return origins;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  PARLEY_DATA_DIR: z.string().min(1).default('./.parley'),
  PARLEY_INSTANCE_ID: z.string().min(1).optional(),
  PARLEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PARLEY_MAX_MESSAGE_CHARS: positiveInt.default(32_000),
  PARLEY_MAX_REQUEST_BYTES: positiveInt.default(1_000_000),
  PARLEY_MAX_ATTACHMENT_BYTES: positiveInt.default(5_000_000),
  PARLEY_MAX_ATTACHMENTS: positiveInt.default(10),
  PARLEY_MAX_QUERY_DEPTH: positiveInt.default(12),
  PARLEY_MUTATIONS_PER_MINUTE: positiveInt.default(600),
  PARLEY_TEXT_FLUSH_MS: positiveInt.default(1_000),
  PARLEY_TEXT_FLUSH_CHARS: positiveInt.default(4_000),
  PARLEY_CONSUMER_SWEEP_MS: positiveInt.default(2_000),
  PARLEY_LEASE_MS: positiveInt.default(15_000),
  PARLEY_RETRY_MAX_ATTEMPTS: positiveInt.default(4),
  PARLEY_RETRY_BASE_DELAY_S: positiveNumber.default(1),
  PARLEY_RETRY_MAX_DELAY_S: positiveNumber.default(30),
  PARLEY_RETRY_DEADLINE_S: positiveNumber.default(120),
  PARLEY_LIVE_CHANNEL_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_WS_INIT_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_DB_POOL_SIZE: positiveInt.default(10),
  PARLEY_DB_ACQUIRE_TIMEOUT_MS: positiveInt.default(5_000),
  PARLEY_DB_STATEMENT_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  PARLEY_MAX_QUERY_COST: positiveInt.default(25_000),
  PARLEY_MAX_ALIASES: positiveInt.default(30),
  PARLEY_MAX_TOKENS: positiveInt.default(5_000),
  PARLEY_MAX_DIRECTIVES: positiveInt.default(50),
  PARLEY_INTROSPECTION: booleanFlag.default(true),
  PARLEY_GRAPHIQL: booleanFlag.optional(),
  PARLEY_WEB: booleanFlag.default(true),
  PARLEY_CORS_ORIGINS: corsOrigins.default('*'),
  PARLEY_MAX_CONCURRENT_RUNS: positiveInt.default(32),
  PARLEY_MAX_CONCURRENT_RUNS_PER_USER: positiveInt.default(8),
  PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: positiveInt.default(16),
  PARLEY_MAX_QUEUED_PER_THREAD: positiveInt.default(100),
  PARLEY_MAX_THREADS_PER_USER: positiveInt.default(10_000),
  PARLEY_MAX_ATTACHMENT_BYTES_PER_USER: positiveInt.default(1024 ** 3),
  /** Unset: on in the embedded mode, off with DATABASE_URL (see loadConfig). */
  PARLEY_DEMO: booleanFlag.optional(),
  PARLEY_QUERIES_PER_MINUTE: positiveInt.default(1_200),
  PARLEY_WS_MAX_SUBSCRIPTIONS: positiveInt.default(100),
  PARLEY_WS_MAX_SOCKETS_PER_USER: positiveInt.default(50),
  PARLEY_MAX_BUFFERED_EVENT_BYTES: positiveInt.default(512 * 1024),
  PARLEY_MAX_CONNECTIONS: positiveInt.default(10_000),
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS: positiveInt.default(2_000),
  PARLEY_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_UPLOAD_MIN_BYTES_PER_S: positiveInt.default(250_000),
  PARLEY_WS_MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: positiveInt.default(20),
  PARLEY_WS_IDLE_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_MAX_SUBSCRIPTIONS_PER_USER: positiveInt.default(1_000),
  PARLEY_METRICS: booleanFlag.optional(),
  PARLEY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http:', 'https:']),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: optionalUrl(['http:', 'https:']),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: optionalUrl(['http:', 'https:']),
  PARLEY_PROVIDERS: z.string().min(1).optional(),
});

export type Config = Omit<z.infer<typeof envSchema>, 'PARLEY_DEMO'> & {
  /** Whether the built-in demo model (`demo:*`) may be used: agents on it created and run. */
  PARLEY_DEMO: boolean;
};

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at start; every problem names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const demo = parsed.data.PARLEY_DEMO ?? !parsed.data.DATABASE_URL;
  return { ...parsed.data, PARLEY_DEMO: demo, ...overrides };
}
