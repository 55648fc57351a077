import { createPubSub } from '@graphql-yoga/subscription';
import type { InstanceMessage, InstanceTopics, LiveBus, ThreadListener } from './live-bus-contract.ts';
import { listenerSet } from './listener-set.ts';
import { ThreadListeners } from './thread-listeners.ts';
import type { ThreadEvent } from './thread-event.ts';

/** One instance alone: every event is handed to this instance's listeners, synchronously; there is no one to kick. */
export class MemoryLiveBus implements LiveBus {
  readonly kind = 'memory';
  readonly commandClient = null;
  private readonly threads = new ThreadListeners();
  private readonly topics = createPubSub<InstanceTopics>();
  private readonly instanceMessages = listenerSet<InstanceMessage>();

  publishThreadEvents(events: ThreadEvent[]): void {
    for (const event of events) this.threads.deliver(event.threadId, event);
  }

  subscribeThread(threadId: string, listener: ThreadListener): () => void {
    return this.threads.add(threadId, listener);
  }

  async threadChannelReady(): Promise<void> {}

  kickOtherInstances(): void {}

  queueKicks(): AsyncIterableIterator<{ threadId: string }> {
    return this.topics.subscribe('queue-kick');
  }

  async announceToInstances(message: InstanceMessage): Promise<void> {
    this.relayToInstances(message);
  }

  relayToInstances(message: InstanceMessage): void {
    this.instanceMessages.fire(message);
  }

  onInstanceMessage(listener: (message: InstanceMessage) => void): () => void {
    return this.instanceMessages.add(listener);
  }

  /** Listeners are called as a message is announced: nothing announced can still be on its way. */
  async instanceMessagesHeard(): Promise<boolean> {
    return true;
  }

  onOutage(): () => void {
    return () => {};
  }

  onResync(): () => void {
    return () => {};
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
