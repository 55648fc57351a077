import { createPubSub } from '@graphql-yoga/subscription';
import type { InstanceMessage, InstanceTopics, LiveBus, ThreadListener } from './live-bus-contract.ts';
import { ThreadListeners } from './thread-listeners.ts';
import type { ThreadEvent } from './thread-event.ts';

/** One instance alone: every event is handed to this instance's listeners, synchronously; there is no one to kick. */
export class MemoryLiveBus implements LiveBus {
  readonly kind = 'memory';
  readonly commandClient = null;
  private readonly threads = new ThreadListeners();
  private readonly topics = createPubSub<InstanceTopics>();

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
    this.topics.publish('instance', 'all', message);
  }

  instanceMessages(): AsyncIterableIterator<InstanceMessage> {
    return this.topics.subscribe('instance', 'all');
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
