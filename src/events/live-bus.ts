import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RunEventRecord } from './run-event.ts';

export type LiveTopics = {
  /** Per-thread channel: every subscriber of a thread listens to exactly its thread's topic. */
  thread: [threadId: string, event: RunEventRecord];
  /** A thread may have a claimable queue head: consumers on every instance try it. */
  'queue-kick': [payload: { threadId: string }];
  /**
   * Control messages for instances; every instance checks its own runs: a relayed Stop, or a
   * subscriber asking the running instance for a fresh snapshot of the reply.
   */
  instance: [audience: 'all', message: { kind: 'cancel' | 'snapshot'; executionId: string }];
};

export interface LiveBus {
  pubsub: PubSub<LiveTopics>;
  publishThreadEvents(events: RunEventRecord[]): void;
  /**
   * Called when delivery may have had a gap (Redis reconnected): subscribers catch up from the
   * durable log. Returns an unsubscribe function.
   */
  onResync(listener: () => void): () => void;
  /**
   * Resolves once a thread's channel really receives (Redis confirms SUBSCRIBE asynchronously):
   * a subscriber reads the log only after this, so nothing falls between log and channel.
   */
  threadChannelReady(threadId: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  kind: 'memory' | 'redis';
}

export function createLiveBus(redisUrl: string | undefined, logger: Logger): LiveBus {
  const resyncListeners = new Set<() => void>();
  const onResync = (listener: () => void) => {
    resyncListeners.add(listener);
    return () => resyncListeners.delete(listener);
  };
  if (!redisUrl) {
    const pubsub = createPubSub<LiveTopics>();
    return {
      kind: 'memory',
      pubsub,
      publishThreadEvents: (events) => events.forEach((event) => pubsub.publish('thread', event.threadId, event)),
      onResync,
      threadChannelReady: async () => {},
      ping: async () => {},
      close: async () => {},
    };
  }
  // Subscribing puts an ioredis connection in subscriber mode, so publishing needs its own.
  // Commands fail fast while Redis is away: every durable event is in the database, and a
  // subscriber catches up from there when Redis is back, so nothing may wait on Redis.
  const options = { maxRetriesPerRequest: 1, retryStrategy: (times: number) => Math.min(50 * 2 ** times, 2_000) };
  const publisher = new Redis(redisUrl, options);
  const subscriber = new Redis(redisUrl, options);
  const reportErrors = (role: string) => {
    let lastReport = 0;
    return (error: Error) => {
      if (Date.now() - lastReport < 5_000) return;
      lastReport = Date.now();
      logger.warn({ err: error, role }, 'Redis is unreachable; events are recorded and delivered once it is back');
    };
  };
  publisher.on('error', reportErrors('publish'));
  subscriber.on('error', reportErrors('subscribe'));
  let everReady = false;
  subscriber.on('ready', () => {
    if (everReady) {
      logger.info('Redis is back; subscribers catch up from the event log');
      for (const listener of resyncListeners) listener();
    }
    everReady = true;
  });
  const swallow = (what: string) => (error: unknown) => logger.debug({ err: error }, `Redis ${what} failed`);
  // The event target fires and forgets these calls; their failures must not become unhandled rejections.
  const publishClient = {
    publish: (channel: string, message: string) => publisher.publish(channel, message).catch(swallow('publish')),
  } as unknown as Redis;
  const subscriptions = new Map<string, Promise<unknown>>();
  const subscribeClient = {
    on: (event: 'message', listener: (channel: string, message: string) => void) => subscriber.on(event, listener),
    subscribe: (channel: string) => {
      const subscribed = subscriber.subscribe(channel).catch(swallow('subscribe'));
      subscriptions.set(channel, subscribed);
      return subscribed;
    },
    unsubscribe: (channel: string) => subscriber.unsubscribe(channel).catch(swallow('unsubscribe')),
  } as unknown as Redis;
  const pubsub = createPubSub<LiveTopics>({
    eventTarget: createRedisEventTarget({ publishClient, subscribeClient }),
  });
  return {
    kind: 'redis',
    pubsub,
    publishThreadEvents: (events) => events.forEach((event) => pubsub.publish('thread', event.threadId, event)),
    onResync,
    threadChannelReady: async (threadId) => {
      const channel = `thread:${threadId}`;
      if (!subscriptions.has(channel)) await new Promise((resolve) => setImmediate(resolve));
      await subscriptions.get(channel);
    },
    ping: async () => {
      await publisher.ping();
    },
    close: async () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
