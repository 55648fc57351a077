import { RetryError } from 'ai';
import { asRecord, safeJson } from './unknown-values.ts';

// What was thrown, read through its wrappers: the chain of causes, whether the network failed
// somewhere along it, and its messages for people.

/** The error and what it wraps, outermost first: a RetryError's last error, then `cause` links (at most 16; a loop ends it). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < 16) {
    seen.add(current);
    chain.push(current);
    if (RetryError.isInstance(current)) {
      current = current.lastError;
    } else {
      current = asRecord(current)?.cause;
    }
  }
  return chain;
}

const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);

const NETWORK_MESSAGE_MARKERS = /socket hang up|fetch failed|failed to fetch|other side closed|network error|connection (reset|refused|closed)/i;

export function isNetworkFailure(link: unknown): boolean {
  const record = asRecord(link);
  if (record === null) return false;
  if (typeof record.code === 'string' && NETWORK_ERROR_CODES.has(record.code)) return true;
  if (record.name === 'TimeoutError') return true;
  const message = typeof record.message === 'string' ? record.message : '';
  // undici ends a response body that died mid-way with a bare TypeError('terminated').
  if (link instanceof TypeError && message === 'terminated') return true;
  return NETWORK_MESSAGE_MARKERS.test(message);
}

export function messageOf(link: unknown): string {
  if (typeof link === 'string') return link;
  const record = asRecord(link);
  return record !== null && typeof record.message === 'string' ? record.message : '';
}

/** "Failed to process successful response" alone hides what happened; the causes say "other side closed". */
export function describeWithCauses(error: unknown): string {
  const messages = causeChain(error).map(messageOf).filter((message) => message !== '');
  return [...new Set(messages)].join(': ') || describe(error);
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return safeJson(error);
}
