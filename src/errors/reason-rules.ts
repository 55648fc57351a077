import type { ErrorReason } from './taxonomy.ts';

// Which reason an HTTP status, a provider's error code or the words of a message stand for.

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
export function reasonFromStatus(status: number, codeReason: ErrorReason | null, markers: string): ErrorReason | null {
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

export function reasonFromCode(code: string | null, type: string | null, markers: string): ErrorReason | null {
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

export function reasonFromMessage(text: string, only?: ErrorReason[]): ErrorReason | null {
  const lower = text.toLowerCase();
  for (const [pattern, reason] of MESSAGE_RULES) {
    if (only !== undefined && !only.includes(reason)) continue;
    if (pattern.test(lower)) return reason;
  }
  return null;
}
