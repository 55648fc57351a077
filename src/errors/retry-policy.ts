import type { ClassifiedFailure } from './taxonomy.ts';

export interface RetryPolicy {
  /** Total attempts including the first one; 1 means never retry. */
  maxAttempts: number;
  baseDelayS: number;
  maxDelayS: number;
  /** No retry is scheduled that would start later than this many seconds after the first attempt began. */
  deadlineS: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  baseDelayS: 1,
  maxDelayS: 30,
  deadlineS: 120,
});

/**
 * Seconds to wait before the next attempt, or null when the run should fail now.
 *
 * `attempt` is the 1-based number of the attempt that just failed; `elapsedS` is the
 * time since the first attempt started. The backoff is exponential with "equal
 * jitter" (half fixed, half random): full jitter can pick ~0 s, which against a rate
 * limit just burns an attempt. The result is never below the server's
 * `retryAfterS`, even above `maxDelayS` — retrying sooner than asked only earns
 * another 429 — but a wait that would end past the deadline means no retry.
 */
export function nextRetryDelayS(
  policy: RetryPolicy,
  attempt: number,
  failure: ClassifiedFailure,
  elapsedS: number,
  random: () => number = Math.random,
): number | null {
  if (!failure.retryable) return null;
  if (attempt >= policy.maxAttempts) return null;

  const exponentialS = Math.min(policy.maxDelayS, policy.baseDelayS * 2 ** Math.max(0, attempt - 1));
  const unit = Math.min(Math.max(random(), 0), 1);
  const jitteredS = exponentialS / 2 + (exponentialS / 2) * unit;
  const delayS = roundToMs(Math.max(jitteredS, failure.retryAfterS ?? 0));

  if (elapsedS + delayS > policy.deadlineS) return null;
  return delayS;
}

/** Resolves after `ms`, or rejects with the signal's reason the moment it aborts (a Stop during backoff). */
export function sleepCancellable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function roundToMs(seconds: number): number {
  return Math.ceil(Math.round(seconds * 1_000_000) / 1000) / 1000;
}
