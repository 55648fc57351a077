import { z } from 'zod';
import { booleanFlag, positiveInt } from './lifecycle/settings.ts';

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

/** An absolute http(s) URL: the product's own endpoint that answers the web chat a fresh JWT. */
const webTokenUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL such as https://app.example.com/parley-token');

/**
 * The HTTP, WebSocket and GraphQL server's slice of the settings. It sits at the root of src/, not in
 * src/server/: that folder uses parley.ts, so a slice inside it would tie the two folders together.
 */
export const serverSettings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PARLEY_MAX_REQUEST_BYTES: positiveInt.default(1_000_000),
  PARLEY_MAX_QUERY_DEPTH: positiveInt.default(12),
  PARLEY_WS_INIT_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_MAX_QUERY_COST: positiveInt.default(25_000),
  PARLEY_MAX_ALIASES: positiveInt.default(30),
  PARLEY_MAX_TOKENS: positiveInt.default(5_000),
  PARLEY_MAX_DIRECTIVES: positiveInt.default(50),
  PARLEY_INTROSPECTION: booleanFlag.default(true),
  PARLEY_GRAPHIQL: booleanFlag.optional(),
  PARLEY_WEB: booleanFlag.default(true),
  PARLEY_WEB_TOKEN_URL: webTokenUrl.optional(),
  PARLEY_CORS_ORIGINS: corsOrigins.default('*'),
  PARLEY_WS_MAX_SUBSCRIPTIONS: positiveInt.default(100),
  PARLEY_WS_MAX_SOCKETS_PER_USER: positiveInt.default(50),
  PARLEY_MAX_BUFFERED_EVENT_BYTES: positiveInt.default(512 * 1024),
  PARLEY_MAX_CONNECTIONS: positiveInt.default(10_000),
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS: positiveInt.default(2_000),
  PARLEY_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  PARLEY_HTTP_KEEPALIVE_MS: positiveInt.default(65_000),
  PARLEY_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_UPLOAD_MIN_BYTES_PER_S: positiveInt.default(250_000),
  PARLEY_WS_MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: positiveInt.default(20),
  PARLEY_WS_IDLE_TIMEOUT_MS: positiveInt.default(30_000),
  PARLEY_WS_KEEPALIVE_MS: positiveInt.default(12_000),
  PARLEY_MAX_SUBSCRIPTIONS_PER_USER: positiveInt.default(1_000),
});
