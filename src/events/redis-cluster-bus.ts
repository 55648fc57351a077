import { createPubSub } from '@graphql-yoga/subscription';
import { Cluster } from 'ioredis';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../domain/errors.ts';
import type { InstanceMessage, InstanceTopics, LiveBus } from './live-bus-contract.ts';
import type { ClusterAuth, ClusterSeeds } from './settings.ts';
import { listenerSet } from './listener-set.ts';
import { localFirstThreads } from './local-first.ts';
import { RepublishBuffer } from './republish-buffer.ts';
import type { ThreadEvent } from './thread-event.ts';
import { confirmation, messageRouter, queueKickSender, within } from './redis-channels.ts';
import { clusterState, COMMAND_TIMEOUT_MS } from './redis-cluster-state.ts';
import { ShardSubscribers } from './redis-cluster-subscribers.ts';

// Every channel is a sharded one (SSUBSCRIBE/SPUBLISH): a thread's events stay inside the shard that
// owns its channel's slot, so the cluster's pub/sub work grows with its shards, not with every node.
// The control channels (instance messages for every instance, queue kicks for every consuming one)
// share one slot (the hash tag), so one connection receives both, and a PING on it is answered after
// every instance message published before it:
// a classic PUBLISH would be answered by one node and forwarded to the others over the cluster bus
// later, which would make `instanceMessagesHeard` a guess. They are low-rate; one shard carries them.
const THREAD_CHANNEL = 'thread:';
const QUEUE_KICK_CHANNEL = '{parley}:queue-kick';
const INSTANCE_CHANNEL = '{parley}:instance:all';

/** Longest one round of subscribing every channel again may take before it is tried afresh. */
const RECOVERY_ROUND_MS = 5_000;
/** Between attempts to subscribe every channel again after a fault. */
const RECOVERY_BACKOFF_MS = [50, 100, 200, 400, 800, 1_000];

/**
 * Instances sharing a Redis Cluster. Commands (SPUBLISH, rate limits) go through ioredis' Cluster,
 * which follows MOVED/ASK and failovers. Subscriptions are held here, one plain connection per master
 * that owns a slot some channel of this instance is on, routed by the Cluster's slot map: ioredis'
 * own sharded subscribers resubscribe without telling when, and take a slot migration's SUNSUBSCRIBE
 * push for a reply, so this bus could not know when a channel receives again. Any fault of a
 * subscription (its node lost, the slot moved, a MOVED answer, a push ioredis cannot place) is an
 * outage of the whole bus: every channel is subscribed again on the owners the cluster names then,
 * and once all are confirmed, subscribers catch up from the event log (`onResync`) as after a
 * one-node Redis outage.
 */
