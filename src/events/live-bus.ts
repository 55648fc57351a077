import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../domain/errors.ts';
import type { ThreadEvent } from './thread-event.ts';

export type LiveTopics = {
  /** A thread may have a claimable queue head: consumers on every instance try it. */
  'queue-kick': [payload: { threadId: string }];
  /**
   * Control messages for instances; every instance checks its own runs: a relayed Stop, or a
   * subscriber asking the running instance for a fresh snapshot of the reply; and a revoked API
   * token, which every instance forgets at once.
   */
  instance: [audience: 'all', message: InstanceMessage];
};

export type InstanceMessage =
  | { kind: 'cancel' | 'snapshot'; executionId: string }
  | { kind: 'token-revoked'; tokenId: string };

/** Called synchronously with each event of a thread, in order; it must not throw or block. */
export type ThreadListener = (event: ThreadEvent) => void;

export interface LiveBus {
  pubsub: PubSub<LiveTopics>;
  publishThreadEvents(events: ThreadEvent[]): void;
  /**
   * Listens to a thread's events. An instance holds one channel per thread however many listen
   * (with Redis, one SUBSCRIBE), opened for the first listener and released with the last; each
   * event is decoded once and handed to every listener. Returns the function that stops listening.
   * Each call passes a function of its own (one passed twice is one listener).
   */
  subscribeThread(threadId: string, listener: ThreadListener): () => void;
  /**
   * Publishes to every instance (this one included) and resolves once the message is sent: with
   * Redis, once Redis has handed it to every subscribed instance's connection.
   */
  announceToInstances(message: InstanceMessage): Promise<void>;
  /**
   * Resolves once a thread's channel really receives (Redis confirms SUBSCRIBE asynchronously): a
   * subscriber reads the log only after this, so nothing falls between log and channel. Rejects
   * with a ServiceUnavailableError when the confirmation does not come within `timeoutMs`.
   * Call it after `subscribeThread`.
   */
  threadChannelReady(threadId: string, timeoutMs: number): Promise<void>;
  /**
   * Called when live delivery stopped (the Redis connection was lost): from then on a subscriber
   * has neither its channel nor anything else telling it about new events, so it must either get
   * them back (`onResync`) or end within its bound. Returns an unsubscribe function.
   */
  onOutage(listener: () => void): () => void;
  /**
   * Called when live delivery works again after an outage, once every channel is confirmed again:
   * subscribers catch up from the durable log (they may have missed events meanwhile).
   */
  onResync(listener: () => void): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
  kind: 'memory' | 'redis';
  /** The connection for ordinary commands (the publisher), for other shared state; null in memory. */
  commandClient: Redis | null;
}

