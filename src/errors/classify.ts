import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { parseRetryAfterS } from './retry-after.ts';
import {
  isErrorReason,
  isRetryableByDefault,
  ReasonedError,
  type ClassifiedFailure,
  type ErrorReason,
} from './taxonomy.ts';
import { isMessageKey } from '../i18n/catalog.ts';

export interface ClassifyContext {
  /** The provider name of the agent's model (`openai`, `anthropic`, `ollama`, …); preferred over URL guessing. */
  provider?: string;
}

/**
 * Turns whatever a model call threw (or put into the stream as an `error` part) into
 * the failure taxonomy. Rules, first match wins:
 *
 * 1. An error that already carries a reason (ReasonedError or any object with a valid
 *    `reason`) is returned unchanged.
 * 2. Wrappers are unwrapped: AI SDK `RetryError` → its `lastError`, then `cause` chains.
 * 3. `APICallError` with an HTTP status → by status, refined by the body's error code
 *    and message (see `reasonFromStatus`). Without a status it never got a response:
 *    TRANSPORT.
 * 4. Plain objects a provider sends mid-stream (`{error:{…}}`, `{type:'error',…}`,
 *    `response.failed`, Anthropic `{type:'overloaded_error',…}`) → by their code/type.
 * 5. Network errors anywhere in the chain (ECONNRESET, socket hang up, fetch failed,
 *    a timeout) → TRANSPORT.
 * 6. Message markers (rate limit, overloaded, context length, …).
 * 7. Otherwise UNKNOWN, not retryable.
 *
 * A plain `AbortError` is NOT treated as a network failure: it is what a user's Stop
 * looks like, and the caller must check its own signal before classifying. Only a
 * `TimeoutError` (AbortSignal.timeout) counts as TRANSPORT.
 */
export function classify(error: unknown, context: ClassifyContext = {}): ClassifiedFailure {
  const chain = causeChain(error);

  for (const link of chain) {
    if (link instanceof ReasonedError) return link.toFailure();
    const carried = carriedFailure(link);
    if (carried !== null) return carried;
    if (APICallError.isInstance(link)) return classifyApiCallError(link, context);
    if (isProviderErrorObject(link)) return classifyProviderErrorObject(link, context);
  }

  const provider = context.provider ?? null;
  if (chain.some(isNetworkFailure)) {
    return failure({ reason: 'TRANSPORT', provider, detail: describeWithCauses(error) });
  }
  const detail = describe(error);
  const reason = reasonFromMessage(chain.map(messageOf).join('\n'));
  return failure({ reason: reason ?? 'UNKNOWN', provider, detail });
}

// ---------------------------------------------------------------------------
// APICallError

function classifyApiCallError(error: APICallError, context: ClassifyContext): ClassifiedFailure {
  const body = error.data ?? parseJson(error.responseBody);
  const fields = providerErrorFields(body);
  const providerCode = fields?.code ?? fields?.type ?? null;
  const provider = context.provider ?? providerFromUrl(error.url);
  const requestId = requestIdFromHeaders(error.responseHeaders) ?? fields?.requestId ?? null;
  const detail = error.message || error.responseBody || 'API call failed';

  // No status: the request never got a response. A status below 400 with a network
  // cause: the response started (200) and the connection died while streaming it.
  if (error.statusCode === undefined || (error.statusCode < 400 && causeChain(error).some(isNetworkFailure))) {
    return failure({ reason: 'TRANSPORT', provider, requestId, detail: describeWithCauses(error), headers: error.responseHeaders });
  }

  const markers = [error.message, error.responseBody, fields?.code, fields?.type].filter(Boolean).join(' ');
  const reason =
    reasonFromStatus(error.statusCode, reasonFromCode(fields?.code ?? null, fields?.type ?? null, markers), markers) ??
    reasonFromMessage(markers) ??
    'UNKNOWN';

  return failure({
    reason,
    provider,
    httpStatus: error.statusCode,
    providerCode,
    requestId,
    detail,
    headers: error.responseHeaders,
  });
}

