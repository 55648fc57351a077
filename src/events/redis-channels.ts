import { randomUUID } from 'node:crypto';
import type { createPubSub } from '@graphql-yoga/subscription';
import type { Logger } from 'pino';
import type { InstanceMessage, InstanceTopics } from './live-bus-contract.ts';
import type { listenerSet } from './listener-set.ts';
import type { ThreadListeners } from './thread-listeners.ts';
import type { ThreadEvent } from './thread-event.ts';

/** What the Redis buses (one node, or a cluster) share: bounded waits, and how a received message reaches this instance's listeners. */

/** How long a check that this instance heard every announcement may take before the caller stops trusting its cache. */
export const HEARD_TIMEOUT_MS = 1_000;

/** Settles like `promise`, or rejects with `timedOut()` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A promise with its resolver, for a channel that waits for its SUBSCRIBE to be confirmed. */
export function confirmation() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve, confirmed: false };
}

/** The channel names of a Redis bus: a thread's channel is the prefix and its id. */
export interface ChannelNames {
  threadPrefix: string;
  queueKick: string;
  instance: string;
}

/** A queue kick as it travels: the thread, and the bus that sent it (which does not hear its own). */
export interface QueueKick {
  threadId: string;
  from?: string;
}

/** A bus's own kicks: `from` names it, so that its router can leave them out. */
export function queueKickSender(): { from: string; encode(threadId: string): string } {
  const from = randomUUID();
  return { from, encode: (threadId) => JSON.stringify({ threadId, from } satisfies QueueKick) };
}

/**
 * Hands each message a Redis connection receives to this instance's listeners: a thread's events
 * decoded once for all of the thread's listeners (dropped when no one here listens any more, or
 * when this instance sent them),
 * queue kicks of other instances (`ownKicksFrom` names this bus's) and instance messages to theirs;
 * an unreadable message is logged and ignored.
 */
export function messageRouter(
  names: ChannelNames & { ownKicksFrom: string },
  targets: {
    threads: ThreadListeners;
    /** This instance's own thread messages (delivered here as they were published). */
    isOwn: (message: string) => boolean;
    kicks: ReturnType<typeof createPubSub<InstanceTopics>>;
    instanceMessages: ReturnType<typeof listenerSet<InstanceMessage>>;
  },
  logger: Logger,
): (channel: string, message: string) => void {
  const decode = (channel: string, message: string): unknown => {
    try {
      return JSON.parse(message);
    } catch (error) {
      logger.warn({ err: error, channel }, 'an unreadable message on a live channel was ignored');
      return undefined;
    }
  };
  return (channel, message) => {
    if (channel.startsWith(names.threadPrefix)) {
      const threadId = channel.slice(names.threadPrefix.length);
      if (!targets.threads.has(threadId) || targets.isOwn(message)) return;
      const event = decode(channel, message);
      if (event !== undefined) targets.threads.deliver(threadId, event as ThreadEvent);
      return;
    }
    const decoded = decode(channel, message);
    if (decoded === undefined) return;
    if (channel === names.queueKick) {
      // This instance tried the thread itself before it sent the kick.
      const kick = decoded as QueueKick;
      if (kick.from !== names.ownKicksFrom) targets.kicks.publish('queue-kick', { threadId: kick.threadId });
    }
    else if (channel === names.instance) targets.instanceMessages.fire(decoded as InstanceMessage);
  };
}