function listenerSet() {
  const listeners = new Set<() => void>();
  return {
    add(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    fire() {
      for (const listener of [...listeners]) listener();
    },
  };
}

/**
 * The listeners of each thread on this instance. `opened` and `released` are told when a thread
 * gets its first listener and loses its last, to hold its channel exactly that long.
 */
class ThreadListeners {
  // Most threads have one listener on an instance: it is kept as is, a Set only from the second.
  private readonly byThread = new Map<string, ThreadListener | Set<ThreadListener>>();

  constructor(
    private readonly opened: (threadId: string) => void = () => {},
    private readonly released: (threadId: string) => void = () => {},
  ) {}

  add(threadId: string, listener: ThreadListener): () => void {
    const entry = listener;
    const current = this.byThread.get(threadId);
    if (current === undefined) {
      this.byThread.set(threadId, entry);
      this.opened(threadId);
    } else if (typeof current === 'function') {
      this.byThread.set(threadId, new Set([current, entry]));
    } else {
      current.add(entry);
    }
    let added = true;
    return () => {
      if (!added) return;
      added = false;
      this.remove(threadId, entry);
    };
  }

  has(threadId: string): boolean {
    return this.byThread.has(threadId);
  }

  deliver(threadId: string, event: ThreadEvent): void {
    const listeners = this.byThread.get(threadId);
    if (listeners === undefined) return;
    if (typeof listeners === 'function') listeners(event);
    else for (const listener of listeners) listener(event);
  }

  private remove(threadId: string, entry: ThreadListener): void {
    const current = this.byThread.get(threadId);
    if (current === entry) {
      this.byThread.delete(threadId);
      this.released(threadId);
    } else if (current instanceof Set) {
      current.delete(entry);
      if (current.size === 1) this.byThread.set(threadId, current.values().next().value!);
    }
  }
}

export function createLiveBus(redisUrl: string | undefined, logger: Logger): LiveBus {
  if (!redisUrl) {
    const pubsub = createPubSub<LiveTopics>();
    const threads = new ThreadListeners();
    return {
      kind: 'memory',
      pubsub,
      publishThreadEvents: (events) => events.forEach((event) => threads.deliver(event.threadId, event)),
      subscribeThread: (threadId, listener) => threads.add(threadId, listener),
      announceToInstances: async (message) => pubsub.publish('instance', 'all', message),
      threadChannelReady: async () => {},
      onOutage: () => () => {},
      onResync: () => () => {},
      ping: async () => {},
      close: async () => {},
      commandClient: null,
    };
  }
  return createRedisLiveBus(redisUrl, logger);
}

/** A promise with its resolver, for a channel that waits for its SUBSCRIBE to be confirmed. */
function confirmation() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve, confirmed: false };
}

// Durable events whose PUBLISH failed, kept to publish again once Redis is back (subscribers drop
// what they already have by its seq). Bounded: past it, subscribers still catch up from the log.
const MAX_REPUBLISH = 10_000;

const THREAD_CHANNEL = 'thread:';

function isDurable(message: string): boolean {
  try {
    return typeof (JSON.parse(message) as ThreadEvent).seq === 'number';
  } catch {
    return false;
  }
}

