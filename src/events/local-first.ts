import { randomUUID } from 'node:crypto';
import { ThreadListeners } from './thread-listeners.ts';
import type { ThreadEvent } from './thread-event.ts';

/** How a Redis bus sends one thread's message: resolves to how many subscriptions received it (nothing when it failed). */
export type SendToThread = (threadId: string, message: string) => Promise<unknown>;

/**
 * How a Redis bus publishes a thread's events: this instance's own listeners get them at once, in
 * the order they are published, and Redis carries them only to where they are needed.
 *
 * - Durable events and snapshots always go through Redis (other instances' subscribers, the
 *   republish after an outage); the copy that comes back here is recognised by its sender (`sentBy`,
 *   the message's first field) and dropped before it is decoded.
 * - A live-only event (a delta, a call's progress) of a thread listened to here goes through Redis
 *   only while another instance may listen too. That is learned from PUBLISH's answer (how many
 *   subscriptions received it): a thread starts out "maybe" when it gets its first listener here,
 *   any publish that reaches another subscription makes it "yes", and a publish sent after that
 *   which reaches none but this instance's makes it "no". A subscriber that joins on another
 *   instance mid-reply asks the running instance for a snapshot (run-event-stream.ts), whose
 *   publish reaches it and so turns its deltas back on; a delta it still misses is a hole its
 *   ledger fills with another snapshot.
 * - A thread no one listens to here is published as before: Redis is the only way out.
 */
export class LocalFirstPublisher {
  /** What every message this instance sends starts with: its sender, which no other bus shares. */
  private readonly ownPrefix = `{"sentBy":${JSON.stringify(randomUUID())},`;
  /** Threads listened to here that another instance may listen to: the publish count from which that holds. */
  private readonly othersListen = new Map<string, number>();
  private publishes = 0;

  constructor(
    private readonly threads: ThreadListeners,
    private readonly send: SendToThread,
    /** Whether this instance's subscription to the thread's channel is confirmed (then a PUBLISH counts it). */
    private readonly subscribedHere: (threadId: string) => boolean,
  ) {}

  publish(event: ThreadEvent): void {
    const { threadId } = event;
    const listenedHere = this.threads.has(threadId);
    const liveOnly = event.seq === null && event.payload.type !== 'MessageSnapshot';
    if (listenedHere && liveOnly && !this.othersListen.has(threadId)) {
      this.threads.deliver(threadId, event);
      return;
    }
    const json = JSON.stringify(event);
    // The same object every listener of another instance decodes: nothing here shares the publisher's.
    if (listenedHere) this.threads.deliver(threadId, JSON.parse(json) as ThreadEvent);
    const sentAt = ++this.publishes;
    const countedHere = this.subscribedHere(threadId);
    void this.send(threadId, this.ownPrefix + json.slice(1)).then((receivers) => {
      if (typeof receivers === 'number') this.heard(threadId, receivers, sentAt, countedHere && this.subscribedHere(threadId));
    });
  }

  /** A message this instance sent, come back through its own subscription: already delivered here. */
  isOwn(message: string): boolean {
    return message.startsWith(this.ownPrefix);
  }

  /** The thread's first listener here: whether others listen is not known until a publish answers. */
  opened(threadId: string): void {
    this.othersListen.set(threadId, this.publishes);
  }

  /** No listener here any more: every event of the thread goes through Redis again. */
  released(threadId: string): void {
    this.othersListen.delete(threadId);
  }

  private heard(threadId: string, receivers: number, sentAt: number, countedHere: boolean): void {
    if (!this.threads.has(threadId)) return;
    const others = receivers - (countedHere ? 1 : 0);
    if (others > 0) this.othersListen.set(threadId, Math.max(sentAt, this.othersListen.get(threadId) ?? 0));
    // Only a publish sent after the last sign of another listener says there is none; and only when
    // this instance's own subscription was surely counted, or received nothing at all.
    else if ((countedHere || receivers === 0) && (this.othersListen.get(threadId) ?? Infinity) < sentAt) this.othersListen.delete(threadId);
  }
}

/** A Redis bus's channel of each thread: opened for the thread's first listener here, released with its last. */
export interface ThreadChannels {
  open(threadId: string): void;
  release(threadId: string): void;
  /** Whether the thread's SUBSCRIBE is confirmed. */
  confirmed(threadId: string): boolean;
}

/** The thread listeners of a Redis bus and the publisher that delivers to them first. */
export function localFirstThreads(channels: ThreadChannels, send: SendToThread): { threads: ThreadListeners; publisher: LocalFirstPublisher } {
  const threads = new ThreadListeners(
    (threadId) => {
      channels.open(threadId);
      publisher.opened(threadId);
    },
    (threadId) => {
      channels.release(threadId);
      publisher.released(threadId);
    },
  );
  const publisher = new LocalFirstPublisher(threads, send, (threadId) => channels.confirmed(threadId));
  return { threads, publisher };
}
