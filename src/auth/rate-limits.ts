import type { Cluster, Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Mutations, and queries plus subscription starts, are limited separately. */
export type RateLimitedKind = 'mutation' | 'query';

/** Who is counted: a signed-in user, or an anonymous client by its address. */
export type RateLimitSubject = { userId: string } | { address: string };

export interface RateLimitsOptions {
  mutationsPerMinute: number;
  queriesPerMinute: number;
  /**
   * Shared by every instance of one deployment (the limits hold across them when they share the
   * store); distinct deployments on one Redis keep distinct counts.
   */
  scope: string;
  /** Redis makes the counts shared by every instance; without it each instance counts alone. */
  redis?: Redis | Cluster | null;
}

const WINDOW_S = 60;

// A Redis that keeps its connections open but does not answer (a stalled server or network) must
// not stall every request: past this, the instance counts on its own, as while Redis is down.
const SHARED_COUNT_WAIT_MS = 250;

/**
 * Per-minute request budgets per user and per anonymous address (rate-limiter-flexible: Redis
 * when configured, memory otherwise). While Redis does not answer, each instance limits on its
 * own in memory rather than letting everything through or refusing everything.
 */
export class RateLimits {
  private readonly limiters: Record<RateLimitedKind, { shared: RateLimiterAbstract | null; local: RateLimiterMemory }>;

  constructor(options: RateLimitsOptions) {
    const limiter = (kind: RateLimitedKind, points: number) => {
      const shape = { points, duration: WINDOW_S, keyPrefix: `parley:rate:${options.scope}:${kind}` };
      const local = new RateLimiterMemory(shape);
      if (!options.redis) return { shared: null, local };
      const shared = new RateLimiterRedis({ ...shape, storeClient: options.redis, rejectIfRedisNotReady: true, insuranceLimiter: local });
      return { shared, local };
    };
    this.limiters = {
      mutation: limiter('mutation', options.mutationsPerMinute),
      query: limiter('query', options.queriesPerMinute),
    };
  }

  /**
   * Counts `points` requests of `kind` for `subject`: null when they are within the budget, else
   * the whole seconds to wait before the next one is.
   */
  async consume(kind: RateLimitedKind, subject: RateLimitSubject, points = 1): Promise<{ retryAfterS: number } | null> {
    const key = 'userId' in subject ? `user:${subject.userId}` : `address:${subject.address}`;
    const { shared, local } = this.limiters[kind];
    try {
      await (shared ? withinWait(shared.consume(key, points), () => local.consume(key, points)) : local.consume(key, points));
      return null;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return { retryAfterS: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)) };
      throw outcome;
    }
  }
}

/** The shared count's answer, or the local one when the shared count takes longer than it should. */
function withinWait<T>(shared: Promise<T>, local: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      local().then(resolve, reject);
    }, SHARED_COUNT_WAIT_MS);
    shared.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