/**
 * 408 is TRANSPORT (retryable): the server gave up waiting for our request, which is
 * a network/latency problem, not a malformed request. 402 is QUOTA_EXCEEDED
 * (OpenRouter and others use it for exhausted credit). Quota markers also win on 400,
 * because Anthropic reports "credit balance is too low" as a 400. Context and policy
 * markers are honoured on 400, 413 and 422 (OpenAI-compatible servers such as vLLM
 * use 422). For 5xx the body's error code wins when it names a specific reason:
 * the provider packages turn an error event that arrives before any output into an
 * APICallError with a made-up status (Anthropic: 500 for everything but overload),
 * so a `rate_limit_error` event would otherwise look like an internal error.
 */
function reasonFromStatus(status: number, codeReason: ErrorReason | null, markers: string): ErrorReason | null {
  const text = markers.toLowerCase();
  if (status === 429) return QUOTA_MARKERS.test(text) ? 'QUOTA_EXCEEDED' : 'RATE_LIMIT';
  if (status === 401) return 'AUTHENTICATION';
  if (status === 402) return 'QUOTA_EXCEEDED';
  if (status === 403) return 'AUTHORIZATION';
  if (status === 408) return 'TRANSPORT';
  if (status === 400 || status === 413 || status === 422) {
    if (CONTEXT_MARKERS.test(text)) return 'CONTEXT_LENGTH';
    if (POLICY_MARKERS.test(text)) return 'CONTENT_POLICY';
    if (QUOTA_MARKERS.test(text)) return 'QUOTA_EXCEEDED';
    return 'INVALID_REQUEST';
  }
  if (status >= 400 && status < 500) return 'INVALID_REQUEST';
  if (status >= 500 && status < 600) {
    if (codeReason !== null && codeReason !== 'UNKNOWN' && codeReason !== 'INVALID_REQUEST') return codeReason;
    return 'PROVIDER_INTERNAL';
  }
  return codeReason;
}

// ---------------------------------------------------------------------------
// Plain provider error objects (mid-stream)

interface ProviderErrorFields {
  code: string | null;
  type: string | null;
  message: string | null;
  requestId: string | null;
  statusCode: number | null;
}

function isProviderErrorObject(value: unknown): value is Record<string, unknown> {
  if (value instanceof Error) return false;
  const record = asRecord(value);
  if (record === null) return false;
  if (asRecord(record.error) !== null) return true;
  if (record.type === 'error' || record.type === 'response.failed') return true;
  return typeof record.message === 'string' && (typeof record.type === 'string' || 'code' in record);
}

function classifyProviderErrorObject(value: Record<string, unknown>, context: ClassifyContext): ClassifiedFailure {
  const fields = providerErrorFields(value);
  const code = fields?.code ?? null;
  const type = fields?.type ?? null;
  const message = fields?.message ?? '';
  const markers = [code, type, message].filter(Boolean).join(' ');
  const reason =
    reasonFromCode(code, type, markers) ??
    (fields?.statusCode != null ? reasonFromStatus(fields.statusCode, null, markers) : null) ??
    reasonFromMessage(markers) ??
    'UNKNOWN';
  return failure({
    reason,
    provider: context.provider ?? null,
    // The HTTP exchange itself succeeded (200); a status the SDK derived from the code is not one.
    httpStatus: null,
    providerCode: code ?? type,
    requestId: fields?.requestId ?? null,
    detail: message || safeJson(value),
  });
}

/**
 * Reads code/type/message from the error shapes providers use: OpenAI
 * `{error:{message,type,code}}`, OpenAI responses `{type:'error',code,message}` and
 * `{type:'response.failed',response:{error}}`, Anthropic
 * `{type:'error',error:{type,message},request_id}` or its inner `{type,message}`,
 * and the AI SDK's own `{message,type,code,statusCode}` stream error.
 */
