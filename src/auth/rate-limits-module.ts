import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DatabaseSettings } from '../db/settings.ts';
import type { Module } from '../lifecycle/module.ts';
import { RateLimits } from './rate-limits.ts';
import type { RateLimitSettings } from './settings.ts';

/** Instances on one database are one deployment: they share their rate-limit counts in Redis. */
export function rateLimitScope(settings: DatabaseSettings): string {
  if (!settings.DATABASE_URL) return `embedded:${settings.PARLEY_DATA_DIR}`;
  const url = new URL(settings.DATABASE_URL);
  return `${url.host}${url.pathname}:${url.searchParams.get('schema') ?? 'public'}`;
}

/**
 * What the budgets need of the live bus: its Redis command connection, null in memory. Declared
 * here so that auth knows nothing of the bus: events reach auth (through conversation), never
 * the reverse.
 */
export interface RedisCommandSource {
  readonly commandClient: Redis | Cluster | null;
}

/** The per-minute request budgets, counted in Redis when the bus has it (shared by all instances). */
export class RateLimitsModule implements Module {
  readonly name = 'rate limits';
  private counting: { limits: RateLimits; redis: Redis | Cluster | null } | null = null;

  constructor(
    private readonly settings: RateLimitSettings & DatabaseSettings,
    private readonly bus: RedisCommandSource,
    private readonly logger: Logger,
  ) {}

  get rateLimits(): RateLimits {
    if (!this.counting) throw new Error('the rate limits are not started');
    return this.counting.limits;
  }

  async start(): Promise<void> {
    // Its own connection: a count must not wait behind the thousands of PUBLISHes a fast run queues
    // on the bus's connection.
    const redis = this.bus.commandClient?.duplicate() ?? null;
    // While Redis is away the counts fall back to this process (rate-limits.ts); its reconnects are not news.
    redis?.on('error', (error) => this.logger.debug({ err: error }, 'the rate-limit connection to Redis failed'));
    const limits = new RateLimits({
      mutationsPerMinute: this.settings.PARLEY_MUTATIONS_PER_MINUTE,
      queriesPerMinute: this.settings.PARLEY_QUERIES_PER_MINUTE,
      scope: rateLimitScope(this.settings),
      redis,
    });
    this.counting = { limits, redis };
  }

  async stop(): Promise<void> {
    this.counting?.redis?.disconnect();
  }
}
