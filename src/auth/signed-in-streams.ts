/**
 * The open streams (WebSockets, SSE subscriptions) of each signed-in user on this instance, so that
 * disabling a user ends them at once instead of at their next request.
 */
export class SignedInStreams {
  private readonly byUser = new Map<string, Set<() => void>>();

  /** Calls `end` when the user is disabled; the returned function stops watching (the stream ended anyway). */
  watch(userId: string, end: () => void): () => void {
    const ends = this.byUser.get(userId) ?? new Set<() => void>();
    ends.add(end);
    this.byUser.set(userId, ends);
    return () => {
      ends.delete(end);
      if (ends.size === 0 && this.byUser.get(userId) === ends) this.byUser.delete(userId);
    };
  }

  /** Ends every stream of the user here. */
  endAll(userId: string): void {
    const ends = this.byUser.get(userId);
    this.byUser.delete(userId);
    for (const end of ends ?? []) end();
  }

  /** How many streams of the user are open here (a WebSocket and each of its subscriptions count one each). */
  count(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }
}
