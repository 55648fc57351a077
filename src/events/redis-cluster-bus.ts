import { createPubSub } from '@graphql-yoga/subscription';
import { Cluster, Command, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from '../domain/errors.ts';
import type { InstanceMessage, InstanceTopics, LiveBus } from './live-bus-contract.ts';
import type { ClusterAuth, ClusterSeeds } from './settings.ts';
import { listenerSet } from './listener-set.ts';
import { RepublishBuffer } from './republish-buffer.ts';
import { ThreadListeners } from './thread-listeners.ts';
import type { ThreadEvent } from './thread-event.ts';
import { confirmation, HEARD_TIMEOUT_MS, messageRouter, queueKickSender, within } from './redis-channels.ts';

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

/** Longest any command waits: a stalled cluster (its processes stopped, connections open) must not hold callers. */
const COMMAND_TIMEOUT_MS = 2_000;
/** Longest one round of subscribing every channel again may take before it is tried afresh. */
const RECOVERY_ROUND_MS = 5_000;
/** Between attempts to subscribe every channel again after a fault. */
const RECOVERY_BACKOFF_MS = [50, 100, 200, 400, 800, 1_000];

/** The cluster slot of a channel, as ioredis routes it. */
const slotOf = (channel: string) => new Command('ssubscribe', [channel]).getSlot()!;

/** The cluster's own view: whether its state is ok and how many of its nodes answer. */
export async function clusterState(client: Cluster): Promise<{ state: string; nodes: number; reachable: number }> {
  const nodes = client.nodes('all');
  const answers = await Promise.all(
    nodes.map((node) =>
      within(node.cluster('INFO') as Promise<string>, COMMAND_TIMEOUT_MS, () => new Error('no answer')).then(
        (info) => /cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown',
        () => null,
      ),
    ),
  );
  const states = answers.filter((answer): answer is string => answer !== null);
  const state = states.length === 0 ? 'unreachable' : states.every((answer) => answer === 'ok') ? 'ok' : (states.find((answer) => answer !== 'ok') ?? 'ok');
  return { state, nodes: nodes.length, reachable: states.length };
}

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
  /** The subscribing connection of each master (`host:port`), and the channels subscribed on it. */
  const shards = new Map<string, { connection: Redis; channels: Set<string>; connected: Promise<void> }>();
  let up = false;
  let everUp = false;
  let closed = false;
  let recovering: Promise<void> | null = null;

  const ownerOf = (channel: string): string => {
    const owner = commands.slots[slotOf(channel)]?.[0];
    if (!owner) throw new Error(`no node of the cluster owns the slot of ${channel}`);
    return owner;
  };

  const dropShards = () => {
    for (const { connection } of shards.values()) {
      connection.removeAllListeners();
      connection.on('error', () => {});
      connection.disconnect();
    }
    shards.clear();
  };

  /** A subscription failed or may have: every channel is unconfirmed until subscribed again. */
  const fault = (reason: string, error?: unknown) => {
    if (closed) return;
    dropShards();
    if (up) {
      up = false;
      logger.warn({ err: error, reason }, 'live delivery over the Redis Cluster was interrupted; subscribing again');
      for (const [channel, entry] of channels) if (entry.confirmed) channels.set(channel, confirmation());
      outages.fire();
    }
    recover();
  };

  const shardFor = async (nodeKey: string) => {
    const existing = shards.get(nodeKey);
    if (existing) {
      await existing.connected;
      return existing;
    }
    const [host, port] = [nodeKey.slice(0, nodeKey.lastIndexOf(':')), Number(nodeKey.slice(nodeKey.lastIndexOf(':') + 1))];
    // Recovery is this bus's (fault → recover), never ioredis' own reconnect or re-subscription.
    const connection = new Redis({
      ...commands.options.redisOptions,
      host,
      port,
      lazyConnect: true,
      autoResubscribe: false,
      retryStrategy: () => null,
      enableOfflineQueue: false,
      // A slow SSUBSCRIBE is not a fault (callers wait within their own bounds); a lost connection is.
      commandTimeout: undefined,
      connectionName: 'parley-ssubscriber',
    });
    const shard = { connection, channels: new Set<string>(), connected: connection.connect() };
    shards.set(nodeKey, shard);
    connection.on('error', (error: Error) => {
      // A SUNSUBSCRIBE the node pushes when the slot moves away arrives with no command waiting for it.
      if (/Command queue state error/.test(error.message)) fault(`${nodeKey} ended a subscription`, error);
    });
    connection.on('close', () => fault(`the connection to ${nodeKey} closed`));
    connection.on('moved', () => fault(`${nodeKey} no longer owns a channel's slot`));
    connection.on('smessage', (channel: string, message: string) => receive(channel, message));
    await shard.connected;
    return shard;
  };

  const subscribeOn = async (channel: string) => {
    const shard = await shardFor(ownerOf(channel));
    shard.channels.add(channel);
    await shard.connection.ssubscribe(channel);
  };

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
          await within(Promise.all(wanted.map(([channel]) => subscribeOn(channel))), RECOVERY_ROUND_MS, () => new Error('SSUBSCRIBE timed out'));
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
          dropShards();
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
    subscribeOn(channel).then(
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
    for (const shard of shards.values()) {
      if (!shard.channels.delete(channel)) continue;
      shard.connection.sunsubscribe(channel).catch((error: unknown) => logger.debug({ err: error, channel }, 'Redis SUNSUBSCRIBE failed'));
    }
  };

  const threads = new ThreadListeners(
    (threadId) => openChannel(THREAD_CHANNEL + threadId),
    (threadId) => releaseChannel(THREAD_CHANNEL + threadId),
  );
  const topics = createPubSub<InstanceTopics>();
  const kicks = queueKickSender();
  const receive = messageRouter(
    { threadPrefix: THREAD_CHANNEL, queueKick: QUEUE_KICK_CHANNEL, instance: INSTANCE_CHANNEL, ownKicksFrom: kicks.from },
    { threads, kicks: topics, instanceMessages },
    logger,
  );

  // Queue kicks are subscribed by the first consumer (`queueKicks`): an instance that runs no turns never hears them.
  channels.set(INSTANCE_CHANNEL, confirmation());
  recover();

  return {
    kind: 'redis-cluster',
    publishThreadEvents: (events) => events.forEach((event) => void publish(THREAD_CHANNEL + event.threadId, JSON.stringify(event))),
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
      const shard = [...shards.values()].find((candidate) => candidate.channels.has(INSTANCE_CHANNEL));
      if (!shard || shard.connection.status !== 'ready') return false;
      // The connection that receives the instance channel, on the master that owns its slot: it
      // answers the PING after every message SPUBLISHed there before it (see redis-bus.ts).
      try {
        await within(shard.connection.ping(), HEARD_TIMEOUT_MS, () => new Error('no answer to PING'));
        return up && shards.get(ownerOf(INSTANCE_CHANNEL)) === shard;
      } catch {
        return false;
      }
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
      dropShards();
      commands.disconnect();
    },
  };
}
