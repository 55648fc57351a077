import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { RunEventRecord } from './run-event.ts';

export type LiveTopics = {
  /** Per-thread channel: every subscriber of a thread listens to exactly its thread's topic. */
  thread: [threadId: string, event: RunEventRecord];
  /** A thread may have a claimable queue head: consumers on every instance try it. */
  'queue-kick': [payload: { threadId: string }];
  /** Control messages addressed to one instance (e.g. a relayed Stop). */
  instance: [instanceId: string, message: { kind: 'cancel'; executionId: string }];
};

export interface LiveBus {
  pubsub: PubSub<LiveTopics>;
  publishThreadEvents(events: RunEventRecord[]): void;
  ping(): Promise<void>;
  close(): Promise<void>;
  kind: 'memory' | 'redis';
}

export function createLiveBus(redisUrl?: string): LiveBus {
  if (!redisUrl) {
    const pubsub = createPubSub<LiveTopics>();
    return {
      kind: 'memory',
      pubsub,
      publishThreadEvents: (events) => events.forEach((event) => pubsub.publish('thread', event.threadId, event)),
      ping: async () => {},
      close: async () => {},
    };
  }
  // Subscribing puts an ioredis connection in subscriber mode, so publishing needs a connection of its own.
  const redisOptions = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false };
  const publishClient = new Redis(redisUrl, redisOptions);
  const subscribeClient = new Redis(redisUrl, redisOptions);
  const pubsub = createPubSub<LiveTopics>({
    eventTarget: createRedisEventTarget({ publishClient, subscribeClient }),
  });
  return {
    kind: 'redis',
    pubsub,
    publishThreadEvents: (events) => events.forEach((event) => pubsub.publish('thread', event.threadId, event)),
    ping: async () => {
      await publishClient.ping();
    },
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
