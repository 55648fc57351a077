import { z } from 'zod';
import { positiveInt, positiveNumber } from '../lifecycle/settings.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';

/** The slice of the settings for running turns: the consumer, its caps, the lease, retries, recording. */
export const executionSettings = z.object({
  PARLEY_INSTANCE_ID: z.string().min(1).optional(),
  PARLEY_TEXT_FLUSH_MS: positiveInt.default(1_000),
  PARLEY_TEXT_FLUSH_CHARS: positiveInt.default(4_000),
  // Deltas of one reply within this window go out as one: subscribers get at most about 1000/window per second.
  PARLEY_DELTA_WINDOW_MS: z.coerce.number().int().min(0).max(1_000).default(25),
  PARLEY_CONSUMER_SWEEP_MS: positiveInt.default(2_000),
  PARLEY_LEASE_MS: positiveInt.default(15_000),
  PARLEY_RETRY_MAX_ATTEMPTS: positiveInt.default(4),
  PARLEY_RETRY_BASE_DELAY_S: positiveNumber.default(1),
  PARLEY_RETRY_MAX_DELAY_S: positiveNumber.default(30),
  PARLEY_RETRY_DEADLINE_S: positiveNumber.default(120),
  PARLEY_MAX_CONCURRENT_RUNS: positiveInt.default(32),
  PARLEY_MAX_CONCURRENT_RUNS_PER_USER: positiveInt.default(8),
  PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: positiveInt.default(16),
  /** How long running replies may finish at shutdown before they are aborted (see run-drain.ts). */
  PARLEY_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type ExecutionSettings = z.infer<typeof executionSettings>;

export function retryPolicyFrom(settings: ExecutionSettings): RetryPolicy {
  return {
    maxAttempts: settings.PARLEY_RETRY_MAX_ATTEMPTS,
    baseDelayS: settings.PARLEY_RETRY_BASE_DELAY_S,
    maxDelayS: settings.PARLEY_RETRY_MAX_DELAY_S,
    deadlineS: settings.PARLEY_RETRY_DEADLINE_S,
  };
}
