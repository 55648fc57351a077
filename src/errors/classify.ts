import { APICallError } from '@ai-sdk/provider';
import { causeChain, describe, describeWithCauses, isNetworkFailure, messageOf } from './cause-chain.ts';
import { isProviderErrorObject, providerErrorFields, providerFromUrl, requestIdFromHeaders } from './provider-errors.ts';
import { reasonFromCode, reasonFromMessage, reasonFromStatus } from './reason-rules.ts';
import { parseRetryAfterS } from './retry-after.ts';
import {
  isErrorReason,
  isRetryableByDefault,
  ReasonedError,
  type ClassifiedFailure,
  type ErrorReason,
} from './taxonomy.ts';
import { isMessageKey } from '../i18n/catalog.ts';
import { asRecord, parseJson, safeJson, stringOrNull } from './unknown-values.ts';

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

// ---------------------------------------------------------------------------
// Plain provider error objects (mid-stream)

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

// ---------------------------------------------------------------------------
// The failure record

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

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