function providerErrorFields(value: unknown): ProviderErrorFields | null {
  const record = asRecord(value);
  if (record === null) return null;
  let inner = record;
  if (record.type === 'response.failed') {
    inner = asRecord(asRecord(record.response)?.error) ?? record;
  } else {
    inner = asRecord(record.error) ?? record;
  }
  const type = typeof inner.type === 'string' && inner.type !== 'error' ? inner.type : null;
  return {
    code: stringOrNumber(inner.code),
    type,
    message: typeof inner.message === 'string' ? inner.message : null,
    requestId: stringOrNull(record.request_id) ?? stringOrNull(inner.request_id) ?? stringOrNull(record.requestId),
    statusCode: typeof record.statusCode === 'number' ? record.statusCode : null,
  };
}

const CODE_RULES: Array<[RegExp, ErrorReason]> = [
  [/insufficient_quota|billing|quota|credit/, 'QUOTA_EXCEEDED'],
  [/rate_limit|too_many_requests/, 'RATE_LIMIT'],
  [/context_length|request_too_large|string_above_max_length|tokens_exceeded/, 'CONTEXT_LENGTH'],
  [/content_policy|content_filter|safety|moderation/, 'CONTENT_POLICY'],
  [/authentication|invalid_api_key|incorrect_api_key|unauthori[sz]ed/, 'AUTHENTICATION'],
  [/permission|forbidden|unsupported_country/, 'AUTHORIZATION'],
  [/overloaded|server_error|api_error|internal|service_unavailable|unavailable|timeout/, 'PROVIDER_INTERNAL'],
  [/invalid|not_found|bad_request|unsupported/, 'INVALID_REQUEST'],
];

