import type { ThreadListener } from './live-bus-contract.ts';
import type { ThreadEvent } from './thread-event.ts';

/**
 * The listeners of each thread on this instance. `opened` and `released` are told when a thread
 * gets its first listener and loses its last, to hold its channel exactly that long.
 */
export class ThreadListeners {
  // Most threads have one listener on an instance: it is kept as is, a Set only from the second.
  private readonly byThread = new Map<string, ThreadListener | Set<ThreadListener>>();

  constructor(
    private readonly opened: (threadId: string) => void = () => {},
    private readonly released: (threadId: string) => void = () => {},
  ) {}

  add(threadId: string, listener: ThreadListener): () => void {
    const entry = listener;
    const current = this.byThread.get(threadId);
    if (current === undefined) {
      this.byThread.set(threadId, entry);
      this.opened(threadId);
    } else if (typeof current === 'function') {
      this.byThread.set(threadId, new Set([current, entry]));
    } else {
      current.add(entry);
    }
    let added = true;
    return () => {
      if (!added) return;
      added = false;
      this.remove(threadId, entry);
    };
  }

  has(threadId: string): boolean {
    return this.byThread.has(threadId);
  }

  deliver(threadId: string, event: ThreadEvent): void {
    const listeners = this.byThread.get(threadId);
    if (listeners === undefined) return;
    if (typeof listeners === 'function') listeners(event);
    else for (const listener of listeners) listener(event);
  }

  private remove(threadId: string, entry: ThreadListener): void {
    const current = this.byThread.get(threadId);
    if (current === entry) {
      this.byThread.delete(threadId);
      this.released(threadId);
    } else if (current instanceof Set) {
      current.delete(entry);
      if (current.size === 1) this.byThread.set(threadId, current.values().next().value!);
    }
  }
}
