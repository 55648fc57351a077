import type { Logger } from 'pino';
import type { LiveBus } from './live-bus-contract.ts';
import { MemoryLiveBus } from './memory-bus.ts';
import { createRedisLiveBus } from './redis-bus.ts';

export type { InstanceMessage, LiveBus, ThreadListener } from './live-bus-contract.ts';

/** The bus of one instance: over Redis when `redisUrl` is set (instances share it), in memory otherwise. */
export function createLiveBus(redisUrl: string | undefined, logger: Logger): LiveBus {
  return redisUrl ? createRedisLiveBus(redisUrl, logger) : new MemoryLiveBus();
}
