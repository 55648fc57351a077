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
  PORT: z.coerce.number().int().min(0).max(65535).default(4000).describe('HTTP and WebSocket port (`0` = any free port)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('interface to listen on'),
  PARLEY_MAX_REQUEST_BYTES: positiveInt.default(1_000_000).describe('largest HTTP body or WebSocket message (multipart uploads may add the attachments)'),
  PARLEY_MAX_QUERY_DEPTH: positiveInt.default(12).describe('deepest accepted GraphQL selection'),
  PARLEY_WS_INIT_TIMEOUT_MS: positiveInt.default(10_000).describe('a WebSocket that sends no `connection_init` within this is closed (4408)'),
  PARLEY_MAX_QUERY_COST: positiveInt.default(25_000).describe('most objects an operation may return, estimated before it runs'),
  PARLEY_MAX_ALIASES: positiveInt.default(30).describe('aliased fields per operation'),
  PARLEY_MAX_TOKENS: positiveInt.default(5_000).describe('lexical tokens per GraphQL document'),
  PARLEY_MAX_DIRECTIVES: positiveInt.default(50).describe('directives per operation'),
  PARLEY_INTROSPECTION: booleanFlag.default(true).describe('`false` refuses introspection and hides "Did you mean …?" suggestions'),
  PARLEY_GRAPHIQL: booleanFlag.optional().describe('serve GraphiQL at `GET /graphql`; unset: on in the embedded mode, off with `DATABASE_URL`'),
  PARLEY_WEB: booleanFlag.default(true).describe('`false` stops serving the web chat at `/`'),
  PARLEY_WEB_TOKEN_URL: webTokenUrl.meta({ allowed: 'an absolute http:// or https:// URL' }).optional().describe('the product’s endpoint that answers the web chat a fresh JWT (`{ "token": "…" }`) for the browser’s session cookie; the chat’s page may connect to that origin'),
  PARLEY_CORS_ORIGINS: corsOrigins.meta({ allowed: '`*`, or a comma list of origins such as `https://app.example.com`' }).default('*').describe('origins allowed to call the API from a browser: `*` or a comma list of origins; never with credentials'),
  PARLEY_WS_MAX_SUBSCRIPTIONS: positiveInt.default(100).describe('operations running at once on one WebSocket; beyond it `TOO_MANY_SUBSCRIPTIONS`'),
  PARLEY_WS_MAX_SOCKETS_PER_USER: positiveInt.default(50).describe('open WebSockets per authenticated user and instance; beyond it `connection_init` is refused with 4429'),
  PARLEY_MAX_BUFFERED_EVENT_BYTES: positiveInt.default(512 * 1024).describe('events waiting for one slow reader (per WebSocket or SSE request); past it they are dropped and the reader catches up with a snapshot'),
  PARLEY_MAX_CONNECTIONS: positiveInt.default(10_000).describe('TCP connections one instance holds; more are closed as they arrive (keep it below `ulimit -n`)'),
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS: positiveInt.default(2_000).describe('TCP connections one peer address may hold (behind a reverse proxy, raise it to `PARLEY_MAX_CONNECTIONS` and let the proxy limit per client)'),
  PARLEY_HEADERS_TIMEOUT_MS: positiveInt.default(10_000).describe('a request whose headers have not all arrived within this is answered 408 and its connection closed'),
  PARLEY_HTTP_KEEPALIVE_MS: positiveInt.default(65_000).describe('how long an idle keep-alive connection stays open: longer than a load balancer’s idle timeout, so the balancer closes it first'),
  PARLEY_REQUEST_TIMEOUT_MS: positiveInt.default(30_000).describe('a request whose body has not all arrived within this is answered 408 (`REQUEST_TIMEOUT`)'),
  PARLEY_UPLOAD_MIN_BYTES_PER_S: positiveInt.default(250_000).describe('a multipart upload gets `PARLEY_REQUEST_TIMEOUT_MS` plus its size at this rate'),
  PARLEY_WS_MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: positiveInt.default(20).describe('WebSockets without a token, per peer address and instance; beyond it 4429'),
  PARLEY_WS_IDLE_TIMEOUT_MS: positiveInt.default(30_000).describe('an acknowledged WebSocket that runs no operation for this long is closed (1000); clients reconnect when they next subscribe'),
  PARLEY_WS_KEEPALIVE_MS: positiveInt.default(12_000).describe('every WebSocket is pinged this often and terminated when its pong is not back within as long'),
  PARLEY_MAX_SUBSCRIPTIONS_PER_USER: positiveInt.default(1_000).describe('subscriptions one user runs at once on one instance, over SSE, WebSocket and AG-UI together; beyond it `TOO_MANY_SUBSCRIPTIONS`'),
});
