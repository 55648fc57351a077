import { asRecord, stringOrNull, stringOrNumber } from './unknown-values.ts';

// The error shapes providers send: in a response's body, mid-stream as a plain object, and in the
// response's headers (its request id); and which provider a URL belongs to.

export interface ProviderErrorFields {
  code: string | null;
  type: string | null;
  message: string | null;
  requestId: string | null;
  statusCode: number | null;
}

export function isProviderErrorObject(value: unknown): value is Record<string, unknown> {
  if (value instanceof Error) return false;
  const record = asRecord(value);
  if (record === null) return false;
  if (asRecord(record.error) !== null) return true;
  if (record.type === 'error' || record.type === 'response.failed') return true;
  return typeof record.message === 'string' && (typeof record.type === 'string' || 'code' in record);
}

/**
 * Reads code/type/message from the error shapes providers use: OpenAI
 * `{error:{message,type,code}}`, OpenAI responses `{type:'error',code,message}` and
 * `{type:'response.failed',response:{error}}`, Anthropic
 * `{type:'error',error:{type,message},request_id}` or its inner `{type,message}`,
 * and the AI SDK's own `{message,type,code,statusCode}` stream error.
 */
export function providerErrorFields(value: unknown): ProviderErrorFields | null {
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

export function providerFromUrl(url: string): string | null {
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

export function requestIdFromHeaders(headers: Record<string, string> | undefined): string | null {
  if (headers === undefined) return null;
  const lowerCased = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const name of REQUEST_ID_HEADERS) {
    const value = lowerCased.get(name);
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}
