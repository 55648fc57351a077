import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, nextRetryDelayS, sleepCancellable, type RetryPolicy } from '../retry-policy.ts';
import type { ClassifiedFailure, ErrorReason } from '../taxonomy.ts';

function failureOf(reason: ErrorReason, retryable: boolean, retryAfterS: number | null = null): ClassifiedFailure {
  return { reason, retryable, retryAfterS, provider: 'openai', httpStatus: null, providerCode: null, requestId: null, detail: '' };
}

const POLICY: RetryPolicy = { maxAttempts: 5, baseDelayS: 1, maxDelayS: 10, deadlineS: 60 };
const RATE_LIMITED = failureOf('RATE_LIMIT', true);

describe('nextRetryDelayS', () => {
  it('never retries a failure that is not retryable', () => {
    expect(nextRetryDelayS(POLICY, 1, failureOf('AUTHENTICATION', false), 0, () => 0.5)).toBeNull();
    expect(nextRetryDelayS(POLICY, 1, failureOf('CONTEXT_LENGTH', false, 3), 0, () => 0.5)).toBeNull();
  });

  it('stops once the attempt that failed was the last allowed one', () => {
    expect(nextRetryDelayS(POLICY, 4, RATE_LIMITED, 0, () => 0)).not.toBeNull();
    expect(nextRetryDelayS(POLICY, 5, RATE_LIMITED, 0, () => 0)).toBeNull();
    expect(nextRetryDelayS({ ...POLICY, maxAttempts: 1 }, 1, RATE_LIMITED, 0, () => 0)).toBeNull();
  });

  it('grows exponentially with equal jitter: between half and all of base·2^(attempt-1)', () => {
    expect(nextRetryDelayS(POLICY, 1, RATE_LIMITED, 0, () => 0)).toBe(0.5);
    expect(nextRetryDelayS(POLICY, 1, RATE_LIMITED, 0, () => 1)).toBe(1);
    expect(nextRetryDelayS(POLICY, 2, RATE_LIMITED, 0, () => 0)).toBe(1);
    expect(nextRetryDelayS(POLICY, 3, RATE_LIMITED, 0, () => 0.5)).toBe(3);
    expect(nextRetryDelayS(POLICY, 4, RATE_LIMITED, 0, () => 1)).toBe(8);
  });

  it('caps the backoff at maxDelayS', () => {
    const policy = { ...POLICY, maxAttempts: 20, deadlineS: 1000 };
    expect(nextRetryDelayS(policy, 10, RATE_LIMITED, 0, () => 1)).toBe(10);
    expect(nextRetryDelayS(policy, 10, RATE_LIMITED, 0, () => 0)).toBe(5);
  });

  it("waits at least the server's retryAfterS, even above maxDelayS", () => {
    expect(nextRetryDelayS(POLICY, 1, failureOf('RATE_LIMIT', true, 7), 0, () => 0)).toBe(7);
    expect(nextRetryDelayS(POLICY, 1, failureOf('RATE_LIMIT', true, 25), 0, () => 1)).toBe(25);
    expect(nextRetryDelayS(POLICY, 4, failureOf('PROVIDER_INTERNAL', true, 0.2), 0, () => 1)).toBe(8);
  });

  it('gives up when the wait would end past the deadline', () => {
    expect(nextRetryDelayS(POLICY, 1, failureOf('RATE_LIMIT', true, 30), 29, () => 0)).toBe(30);
    expect(nextRetryDelayS(POLICY, 1, failureOf('RATE_LIMIT', true, 30), 31, () => 0)).toBeNull();
    expect(nextRetryDelayS(POLICY, 1, failureOf('RATE_LIMIT', true, 120), 0, () => 0)).toBeNull();
    expect(nextRetryDelayS(POLICY, 2, RATE_LIMITED, 59.5, () => 0)).toBeNull();
  });

  it('clamps a misbehaving random source into the jitter range', () => {
    expect(nextRetryDelayS(POLICY, 3, RATE_LIMITED, 0, () => -4)).toBe(2);
    expect(nextRetryDelayS(POLICY, 3, RATE_LIMITED, 0, () => 9)).toBe(4);
  });

  it('holds its bounds for any input (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.double({ min: 0.001, max: 200, noNaN: true }), { nil: null }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, retryAfterS, elapsedS, randomValue) => {
          const policy = DEFAULT_RETRY_POLICY;
          const delay = nextRetryDelayS(policy, attempt, failureOf('RATE_LIMIT', true, retryAfterS), elapsedS, () => randomValue);
          const backoffCeiling = Math.min(policy.maxDelayS, policy.baseDelayS * 2 ** (attempt - 1));
          const largestPossible = Math.max(backoffCeiling, (retryAfterS ?? 0) + 0.001);
          if (delay === null) {
            return attempt >= policy.maxAttempts || elapsedS + largestPossible > policy.deadlineS;
          }
          return (
            attempt < policy.maxAttempts &&
            elapsedS + delay <= policy.deadlineS &&
            (retryAfterS === null || delay >= retryAfterS) &&
            delay <= largestPossible &&
            delay >= backoffCeiling / 2
          );
        },
      ),
    );
  });

  it('has a default policy that allows a few retries within a couple of minutes', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThan(1);
    expect(DEFAULT_RETRY_POLICY.maxDelayS).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.deadlineS);
    expect(nextRetryDelayS(DEFAULT_RETRY_POLICY, 1, failureOf('RATE_LIMIT', true, 7), 0)).toBe(7);
  });
});

describe('sleepCancellable', () => {
  it('resolves after the given time', async () => {
    const started = performance.now();
    await sleepCancellable(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('rejects at once when the signal aborts during the wait', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const sleeping = sleepCancellable(10_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stopped by user')), 20);

    await expect(sleeping).rejects.toThrow('stopped by user');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('rejects immediately when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleepCancellable(10_000, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('clears its timer on abort, so nothing keeps the process waiting', async () => {
    const controller = new AbortController();
    const sleeping = sleepCancellable(60_000, controller.signal).catch(() => 'aborted');
    const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    controller.abort();
    expect(await sleeping).toBe('aborted');
    const timersAfter = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    expect(timersAfter).toBe(timersBefore - 1);
  });

  it('detaches its abort listener after a normal wake-up', async () => {
    const controller = new AbortController();
    await sleepCancellable(1, controller.signal);
    // An abort after the sleep ended must not throw or reject anything.
    expect(() => controller.abort()).not.toThrow();
  });
});
