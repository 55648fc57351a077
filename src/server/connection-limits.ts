import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ParleyMetrics } from '../observability/metrics.ts';

/** What a limit that bites is called in the metric's `limit` label and in its log line. */
export type ConnectionLimit =
  | 'max_connections'
  | 'connections_per_address'
  | 'headers_timeout'
  | 'request_timeout'
  | 'websocket_anonymous_per_address'
  | 'websocket_idle_timeout'
  | 'subscriptions_per_user';

/** How often, at most, one limit writes its log line; the metric counts every hit. */
const LOG_INTERVAL_MS = 10_000;

/**
 * Counts each time a limit bites (`parley_connection_limits_hit_total{limit}`) and logs it: the first
 * hit at once, then at most one line per limit every 10 s with the hits since the last line, so a
 * flood of refused connections does not become a flood of log lines.
 */
export class LimitReporter {
  private readonly lastLine = new Map<ConnectionLimit, { at: number; unlogged: number }>();

  constructor(
    private readonly metrics: ParleyMetrics,
    private readonly logger: Logger,
  ) {}

  hit(limit: ConnectionLimit, details: { address?: string } = {}): void {
    this.metrics.connectionLimitsHit.inc({ limit });
    const now = Date.now();
    const last = this.lastLine.get(limit);
    if (last && now - last.at < LOG_INTERVAL_MS) {
      last.unlogged++;
      return;
    }
    this.lastLine.set(limit, { at: now, unlogged: 0 });
    this.logger.warn({ limit, ...details, hitsSinceLastLine: (last?.unlogged ?? 0) + 1 }, `connection limit reached: ${limit}`);
  }
}

export interface ConnectionLimits {
  /** TCP connections the server holds at once; more are closed as they arrive. */
  maxConnections: number;
  /** TCP connections one peer address may hold at once (WebSockets included). */
  maxConnectionsPerAddress: number;
  /** A request whose headers have not all arrived within this is answered 408 and closed. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveMs: number;
  /** A request whose body has not all arrived within this is answered 408 and closed. */
  requestTimeoutMs: number;
  /** A multipart upload gets requestTimeoutMs plus the time its size takes at this rate. */
  minUploadBytesPerS: number;
  /** The largest multipart body: the size of an upload that does not declare its length. */
  maxMultipartBytes: number;
}

/**
 * Bounds what one client can hold of the HTTP server: connections (in all and per address), the
 * time to send the headers (Node's headersTimeout, checked every second) and the time to send the
 * body (per request, longer for an upload). Returns what the request handler calls for each
 * request, to start its body's deadline.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  reporter: LimitReporter,
  metrics: ParleyMetrics,
): (req: IncomingMessage, res: ServerResponse) => void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', (data?: { remoteAddress?: string }) => reporter.hit('max_connections', { address: data?.remoteAddress }));

  server.headersTimeout = limits.headersTimeoutMs;
  // An idle keep-alive connection is closed by the other side first (a load balancer's idle
  // timeout, a client's own): closed here at the moment the peer reuses it, the request it sends
  // meets a reset (Node's 5 s default is shorter than every balancer's).
  server.keepAliveTimeout = limits.keepAliveMs;
  // The body's deadline depends on the request (an upload gets longer), so it is kept per request.
  server.requestTimeout = 0;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') reporter.hit('headers_timeout', { address: socket.remoteAddress });
    answerAndClose(socket, clientErrorStatus(error.code));
  });

  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerAddress) {
      reporter.hit('connections_per_address', { address });
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    metrics.connectionsOpen.inc();
    socket.once('close', () => {
      metrics.connectionsOpen.dec();
      const left = perAddress.get(address)! - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  return (req, res) => {
    if (req.complete) return;
    const timer = setTimeout(() => {
      if (req.complete) return;
      reporter.hit('request_timeout', { address: req.socket.remoteAddress });
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      res.end(JSON.stringify({ errors: [{ message: 'The request body did not arrive in time.', extensions: { code: 'REQUEST_TIMEOUT' } }] }), () =>
        req.socket.destroy(),
      );
    }, bodyDeadlineMs(req, limits));
    const stop = () => clearTimeout(timer);
    req.once('end', stop);
    req.once('close', stop);
  };
}

/** An upload may take its size at minUploadBytesPerS on top of the request timeout; any other request gets the request timeout. */
export function bodyDeadlineMs(req: IncomingMessage, limits: Pick<ConnectionLimits, 'requestTimeoutMs' | 'minUploadBytesPerS' | 'maxMultipartBytes'>): number {
  if (!String(req.headers['content-type']).toLowerCase().startsWith('multipart/')) return limits.requestTimeoutMs;
  const declared = Number(req.headers['content-length']);
  const bytes = Number.isFinite(declared) && declared >= 0 ? Math.min(declared, limits.maxMultipartBytes) : limits.maxMultipartBytes;
  return limits.requestTimeoutMs + Math.ceil((bytes / limits.minUploadBytesPerS) * 1000);
}

/** What Node answers a request it could not parse, as its own default handler does. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

function answerAndClose(socket: Socket, status: number): void {
  const inResponse = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inResponse?.headersSent) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  socket.destroy();
}