export function createRedisClusterLiveBus(seeds: ClusterSeeds, logger: Logger, auth: ClusterAuth = {}): LiveBus {
  const outages = listenerSet();
  const resyncs = listenerSet();
  const instanceMessages = listenerSet<InstanceMessage>();
  const commands = new Cluster(seeds, {
    // The shards' subscribing connections copy these options, sign-in included.
    redisOptions: { ...auth, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS },
    clusterRetryStrategy: (times: number) => Math.min(50 * 2 ** times, 2_000),
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    slotsRefreshTimeout: COMMAND_TIMEOUT_MS,
  });
  let lastReport = 0;
  const reportError = (error: Error) => {
    if (Date.now() - lastReport < 5_000) return;
    lastReport = Date.now();
    logger.warn({ err: error }, 'the Redis Cluster is unreachable; events are recorded and delivered once it is back');
  };
  commands.on('error', reportError);
  commands.on('node error', (error: Error) => logger.debug({ err: error }, 'a Redis Cluster node failed'));

  /** Every channel some subscriber of this instance listens to, with the state of its SSUBSCRIBE. */
  const channels = new Map<string, ReturnType<typeof confirmation>>();
  let up = false;
  let everUp = false;
  let closed = false;
  let recovering: Promise<void> | null = null;

  /** A subscription failed or may have: every channel is unconfirmed until subscribed again. */
  const fault = (reason: string, error?: unknown) => {
    if (closed) return;
    subscribers.dropAll();
    if (up) {
      up = false;
      logger.warn({ err: error, reason }, 'live delivery over the Redis Cluster was interrupted; subscribing again');
      for (const [channel, entry] of channels) if (entry.confirmed) channels.set(channel, confirmation());
      outages.fire();
    }
    recover();
  };

  const subscribers = new ShardSubscribers(commands, { fault, message: (channel, message) => receive(channel, message) }, logger);

  const refreshSlots = () =>
    new Promise<void>((resolve, reject) => commands.refreshSlotsCache((error) => (error ? reject(error) : resolve())));

  /** Subscribes every wanted channel on the masters the cluster names now; retried until all are confirmed. */
  const recover = () => {
    if (recovering || closed) return;
    recovering = (async () => {
      for (let attempt = 0; !closed; attempt++) {
        try {
          if (commands.status !== 'ready') await new Promise<void>((resolve) => commands.once('ready', () => resolve()));
          await refreshSlots();
          const wanted = [...channels.entries()];
          await within(Promise.all(wanted.map(([channel]) => subscribers.subscribe(channel))), RECOVERY_ROUND_MS, () => new Error('SSUBSCRIBE timed out'));
          if (wanted.some(([channel, entry]) => channels.get(channel) !== entry)) continue;
          for (const [, entry] of wanted) {
            entry.confirmed = true;
            entry.resolve();
          }
          // Channels opened meanwhile were subscribed by openChannel once up, or are in the next round.
          if ([...channels.values()].some((entry) => !entry.confirmed)) continue;
          up = true;
          const reconnected = everUp;
          everUp = true;
          if (reconnected) {
            logger.info('live delivery over the Redis Cluster is back; subscribers catch up from the event log');
            resyncs.fire();
          }
          flushRepublish();
          return;
        } catch (error) {
          logger.debug({ err: error, attempt }, 'subscribing on the Redis Cluster failed; trying again');
          subscribers.dropAll();
          await new Promise((resolve) => setTimeout(resolve, RECOVERY_BACKOFF_MS[Math.min(attempt, RECOVERY_BACKOFF_MS.length - 1)]));
        }
      }
    })().finally(() => {
      recovering = null;
    });
  };

  const republish = new RepublishBuffer();
  let republishTimer: NodeJS.Timeout | null = null;
  const flushRepublish = () => {
    for (const { channel, message } of republish.take()) publish(channel, message);
  };
  const inFlight = new Set<Promise<unknown>>();
  const publish = (channel: string, message: string): Promise<unknown> => {
    const sent = commands.spublish(channel, message).catch((error: unknown) => {
      logger.debug({ err: error, channel }, 'Redis SPUBLISH failed');
      if (!channel.startsWith(THREAD_CHANNEL)) throw error;
      republish.keep(channel, message);
      republishTimer ??= setTimeout(() => {
        republishTimer = null;
        if (!closed) flushRepublish();
      }, 500);
    });
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent)).catch(() => {});
    return sent;
  };

  const openChannel = (channel: string) => {
    const entry = confirmation();
    channels.set(channel, entry);
    if (!up) return recover();
    subscribers.subscribe(channel).then(
      () => {
        if (channels.get(channel) !== entry) return;
        entry.confirmed = true;
        entry.resolve();
      },
      (error: unknown) => fault(`SSUBSCRIBE ${channel} failed`, error),
    );
  };
  const releaseChannel = (channel: string) => {
    channels.delete(channel);
    subscribers.unsubscribe(channel);
  };

  const { threads, publisher: threadEvents } = localFirstThreads(
    {
      open: (threadId) => openChannel(THREAD_CHANNEL + threadId),
      release: (threadId) => releaseChannel(THREAD_CHANNEL + threadId),
      confirmed: (threadId) => channels.get(THREAD_CHANNEL + threadId)?.confirmed === true,
    },
    (threadId, message) => publish(THREAD_CHANNEL + threadId, message),
  );
  const topics = createPubSub<InstanceTopics>();
  const kicks = queueKickSender();
  const receive = messageRouter(
    { threadPrefix: THREAD_CHANNEL, queueKick: QUEUE_KICK_CHANNEL, instance: INSTANCE_CHANNEL, ownKicksFrom: kicks.from },
    { threads, isOwn: (message) => threadEvents.isOwn(message), kicks: topics, instanceMessages },
    logger,
  );

  // Queue kicks are subscribed by the first consumer (`queueKicks`): an instance that runs no turns never hears them.
  channels.set(INSTANCE_CHANNEL, confirmation());
  recover();

  return {
    kind: 'redis-cluster',
    publishThreadEvents: (events) => events.forEach((event) => threadEvents.publish(event)),
    subscribeThread: (threadId, listener) => threads.add(threadId, listener),
    threadChannelReady: async (threadId, timeoutMs) => {
      const entry = channels.get(THREAD_CHANNEL + threadId);
      if (!entry) throw new Error(`threadChannelReady(${threadId}) before subscribing to the thread`);
      if (entry.confirmed) return;
      await within(entry.promise, timeoutMs, () => new ServiceUnavailableError('live delivery', 1));
    },
    kickOtherInstances: (threadId) => void publish(QUEUE_KICK_CHANNEL, kicks.encode(threadId)).catch(() => {}),
    queueKicks: () => {
      if (!channels.has(QUEUE_KICK_CHANNEL)) openChannel(QUEUE_KICK_CHANNEL);
      return topics.subscribe('queue-kick');
    },
    announceToInstances: async (message) => {
      await commands.spublish(INSTANCE_CHANNEL, JSON.stringify(message));
    },
    relayToInstances: (message) => void publish(INSTANCE_CHANNEL, JSON.stringify(message)).catch(() => {}),
    onInstanceMessage: instanceMessages.add,
    instanceMessagesHeard: async () => {
      if (!up || !channels.get(INSTANCE_CHANNEL)?.confirmed) return false;
      const heard = await subscribers.heardAllOn(INSTANCE_CHANNEL);
      return up && heard;
    },
    onOutage: outages.add,
    onResync: resyncs.add,
    ping: async () => {
      const { state } = await clusterState(commands);
      if (state !== 'ok') throw new Error(`the Redis Cluster's state is ${state}`);
    },
    commandClient: commands,
    close: async () => {
      // A CLI command publishes and closes at once: what it sent gets out first (bounded).
      await within(Promise.allSettled([...inFlight]), COMMAND_TIMEOUT_MS, () => new Error('timeout')).catch(() => {});
      closed = true;
      if (republishTimer) clearTimeout(republishTimer);
      subscribers.dropAll();
      commands.disconnect();
    },
  };
}
