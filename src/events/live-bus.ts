import type { Logger } from 'pino';
import type { LiveBus } from './live-bus-contract.ts';
import { MemoryLiveBus } from './memory-bus.ts';
import { createRedisLiveBus } from './redis-bus.ts';
import { createRedisClusterLiveBus } from './redis-cluster-bus.ts';
import { clusterAuthOf, parseClusterNodes, type RedisTarget } from './settings.ts';

export type { InstanceMessage, LiveBus, ThreadListener } from './live-bus-contract.ts';

/**
 * The bus of one instance: over one Redis (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`),
 * which instances share, in memory otherwise. A string is a REDIS_URL.
 */
export function createLiveBus(given: RedisTarget | string | undefined, logger: Logger): LiveBus {
  const target: RedisTarget = typeof given === 'object' ? given : { REDIS_URL: given };
  if (target.REDIS_CLUSTER_NODES) return createRedisClusterLiveBus(parseClusterNodes(target.REDIS_CLUSTER_NODES), logger, clusterAuthOf(target));
  return target.REDIS_URL ? createRedisLiveBus(target.REDIS_URL, logger) : new MemoryLiveBus();
}
