import { Command, Redis, type Cluster } from 'ioredis';
import type { Logger } from 'pino';
import { HEARD_TIMEOUT_MS, within } from './redis-channels.ts';

/** The cluster slot of a channel, as ioredis routes it. */
const slotOf = (channel: string) => new Command('ssubscribe', [channel]).getSlot()!;

interface Shard {
  connection: Redis;
  channels: Set<string>;
  connected: Promise<void>;
}

/** What the subscribing connections tell the bus. */
export interface ShardSignals {
  /** A subscription failed or may have lapsed: the bus subscribes every channel again. */
  fault(reason: string, error?: unknown): void;
  message(channel: string, message: string): void;
}

/**
 * One instance's SSUBSCRIBEs on a Redis Cluster: one plain connection per master that owns a slot
 * some channel is on, routed by the Cluster's slot map. These connections never recover on their
 * own (no reconnect, no re-subscription): any sign of a lapse is a fault for the bus, which drops
 * them all and subscribes again.
 */
export class ShardSubscribers {
  /** The subscribing connection of each master (`host:port`), and the channels subscribed on it. */
  private readonly shards = new Map<string, Shard>();

  constructor(
    private readonly commands: Cluster,
    private readonly signals: ShardSignals,
    private readonly logger: Logger,
  ) {}

  /** SSUBSCRIBEs `channel` on the master that owns its slot now. */
  async subscribe(channel: string): Promise<void> {
    const shard = await this.shardFor(this.ownerOf(channel));
    shard.channels.add(channel);
    await shard.connection.ssubscribe(channel);
  }

  unsubscribe(channel: string): void {
    for (const shard of this.shards.values()) {
      if (!shard.channels.delete(channel)) continue;
      shard.connection.sunsubscribe(channel).catch((error: unknown) => this.logger.debug({ err: error, channel }, 'Redis SUNSUBSCRIBE failed'));
    }
  }

  dropAll(): void {
    for (const { connection } of this.shards.values()) {
      connection.removeAllListeners();
      connection.on('error', () => {});
      connection.disconnect();
    }
    this.shards.clear();
  }

  /**
   * Whether the connection that receives `channel` answered a PING, and is still on the master
   * that owns its slot: it answers after every message SPUBLISHed there before the PING (see
   * redis-bus.ts). False when no ready connection receives it.
   */
  async heardAllOn(channel: string): Promise<boolean> {
    const shard = [...this.shards.values()].find((candidate) => candidate.channels.has(channel));
    if (!shard || shard.connection.status !== 'ready') return false;
    try {
      await within(shard.connection.ping(), HEARD_TIMEOUT_MS, () => new Error('no answer to PING'));
      return this.shards.get(this.ownerOf(channel)) === shard;
    } catch {
      return false;
    }
  }

  private ownerOf(channel: string): string {
    const owner = this.commands.slots[slotOf(channel)]?.[0];
    if (!owner) throw new Error(`no node of the cluster owns the slot of ${channel}`);
    return owner;
  }

  private async shardFor(nodeKey: string): Promise<Shard> {
    const existing = this.shards.get(nodeKey);
    if (existing) {
      await existing.connected;
      return existing;
    }
    const [host, port] = [nodeKey.slice(0, nodeKey.lastIndexOf(':')), Number(nodeKey.slice(nodeKey.lastIndexOf(':') + 1))];
    // Recovery is the bus's (fault → recover), never ioredis' own reconnect or re-subscription.
    const connection = new Redis({
      ...this.commands.options.redisOptions,
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
    this.shards.set(nodeKey, shard);
    connection.on('error', (error: Error) => {
      // A SUNSUBSCRIBE the node pushes when the slot moves away arrives with no command waiting for it.
      if (/Command queue state error/.test(error.message)) this.signals.fault(`${nodeKey} ended a subscription`, error);
    });
    connection.on('close', () => this.signals.fault(`the connection to ${nodeKey} closed`));
    connection.on('moved', () => this.signals.fault(`${nodeKey} no longer owns a channel's slot`));
    connection.on('smessage', (channel: string, message: string) => this.signals.message(channel, message));
    await shard.connected;
    return shard;
  }
}
