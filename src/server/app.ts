import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { bootstrapDemo, type DemoBootstrap } from './bootstrap.ts';
import { serveGraphQLOverWebSocket } from './graphql-ws.ts';
import { SharedEventResults } from './plugins/use-shared-event-results.ts';
import { openParley, type Parley, type ParleyOverrides } from '../parley.ts';
import { createLogger, logModelWarningsTo } from '../observability/logging.ts';
import { inRequestScope, REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.ts';
import { limitRequestBody } from './request-body-limit.ts';
import { LimitReporter, limitConnections } from './connection-limits.ts';
import { slowReaderDropped } from './request-context.ts';
import { createParleyYoga, maxMultipartBytes } from './yoga.ts';
import { METRICS_PATH } from './plugins/use-metrics.ts';
import { servesClients } from '../execution/settings.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';

const WORKER_PATHS = new Set(['/health', '/ready', METRICS_PATH]);

/** Answers 404 on a worker for anything but its probes and metrics; true when it answered. */
function refuseOnWorker(req: IncomingMessage, res: ServerResponse): boolean {
  const path = new URL(req.url ?? '/', 'http://worker').pathname;
  if (WORKER_PATHS.has(path)) return false;
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: `this instance has PARLEY_ROLE=worker: it serves only ${[...WORKER_PATHS].join(', ')}; clients use an api instance` }));
  return true;
}

export interface App {
  /** Listens on config.PORT (0 = a free port) and starts this instance's queue consumer. */
  start(): Promise<{ url: string; port: number }>;
  /** Stops accepting, closes subscriptions, lets running replies finish within the grace period; a second call waits for the first. */
  stop(): Promise<void>;
  parley: Parley;
  demo: DemoBootstrap | null;
}

export interface BuildAppOptions {
  logger?: Logger;
  /** Create the demo user, project and agent on first start (the embedded default does). */
  bootstrapDemo?: boolean;
  overrides?: ParleyOverrides;
}

export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.PARLEY_LOG_LEVEL);
  logModelWarningsTo(logger);
  const parley = await openParley(config, logger, options.overrides);
  const demo = options.bootstrapDemo ? await bootstrapDemo(parley) : null;

  let accepting = true;
  // A worker (PARLEY_ROLE=worker) serves its probes and metrics only; clients go to api instances.
  const clients = servesClients(parley.role);
  const limitReporter = new LimitReporter(parley.metrics, logger);
  const sharedResults = new SharedEventResults();
  const yoga = createParleyYoga({ parley, config, logger, isAccepting: () => accepting, limits: limitReporter, sharedResults });
  const bodyLimits = { maxBytes: config.PARLEY_MAX_REQUEST_BYTES, maxMultipartBytes: maxMultipartBytes(config) };
  // Node checks the headers timeout this often; the default (30 s) would let a slow client keep
  // its connection three times as long as the timeout says.
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, Math.floor(config.PARLEY_HEADERS_TIMEOUT_MS / 4)));
  const server: Server = createServer({ connectionsCheckingInterval }, (req, res) => {
    // Every answer names its request, the refusal of a body over the limit included.
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    startBodyDeadline(req, res);
    if (!clients && refuseOnWorker(req, res)) return;
    if (limitRequestBody(req, res, bodyLimits)) inRequestScope(requestId, () => void yoga.handle(req, res));
  });
  const startBodyDeadline = limitConnections(
    server,
    {
      maxConnections: config.PARLEY_MAX_CONNECTIONS,
      maxConnectionsPerAddress: config.PARLEY_MAX_CONNECTIONS_PER_ADDRESS,
      headersTimeoutMs: config.PARLEY_HEADERS_TIMEOUT_MS,
      keepAliveMs: config.PARLEY_HTTP_KEEPALIVE_MS,
      requestTimeoutMs: config.PARLEY_REQUEST_TIMEOUT_MS,
      minUploadBytesPerS: config.PARLEY_UPLOAD_MIN_BYTES_PER_S,
      maxMultipartBytes: bodyLimits.maxMultipartBytes,
    },
    limitReporter,
    parley.metrics,
  );
  const webSocket = !clients ? { close: async () => {} } : serveGraphQLOverWebSocket(server, yoga, {
    maxPayloadBytes: config.PARLEY_MAX_REQUEST_BYTES,
    initTimeoutMs: config.PARLEY_WS_INIT_TIMEOUT_MS,
    maxOperationsPerSocket: config.PARLEY_WS_MAX_SUBSCRIPTIONS,
    maxSocketsPerUser: config.PARLEY_WS_MAX_SOCKETS_PER_USER,
    maxAnonymousSocketsPerAddress: config.PARLEY_WS_MAX_ANONYMOUS_SOCKETS_PER_ADDRESS,
    idleTimeoutMs: config.PARLEY_WS_IDLE_TIMEOUT_MS,
    keepAliveMs: config.PARLEY_WS_KEEPALIVE_MS,
    limits: limitReporter,
    maxBufferedBytes: config.PARLEY_MAX_BUFFERED_EVENT_BYTES,
    tokens: parley.authenticator,
    streams: parley.signedInStreams,
    logger,
    onSlowReaderDrop: slowReaderDropped(parley),
    sharedResults,
  });

  let stopping: Promise<void> | null = null;
  return {
    parley,
    demo,
    async start() {
      await parley.startWork();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.PORT, config.HOST, () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}/graphql`;
      logger.info({ url, instanceId: parley.instanceId, role: parley.role, database: parley.db.kind, pubsub: parley.bus.kind }, 'Parley is listening');
      return { url, port };
    },
    stop() {
      // Once: a second close of the WebSocket server would wait for a 'close' that never comes again.
      stopping ??= (async () => {
        accepting = false;
        // Subscribers keep their sockets while running replies finish: they see the replies' last events.
        await parley.stopWork();
        await webSocket.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await parley.close();
      })();
      return stopping;
    },
  };
}
