import { describe, expect, it } from 'vitest';
import { parseDurationS, parseRetryAfterS } from '../retry-after.ts';

const NOW = new Date('2025-06-01T12:00:00.000Z');

describe('parseRetryAfterS', () => {
  it('returns null without headers or without any rate-limit header', () => {
    expect(parseRetryAfterS(undefined, NOW)).toBeNull();
    expect(parseRetryAfterS({}, NOW)).toBeNull();
    expect(parseRetryAfterS({ 'content-type': 'application/json' }, NOW)).toBeNull();
  });

  it('reads retry-after-ms first, in milliseconds', () => {
    expect(parseRetryAfterS({ 'retry-after-ms': '1500', 'retry-after': '9' }, NOW)).toBe(1.5);
    expect(parseRetryAfterS({ 'retry-after-ms': '20' }, NOW)).toBe(0.02);
  });

  it('reads retry-after seconds, including fractions', () => {
    expect(parseRetryAfterS({ 'retry-after': '7' }, NOW)).toBe(7);
    expect(parseRetryAfterS({ 'retry-after': ' 2.5 ' }, NOW)).toBe(2.5);
  });

  it('reads retry-after as an HTTP date relative to now', () => {
    expect(parseRetryAfterS({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' }, NOW)).toBe(30);
  });

  it('falls through from an unusable retry-after-ms to retry-after', () => {
    expect(parseRetryAfterS({ 'retry-after-ms': '0', 'retry-after': '4' }, NOW)).toBe(4);
    expect(parseRetryAfterS({ 'retry-after-ms': 'soon', 'retry-after': '4' }, NOW)).toBe(4);
    expect(parseRetryAfterS({ 'retry-after-ms': '-5', 'retry-after': '4' }, NOW)).toBe(4);
  });

  it.each([
    ['zero', '0'],
    ['negative', '-3'],
    ['junk', 'later'],
    ['NaN', 'NaN'],
    ['empty', ''],
    ['past date', 'Sun, 01 Jun 2025 11:59:00 GMT'],
    ['exact now', 'Sun, 01 Jun 2025 12:00:00 GMT'],
  ])('treats a %s retry-after as absent', (_name, value) => {
    expect(parseRetryAfterS({ 'retry-after': value }, NOW)).toBeNull();
  });

  it('uses the larger of the OpenAI reset durations when retry-after is missing or unusable', () => {
    expect(parseRetryAfterS({ 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '1s' }, NOW)).toBe(360);
    expect(parseRetryAfterS({ 'x-ratelimit-reset-tokens': '20ms' }, NOW)).toBe(0.02);
    expect(parseRetryAfterS({ 'retry-after': 'junk', 'x-ratelimit-reset-requests': '1h2m3.5s' }, NOW)).toBe(3723.5);
    expect(parseRetryAfterS({ 'x-ratelimit-reset-requests': 'junk', 'x-ratelimit-reset-tokens': '2s' }, NOW)).toBe(2);
  });

  it('uses the latest Anthropic reset timestamp', () => {
    expect(
      parseRetryAfterS(
        {
          'anthropic-ratelimit-requests-reset': '2025-06-01T12:00:10Z',
          'anthropic-ratelimit-tokens-reset': '2025-06-01T12:00:42.5Z',
          'anthropic-ratelimit-input-tokens-reset': '2025-06-01T12:00:05Z',
        },
        NOW,
      ),
    ).toBe(42.5);
    expect(parseRetryAfterS({ 'anthropic-ratelimit-output-tokens-reset': '2025-06-01T14:00:03+02:00' }, NOW)).toBe(3);
  });

  it('ignores past Anthropic resets and junk timestamps', () => {
    expect(parseRetryAfterS({ 'anthropic-ratelimit-requests-reset': '2025-06-01T11:00:00Z' }, NOW)).toBeNull();
    expect(parseRetryAfterS({ 'anthropic-ratelimit-requests-reset': 'tomorrow-ish' }, NOW)).toBeNull();
    expect(
      parseRetryAfterS(
        { 'anthropic-ratelimit-requests-reset': '2025-06-01T11:00:00Z', 'anthropic-ratelimit-tokens-reset': '2025-06-01T12:00:08Z' },
        NOW,
      ),
    ).toBe(8);
  });

  it('prefers OpenAI reset durations over Anthropic timestamps', () => {
    expect(
      parseRetryAfterS({ 'x-ratelimit-reset-requests': '3s', 'anthropic-ratelimit-requests-reset': '2025-06-01T12:01:00Z' }, NOW),
    ).toBe(3);
  });

  it('matches header names case-insensitively, for records and Headers', () => {
    expect(parseRetryAfterS({ 'Retry-After': '7' }, NOW)).toBe(7);
    expect(parseRetryAfterS({ 'X-RateLimit-Reset-Requests': '2s' }, NOW)).toBe(2);
    expect(parseRetryAfterS(new Headers({ 'Retry-After-Ms': '250' }), NOW)).toBe(0.25);
    expect(parseRetryAfterS(new Headers({ 'Anthropic-Ratelimit-Requests-Reset': '2025-06-01T12:00:09Z' }), NOW)).toBe(9);
  });

  it('skips undefined values in a record', () => {
    expect(parseRetryAfterS({ 'retry-after-ms': undefined, 'retry-after': '3' }, NOW)).toBe(3);
  });

  it('rounds up to whole milliseconds, never down', () => {
    expect(parseRetryAfterS({ 'retry-after-ms': '0.2' }, NOW)).toBe(0.001);
    expect(parseRetryAfterS({ 'retry-after': '1.0001' }, NOW)).toBe(1.001);
    expect(parseRetryAfterS({ 'anthropic-ratelimit-requests-reset': '2025-06-01T12:00:01.0004Z' }, NOW)).toBe(1);
  });
});

describe('parseDurationS', () => {
  it.each([
    ['6m0s', 360],
    ['1s', 1],
    ['20ms', 0.02],
    ['1h2m3.5s', 3723.5],
    ['2m', 120],
    ['1.5s', 1.5],
    ['3', 3],
  ])('%s → %s s', (text, seconds) => {
    expect(parseDurationS(text)).toBeCloseTo(seconds, 9);
  });

  it.each(['', '0s', '0ms', 'soon', '5x', 's', '-1s', '1s junk', '1 s'])('rejects %j', (text) => {
    expect(parseDurationS(text)).toBeNull();
  });
});
