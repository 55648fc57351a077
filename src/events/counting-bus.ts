import type { InstanceMessage, LiveBus, ThreadListener } from './live-bus-contract.ts';
import type { ThreadEvent } from './thread-event.ts';

/** A bus that tells `onPublished` of each event it publishes (live-only or durable), then publishes it through `inner`. */
export class CountingLiveBus implements LiveBus {
  constructor(
    private readonly inner: LiveBus,
    private readonly onPublished: (kind: 'live' | 'durable') => void,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  get commandClient() {
    return this.inner.commandClient;
  }

  publishThreadEvents(events: ThreadEvent[]): void {
    for (const event of events) this.onPublished(event.seq === null ? 'live' : 'durable');
    this.inner.publishThreadEvents(events);
  }

  subscribeThread(threadId: string, listener: ThreadListener): () => void {
    return this.inner.subscribeThread(threadId, listener);
  }

  threadChannelReady(threadId: string, timeoutMs: number): Promise<void> {
    return this.inner.threadChannelReady(threadId, timeoutMs);
  }

  kickOtherInstances(threadId: string): void {
    this.inner.kickOtherInstances(threadId);
  }

  queueKicks(): AsyncIterableIterator<{ threadId: string }> {
    return this.inner.queueKicks();
  }

  announceToInstances(message: InstanceMessage): Promise<void> {
    return this.inner.announceToInstances(message);
  }

  relayToInstances(message: InstanceMessage): void {
    this.inner.relayToInstances(message);
  }

  onInstanceMessage(listener: (message: InstanceMessage) => void): () => void {
    return this.inner.onInstanceMessage(listener);
  }

  instanceMessagesHeard(): Promise<boolean> {
    return this.inner.instanceMessagesHeard();
  }

  onOutage(listener: () => void): () => void {
    return this.inner.onOutage(listener);
  }

  onResync(listener: () => void): () => void {
    return this.inner.onResync(listener);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