function createRedisLiveBus(redisUrl: string, logger: Logger): LiveBus {
  const outages = listenerSet();
  const resyncs = listenerSet();
  // Subscribing puts an ioredis connection in subscriber mode, so publishing needs its own.
  // Commands fail fast while Redis is away: every durable event is in the database, and a
  // subscriber catches up from there when Redis is back, so nothing may wait on Redis.
  const options = { maxRetriesPerRequest: 1, retryStrategy: (times: number) => Math.min(50 * 2 ** times, 2_000) };
  const publisher = new Redis(redisUrl, options);
  // Channels are subscribed again by `subscribeAll` below, which knows when that is confirmed;
  // ioredis' own re-subscription would not tell.
  const subscriber = new Redis(redisUrl, { ...options, autoResubscribe: false });
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

  /** Every channel some subscriber of this instance listens to, with the state of its SUBSCRIBE. */
  const channels = new Map<string, ReturnType<typeof confirmation>>();

  // SUBSCRIBE goes out only on a ready connection. ioredis writes it at once while its handshake is
  // still under way (the command is allowed while Redis loads); the handshake's ready check (INFO)
  // then fails on a connection in subscriber mode, ioredis reconnects and drops the subscription
  // without re-sending it: the channel would stay silent for good.
  const subscribeWhenReady = (channel: string, entry: ReturnType<typeof confirmation>) => {
    if (subscriber.status !== 'ready') return;
    subscriber.subscribe(channel).then(
      () => {
        if (channels.get(channel) !== entry) return;
        entry.confirmed = true;
        entry.resolve();
      },
      // The connection went away after it was sent: the next 'ready' subscribes it again.
      (error: unknown) => logger.debug({ err: error, channel }, 'Redis SUBSCRIBE failed; sent again on reconnect'),
    );
  };

  /** Subscribes every wanted channel on a (re)connected subscriber; resolves once all are confirmed. */
  const subscribeAll = async () => {
    const wanted = [...channels.entries()];
    if (wanted.length === 0) return;
    await subscriber.subscribe(...wanted.map(([channel]) => channel));
    for (const [channel, entry] of wanted) {
      if (channels.get(channel) !== entry || entry.confirmed) continue;
      entry.confirmed = true;
      entry.resolve();
    }
  };

  let connected = false;
  let everReady = false;
  subscriber.on('ready', () => {
    connected = true;
    const reconnected = everReady;
    everReady = true;
    if (reconnected) logger.info('Redis is back; subscribers catch up from the event log');
    subscribeAll().then(
      () => {
        if (reconnected) resyncs.fire();
      },
      (error: unknown) => logger.warn({ err: error }, 'Redis SUBSCRIBE failed; sent again on the next reconnect'),
    );
  });
  subscriber.on('close', () => {
    if (!connected) return;
    connected = false;
    for (const [channel, entry] of channels) if (entry.confirmed) channels.set(channel, confirmation());
    outages.fire();
  });

  const republish: { channel: string; message: string }[] = [];
  publisher.on('ready', () => {
    for (const { channel, message } of republish.splice(0)) publish(channel, message);
  });
  const publish = (channel: string, message: string) =>
    publisher.publish(channel, message).catch((error: unknown) => {
      logger.debug({ err: error, channel }, 'Redis PUBLISH failed');
      // Only durable thread events (with a seq) can be deduplicated by subscribers; the rest is
      // live-only, and an old snapshot sent late would take text away from the client.
      if (channel.startsWith(THREAD_CHANNEL) && republish.length < MAX_REPUBLISH && isDurable(message)) {
        republish.push({ channel, message });
      }
    });

  const openChannel = (channel: string) => {
    const entry = confirmation();
    channels.set(channel, entry);
    subscribeWhenReady(channel, entry);
  };
  const releaseChannel = (channel: string) => {
    channels.delete(channel);
    subscriber.unsubscribe(channel).catch((error: unknown) => logger.debug({ err: error, channel }, 'Redis UNSUBSCRIBE failed'));
  };

  const threads = new ThreadListeners(
    (threadId) => openChannel(THREAD_CHANNEL + threadId),
    (threadId) => releaseChannel(THREAD_CHANNEL + threadId),
  );
  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(THREAD_CHANNEL)) return;
    const threadId = channel.slice(THREAD_CHANNEL.length);
    if (!threads.has(threadId)) return;
    let event: ThreadEvent;
    try {
      // Decoded once for all of the thread's listeners on this instance.
      event = JSON.parse(message) as ThreadEvent;
    } catch (error) {
      logger.warn({ err: error, channel }, 'an unreadable message on a thread channel was ignored');
      return;
    }
    threads.deliver(threadId, event);
  });

  // The event target fires and forgets these calls; their failures must not become unhandled rejections.
  const publishClient = { publish } as unknown as Redis;
  const subscribeClient = {
    on: (event: 'message', listener: (channel: string, message: string) => void) => subscriber.on(event, listener),
    subscribe: openChannel,
    unsubscribe: releaseChannel,
  } as unknown as Redis;
  const pubsub = createPubSub<LiveTopics>({
    eventTarget: createRedisEventTarget({ publishClient, subscribeClient }),
  });
  return {
    kind: 'redis',
    pubsub,
    publishThreadEvents: (events) => events.forEach((event) => publish(THREAD_CHANNEL + event.threadId, JSON.stringify(event))),
    subscribeThread: (threadId, listener) => threads.add(threadId, listener),
    announceToInstances: async (message) => {
      await publisher.publish('instance:all', JSON.stringify(message));
    },
    threadChannelReady: async (threadId, timeoutMs) => {
      const entry = channels.get(THREAD_CHANNEL + threadId);
      if (!entry) throw new Error(`threadChannelReady(${threadId}) before subscribing to the thread`);
      if (entry.confirmed) return;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ServiceUnavailableError('live delivery', 1)), timeoutMs);
      });
      try {
        await Promise.race([entry.promise, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
    onOutage: outages.add,
    onResync: resyncs.add,
    ping: async () => {
      await publisher.ping();
    },
    commandClient: publisher,
    close: async () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
