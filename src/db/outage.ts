import { ServiceUnavailableError } from '../domain/errors.ts';

/** What a client is told to wait before it tries again while the database is out of reach. */
export const DATABASE_RETRY_AFTER_S = 5;

// PostgreSQL error classes and codes that say "the server is going away, restarting, overloaded or
// out of reach", never "your statement is wrong": connection exceptions (08…), insufficient
// resources (53…: too many connections, disk full, out of memory), operator intervention (57P…:
// admin shutdown, crash shutdown, cannot connect now) and a statement cancelled by its timeout.
const OUTAGE_SQLSTATE = /^(08|53|57P)/;
const STATEMENT_TIMEOUT_SQLSTATE = '57014';

// Node socket errors of a connection that could not be made or was cut.
const SOCKET_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

// Prisma's own codes: P1001 cannot reach, P1002 timed out, P1008 operation timed out, P1017 server
// closed the connection, P2024 no pool connection in time, P2028 a transaction could not start or
// was closed under it.
const PRISMA_OUTAGE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);

// The kinds @prisma/adapter-pg gives the driver errors it wraps.
const ADAPTER_OUTAGE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

// node-postgres raises these as plain Errors without a code: a pool with no free connection within
// its acquisition timeout, and a connection that ended mid-query.
const DRIVER_OUTAGE_MESSAGES = /timeout exceeded when trying to connect|connection terminated|connection ended unexpectedly|client has encountered a connection error/i;

/**
 * Whether an error means the database is unreachable, restarting, saturated or too slow — a
 * condition that passes by itself — rather than a bug or a bad statement. It looks through every
 * wrapper Prisma and its pg adapter put around the driver's error.
 */
export function isDatabaseOutage(error: unknown): boolean {
  return linksOf(error).some(isOutageLink);
}

/** The typed, retryable answer for an outage; null for any other error. */
export function serviceUnavailableFor(error: unknown): ServiceUnavailableError | null {
  if (error instanceof ServiceUnavailableError) return error;
  return isDatabaseOutage(error) ? new ServiceUnavailableError('database', DATABASE_RETRY_AFTER_S) : null;
}

function isOutageLink(link: Record<string, unknown>): boolean {
  const code = typeof link.code === 'string' ? link.code : typeof link.originalCode === 'string' ? link.originalCode : null;
  if (code !== null) {
    if (PRISMA_OUTAGE_CODES.has(code) || SOCKET_ERROR_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (OUTAGE_SQLSTATE.test(code) || code === STATEMENT_TIMEOUT_SQLSTATE)) return true;
  }
  if (typeof link.kind === 'string' && ADAPTER_OUTAGE_KINDS.has(link.kind)) return true;
  return typeof link.message === 'string' && DRIVER_OUTAGE_MESSAGES.test(link.message);
}

/** The error and everything it wraps: `cause`, `originalError`, Prisma's `meta.driverAdapterError`. */
function linksOf(error: unknown): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  const pending: unknown[] = [error];
  while (pending.length && links.length < 16) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object' || links.includes(current as Record<string, unknown>)) continue;
    const record = current as Record<string, unknown>;
    links.push(record);
    const meta = record.meta as Record<string, unknown> | undefined;
    pending.push(record.cause, record.originalError, meta?.driverAdapterError);
  }
  return links;
}
