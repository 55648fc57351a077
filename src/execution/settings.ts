import { z } from 'zod';
import { positiveInt, positiveNumber } from '../lifecycle/settings.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';

/** The slice of the settings for running turns: the consumer, its caps, the lease, retries, recording. */
export const executionSettings = z.object({
  PARLEY_INSTANCE_ID: z.string().min(1).optional().describe('this instance’s id (unset: host, pid and a random part)'),
  PARLEY_TEXT_FLUSH_MS: positiveInt.default(1_000).describe('streamed text is recorded at most this late, so a crash or a `conversation` read is at most this far behind'),
  PARLEY_TEXT_FLUSH_CHARS: positiveInt.default(4_000).describe('streamed text is recorded in batches at most this large, or a quarter of the reply so far when that is larger'),
  // Deltas of one reply within this window go out as one: subscribers get at most about 1000/window per second.
  PARLEY_DELTA_WINDOW_MS: z.coerce.number().int().min(0).max(1_000).default(25).describe('live text of one reply is sent in deltas at most this often, so readers’ buffers do not overflow (`0`: every chunk alone)'),
  PARLEY_CONSUMER_SWEEP_MS: positiveInt.default(2_000).describe('how often the queue consumer looks for claimable messages besides being kicked'),
  PARLEY_LEASE_MS: positiveInt.default(15_000).describe('instance lease (heartbeat): a run whose instance stops renewing it is recovered after this'),
  PARLEY_RETRY_MAX_ATTEMPTS: positiveInt.default(4).describe('attempts per model request, the first included'),
  PARLEY_RETRY_BASE_DELAY_S: positiveNumber.default(1).describe('first backoff delay before retrying a model request'),
  PARLEY_RETRY_MAX_DELAY_S: positiveNumber.default(30).describe('longest backoff delay between attempts'),
  PARLEY_RETRY_DEADLINE_S: positiveNumber.default(120).describe('no retry starts after this many seconds from the first attempt'),
  PARLEY_MAX_CONCURRENT_RUNS: positiveInt.default(32).describe('runs one instance executes at once; more wait pending in their queues'),
  PARLEY_MAX_CONCURRENT_RUNS_PER_USER: positiveInt.default(8).describe('runs of one user that one instance executes at once; more wait pending'),
  PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: positiveInt.default(16).describe('runs of one project that one instance executes at once, so one project cannot take a whole instance'),
  /** How long running replies may finish at shutdown before they are aborted (see run-drain.ts). */
  PARLEY_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000).describe('on SIGTERM, how long running replies may finish before they are handed back as `INTERRUPTED`'),
  PARLEY_ROLE: z.enum(['api', 'worker', 'all'], { message: 'must be api, worker or all' }).default('all').describe('`api` serves clients and never runs a model; `worker` runs turns and serves only `/health`, `/ready` and `/metrics`; `all` does both (split roles need `DATABASE_URL` and `REDIS_URL`)'),
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
