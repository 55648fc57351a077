import { createPubSub } from '@graphql-yoga/subscription';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../domain/errors.ts';
import type { InstanceMessage, InstanceTopics, LiveBus } from './live-bus-contract.ts';
import { listenerSet } from './listener-set.ts';
import { localFirstThreads } from './local-first.ts';
import { RepublishBuffer } from './republish-buffer.ts';
import type { ThreadEvent } from './thread-event.ts';
import { confirmation, HEARD_TIMEOUT_MS, messageRouter, queueKickSender, within } from './redis-channels.ts';

const THREAD_CHANNEL = 'thread:';
const QUEUE_KICK_CHANNEL = 'queue-kick';
const INSTANCE_CHANNEL = 'instance:all';

/**
 * Instances sharing a Redis: one channel per thread with listeners here (`thread:<id>`), one for
 * every instance (`instance:all`) and one for every instance that consumes the queue (`queue-kick`),
 * each SUBSCRIBE sent and confirmed by this bus itself.
 */
export function createRedisLiveBus(redisUrl: string, logger: Logger): LiveBus {
  const outages = listenerSet();
  const resyncs = listenerSet();
  const instanceMessages = listenerSet<InstanceMessage>();
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

  const republish = new RepublishBuffer();
  publisher.on('ready', () => {
    for (const { channel, message } of republish.take()) publish(channel, message);
  });
  const publish = (channel: string, message: string) =>
    publisher.publish(channel, message).catch((error: unknown) => {
      logger.debug({ err: error, channel }, 'Redis PUBLISH failed');
      if (channel.startsWith(THREAD_CHANNEL)) republish.keep(channel, message);
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

  const { threads, publisher: threadEvents } = localFirstThreads(
    {
      open: (threadId) => openChannel(THREAD_CHANNEL + threadId),
      release: (threadId) => releaseChannel(THREAD_CHANNEL + threadId),
      confirmed: (threadId) => channels.get(THREAD_CHANNEL + threadId)?.confirmed === true,
    },
    (threadId, message) => publish(THREAD_CHANNEL + threadId, message),
  );
  // Kicks and control messages are fanned out on this instance as they arrive, for as long as it runs.
  // Kicks only from the first consumer on: an instance that runs no turns never hears them.
  const topics = createPubSub<InstanceTopics>();
  const kicks = queueKickSender();
  openChannel(INSTANCE_CHANNEL);
  subscriber.on(
    'message',
    messageRouter(
      { threadPrefix: THREAD_CHANNEL, queueKick: QUEUE_KICK_CHANNEL, instance: INSTANCE_CHANNEL, ownKicksFrom: kicks.from },
      { threads, isOwn: (message) => threadEvents.isOwn(message), kicks: topics, instanceMessages },
      logger,
    ),
  );

  return {
    kind: 'redis',
    publishThreadEvents: (events) => events.forEach((event) => threadEvents.publish(event)),
    subscribeThread: (threadId, listener) => threads.add(threadId, listener),
    threadChannelReady: async (threadId, timeoutMs) => {
      const entry = channels.get(THREAD_CHANNEL + threadId);
      if (!entry) throw new Error(`threadChannelReady(${threadId}) before subscribing to the thread`);
      if (entry.confirmed) return;
      await within(entry.promise, timeoutMs, () => new ServiceUnavailableError('live delivery', 1));
    },
    kickOtherInstances: (threadId) => void publish(QUEUE_KICK_CHANNEL, kicks.encode(threadId)),
    queueKicks: () => {
      if (!channels.has(QUEUE_KICK_CHANNEL)) openChannel(QUEUE_KICK_CHANNEL);
      return topics.subscribe('queue-kick');
    },
    announceToInstances: async (message) => {
      await publisher.publish(INSTANCE_CHANNEL, JSON.stringify(message));
    },
    relayToInstances: (message) => void publish(INSTANCE_CHANNEL, JSON.stringify(message)),
    onInstanceMessage: instanceMessages.add,
    instanceMessagesHeard: async () => {
      if (subscriber.status !== 'ready' || !channels.get(INSTANCE_CHANNEL)?.confirmed) return false;
      // Redis answers a subscriber's PING in order with the messages it pushes to that connection, and
      // ioredis emits each message synchronously as it parses it: once the answer arrives, every
      // message published before the PING was sent has reached the listeners.
      try {
        await within(subscriber.ping(), HEARD_TIMEOUT_MS, () => new Error('no answer to PING'));
        return true;
      } catch {
        return false;
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
