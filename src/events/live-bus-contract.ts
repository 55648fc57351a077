import type { Cluster, Redis } from 'ioredis';
import type { ThreadEvent } from './thread-event.ts';

/**
 * Control messages for instances; every instance checks its own runs: a relayed Stop, or a
 * subscriber asking the running instance for a fresh snapshot of the reply; a revoked API token,
 * which every instance forgets at once; and a disabled user, whose streams every instance ends (and an enabled one, whose refusals every instance forgets).
 * The last three are auth's (`RevocationMessage` in src/auth/token-revocation-module.ts, which
 * knows the bus only as a small interface): the compiler checks they match where Parley hands the
 * bus to it.
 */
export type InstanceMessage =
  | { kind: 'cancel' | 'snapshot'; executionId: string }
  /** A tool server's question was answered: the instance whose call waits for it gives it the recorded answer. */
  | { kind: 'elicitation-answered'; suspensionId: string }
  | { kind: 'token-revoked'; tokenId: string }
  | { kind: 'user-disabled' | 'user-enabled'; userId: string }
  /** An operator changed a model's price: every instance reads the prices again (src/usage). */
  | { kind: 'prices-changed' };

/** The queue kicks every consuming instance hears, as each implementation fans them out on this instance. */
export type InstanceTopics = {
  /** A thread may have a claimable queue head: consumers on every instance try it. */
  'queue-kick': [payload: { threadId: string }];
};

/** Called synchronously with each event of a thread, in order; it must not throw or block. */
export type ThreadListener = (event: ThreadEvent) => void;

/**
 * Live delivery between the instances that share a database: threads' events, queue kicks and
 * control messages. In memory for one instance (`memory-bus.ts`), over Redis for several
 * (`redis-bus.ts`); callers never need to know which.
 */
export interface LiveBus {
  publishThreadEvents(events: ThreadEvent[]): void;
  /**
   * Listens to a thread's events. An instance holds one channel per thread however many listen
   * (with Redis, one SUBSCRIBE), opened for the first listener and released with the last; each
   * event is decoded once and handed to every listener. Returns the function that stops listening.
   * Each call passes a function of its own (one passed twice is one listener).
   */
  subscribeThread(threadId: string, listener: ThreadListener): () => void;
  /**
   * Resolves once a thread's channel really receives (Redis confirms SUBSCRIBE asynchronously): a
   * subscriber reads the log only after this, so nothing falls between log and channel. Rejects
   * with a ServiceUnavailableError when the confirmation does not come within `timeoutMs`.
   * Call it after `subscribeThread`.
   */
  threadChannelReady(threadId: string, timeoutMs: number): Promise<void>;
  /** Tells the consumers of the other instances, if there are any, that a thread may have a claimable head. */
  kickOtherInstances(threadId: string): void;
  /**
   * The kicks other instances send (`kickOtherInstances`); `return()` stops listening. With Redis
   * the kick channel is subscribed at the first call, so an instance that never consumes
   * (`PARLEY_ROLE=api`) never receives kicks.
   */
  queueKicks(): AsyncIterableIterator<{ threadId: string }>;
  /**
   * Publishes to every instance (this one included) and resolves once the message is sent: with
   * Redis, once Redis has handed it to every subscribed instance's connection.
   */
  announceToInstances(message: InstanceMessage): Promise<void>;
  /** The same without waiting, for a message the receiver also learns otherwise; a failure is only logged. */
  relayToInstances(message: InstanceMessage): void;
  /**
   * Calls `listener` synchronously with each message every instance announces (`announceToInstances`,
   * `relayToInstances`), this one's included. Returns the function that stops listening.
   */
  onInstanceMessage(listener: (message: InstanceMessage) => void): () => void;
  /**
   * Resolves true once every instance message announced before this call has been handed to this
   * instance's listeners (with Redis: a PING on the subscribing connection, answered after every
   * message published before it); false when that cannot be known now (Redis is away). A cached
   * answer that a revocation could change is trusted only after this.
   */
  instanceMessagesHeard(): Promise<boolean>;
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
  /** Which implementation this is, for the startup log line only. */
  kind: 'memory' | 'redis' | 'redis-cluster';
  /**
   * The connection for ordinary commands (the publisher), for other shared state; null in memory.
   * On a cluster a key's slot picks its node: an operation on several keys needs them in one slot.
   */
  commandClient: Redis | Cluster | null;
}
