/** Listeners called synchronously, in the order they were added; each must not throw. */
export function listenerSet<T = void>() {
  const listeners = new Set<(value: T) => void>();
  return {
    /** Returns the function that removes the listener. */
    add(listener: (value: T) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    fire(value: T): void {
      for (const listener of [...listeners]) listener(value);
    },
  };
}