function reasonFromCode(code: string | null, type: string | null, markers: string): ErrorReason | null {
  const codes = [code, type].filter(Boolean).join(' ').toLowerCase();
  if (codes === '') return null;
  for (const [pattern, reason] of CODE_RULES) {
    if (!pattern.test(codes)) continue;
    // A generic "invalid request" code hides the specific cause in the message
    // (Anthropic: invalid_request_error + "prompt is too long" / "credit balance is too low").
    if (reason === 'INVALID_REQUEST') return reasonFromMessage(markers, ['CONTEXT_LENGTH', 'CONTENT_POLICY', 'QUOTA_EXCEEDED']) ?? reason;
    return reason;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Message markers

const QUOTA_MARKERS = /insufficient[_ ]quota|exceeded your current quota|quota|billing|credit balance|out of credits|insufficient credits/;
const RATE_LIMIT_MARKERS = /rate[_ -]?limit|too many requests/;
const CONTEXT_MARKERS =
  /context[_ ]length|maximum context length|context window|context limit|prompt is too long|prompt too long|input is too long|too many tokens|maximum number of tokens|request[_ ]too[_ ]large|reduce the length/;
const POLICY_MARKERS = /content[_ ]policy|content[_ ]filter|content management policy|usage polic|safety|flagged|moderation/;
const AUTHENTICATION_MARKERS = /invalid[_ ]api[_ ]key|incorrect api key|invalid x-api-key|api[ _-]?key is missing|authentication|unauthori[sz]ed/;
const AUTHORIZATION_MARKERS = /permission|forbidden|not allowed to/;
const PROVIDER_INTERNAL_MARKERS =
  /overloaded|internal server error|server error|service unavailable|bad gateway|gateway timeout|temporarily unavailable/;

const MESSAGE_RULES: Array<[RegExp, ErrorReason]> = [
  [QUOTA_MARKERS, 'QUOTA_EXCEEDED'],
  [RATE_LIMIT_MARKERS, 'RATE_LIMIT'],
  [CONTEXT_MARKERS, 'CONTEXT_LENGTH'],
  [POLICY_MARKERS, 'CONTENT_POLICY'],
  [AUTHENTICATION_MARKERS, 'AUTHENTICATION'],
  [AUTHORIZATION_MARKERS, 'AUTHORIZATION'],
  [PROVIDER_INTERNAL_MARKERS, 'PROVIDER_INTERNAL'],
];

function reasonFromMessage(text: string, only?: ErrorReason[]): ErrorReason | null {
  const lower = text.toLowerCase();
  for (const [pattern, reason] of MESSAGE_RULES) {
    if (only !== undefined && !only.includes(reason)) continue;
    if (pattern.test(lower)) return reason;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Network failures

const NETWORK_ERROR_CODES = new Set([
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

function isNetworkFailure(link: unknown): boolean {
  const record = asRecord(link);
  if (record === null) return false;
  if (typeof record.code === 'string' && NETWORK_ERROR_CODES.has(record.code)) return true;
  if (record.name === 'TimeoutError') return true;
  const message = typeof record.message === 'string' ? record.message : '';
  // undici ends a response body that died mid-way with a bare TypeError('terminated').
  if (link instanceof TypeError && message === 'terminated') return true;
  return NETWORK_MESSAGE_MARKERS.test(message);
}

// ---------------------------------------------------------------------------
// Helpers

function failure(init: {
  reason: ErrorReason;
  provider: string | null;
  detail: string;
  httpStatus?: number | null;
  providerCode?: string | null;
  requestId?: string | null;
  headers?: Record<string, string> | undefined;
}): ClassifiedFailure {
  const retryable = isRetryableByDefault(init.reason);
  return {
    reason: init.reason,
    retryable,
    retryAfterS: retryable ? parseRetryAfterS(init.headers) : null,
    provider: init.provider,
    httpStatus: init.httpStatus ?? null,
    providerCode: init.providerCode ?? null,
    requestId: init.requestId ?? null,
    detail: truncate(init.detail, 4000),
  };
}

/** Accepts any object with a valid `reason`, e.g. a failure that crossed a process boundary as JSON. */
function carriedFailure(value: unknown): ClassifiedFailure | null {
  const record = asRecord(value);
  if (record === null || !isErrorReason(record.reason)) return null;
  const carried: ClassifiedFailure = {
    reason: record.reason,
    retryable: typeof record.retryable === 'boolean' ? record.retryable : isRetryableByDefault(record.reason),
    retryAfterS: typeof record.retryAfterS === 'number' && record.retryAfterS > 0 ? record.retryAfterS : null,
    provider: stringOrNull(record.provider),
    httpStatus: typeof record.httpStatus === 'number' ? record.httpStatus : null,
    providerCode: stringOrNull(record.providerCode),
    requestId: stringOrNull(record.requestId),
    detail: stringOrNull(record.detail) ?? stringOrNull(record.message) ?? record.reason,
  };
  if (isMessageKey(record.messageKey)) carried.messageKey = record.messageKey;
  const params = asRecord(record.messageParams);
  if (params !== null) carried.messageParams = params as ClassifiedFailure['messageParams'];
  return carried;
}

function causeChain(error: unknown): unknown[] {
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

function providerFromUrl(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host.includes('anthropic')) return 'anthropic';
  if (host.includes('openai')) return 'openai';
  return null;
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'anthropic-request-id', 'x-amzn-requestid', 'openai-request-id'];

function requestIdFromHeaders(headers: Record<string, string> | undefined): string | null {
  if (headers === undefined) return null;
  const lowerCased = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const name of REQUEST_ID_HEADERS) {
    const value = lowerCased.get(name);
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

function messageOf(link: unknown): string {
  if (typeof link === 'string') return link;
  const record = asRecord(link);
  return record !== null && typeof record.message === 'string' ? record.message : '';
}

/** "Failed to process successful response" alone hides what happened; the causes say "other side closed". */
function describeWithCauses(error: unknown): string {
  const messages = causeChain(error).map(messageOf).filter((message) => message !== '');
  return [...new Set(messages)].join(': ') || describe(error);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return safeJson(error);
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function stringOrNumber(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return stringOrNull(value);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
