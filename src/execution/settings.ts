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
  /** What this instance does: serve clients (`api`), run turns (`worker`), or both (`all`). */
  PARLEY_ROLE: z.enum(['api', 'worker', 'all'], { message: 'must be api, worker or all' }).default('all'),
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

export type InstanceRole = ExecutionSettings['PARLEY_ROLE'];

/** Whether an instance of this role claims and runs turns (the queue consumer, the recovery sweep). */
export function runsTurns(role: InstanceRole): boolean {
  return role !== 'api';
}

/** Whether an instance of this role serves clients (GraphQL, WebSocket, SSE, the web chat). */
export function servesClients(role: InstanceRole): boolean {
  return role !== 'worker';
}

/**
 * A split role needs instances that share the database and the live bus: an api instance's
 * subscribers hear a worker's runs only over Redis, and the embedded database admits one process.
 */
export function roleSettingsProblems(settings: { PARLEY_ROLE: InstanceRole; DATABASE_URL?: string; REDIS_URL?: string; REDIS_CLUSTER_NODES?: string }): string[] {
  const { PARLEY_ROLE: role } = settings;
  if (role === 'all') return [];
  const missing = [!settings.DATABASE_URL && 'DATABASE_URL (PostgreSQL; the embedded database admits one process)', !settings.REDIS_URL && !settings.REDIS_CLUSTER_NODES && 'REDIS_URL (or REDIS_CLUSTER_NODES)'].filter(Boolean);
  if (missing.length === 0) return [];
  return [`PARLEY_ROLE: "${role}" splits turns between instances and needs ${missing.join(' and ')}; use PARLEY_ROLE=all (the default) for one instance.`];
}
