export type HeaderSource = Headers | Record<string, string | undefined> | undefined;

const OPENAI_RESET_HEADERS = ['x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens'];
const ANTHROPIC_RESET_HEADERS = [
  'anthropic-ratelimit-requests-reset',
  'anthropic-ratelimit-tokens-reset',
  'anthropic-ratelimit-input-tokens-reset',
  'anthropic-ratelimit-output-tokens-reset',
];

/**
 * How long the server asked us to wait, in seconds, or null when it did not say
 * (or said something unusable: past, zero, negative, junk).
 *
 * Sources, first usable one wins: `retry-after-ms`, `retry-after` (seconds or HTTP
 * date), OpenAI `x-ratelimit-reset-*` durations, Anthropic
 * `anthropic-ratelimit-*-reset` timestamps. Within the provider reset headers the
 * largest value wins: we cannot tell which limit was hit, and waiting for the
 * earliest reset would just earn another 429.
 *
 * Results are rounded UP to whole milliseconds (0.001 s) so that waiting the
 * returned time is never shorter than what the server asked.
 */
export function parseRetryAfterS(headers: HeaderSource, now: Date = new Date()): number | null {
  if (headers === undefined) return null;
  const read = headerReader(headers);

  const fromMs = parseNonNegativeNumber(read('retry-after-ms'));
  if (fromMs !== null && fromMs > 0) return roundUpToMs(fromMs / 1000);

  const fromRetryAfter = parseRetryAfterValue(read('retry-after'), now);
  if (fromRetryAfter !== null) return fromRetryAfter;

  const fromOpenAI = largest(OPENAI_RESET_HEADERS.map((name) => parseDurationS(read(name))));
  if (fromOpenAI !== null) return roundUpToMs(fromOpenAI);

  const fromAnthropic = largest(ANTHROPIC_RESET_HEADERS.map((name) => secondsUntil(read(name), now)));
  if (fromAnthropic !== null) return roundUpToMs(fromAnthropic);

  return null;
}

/**
 * Parses a Go-style duration as OpenAI sends it in `x-ratelimit-reset-*`:
 * `6m0s`, `1s`, `20ms`, `1h2m3.5s`. A bare number counts as seconds, which some
 * OpenAI-compatible servers send. Returns seconds, or null for zero/junk.
 */
export function parseDurationS(value: string | null): number | null {
  if (value === null) return null;
  const text = value.trim().toLowerCase();
  if (text === '') return null;
  const bare = parseNonNegativeNumber(text);
  if (bare !== null) return bare > 0 ? bare : null;

  const unitSeconds: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001, µs: 0.000001, ns: 1e-9 };
  const token = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/y;
  let total = 0;
  let position = 0;
  while (position < text.length) {
    token.lastIndex = position;
    const match = token.exec(text);
    if (match === null) return null;
    total += Number(match[1]) * unitSeconds[match[2]];
    position = token.lastIndex;
  }
  return Number.isFinite(total) && total > 0 ? total : null;
}

function parseRetryAfterValue(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const seconds = parseNonNegativeNumber(value);
  if (seconds !== null) return seconds > 0 ? roundUpToMs(seconds) : null;
  const untilDate = secondsUntil(value, now);
  return untilDate === null ? null : roundUpToMs(untilDate);
}

function secondsUntil(value: string | null, now: Date): number | null {
  if (value === null || value.trim() === '') return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  const seconds = (at - now.getTime()) / 1000;
  return seconds > 0 ? seconds : null;
}

function parseNonNegativeNumber(value: string | null): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (!/^\d+(?:\.\d+)?$/.test(text)) return null;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

function largest(values: Array<number | null>): number | null {
  let result: number | null = null;
  for (const value of values) {
    if (value !== null && (result === null || value > result)) result = value;
  }
  return result;
}

function roundUpToMs(seconds: number): number {
  // Round to micro-precision first so float noise (7.000000000001) does not add a whole ms.
  return Math.ceil(Math.round(seconds * 1_000_000) / 1000) / 1000;
}

function headerReader(headers: Headers | Record<string, string | undefined>): (name: string) => string | null {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    return (name) => headers.get(name);
  }
  const lowerCased = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') lowerCased.set(name.toLowerCase(), value);
  }
  return (name) => lowerCased.get(name) ?? null;
}
