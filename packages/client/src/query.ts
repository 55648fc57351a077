import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { isRequestError, retryDecision, type ActionResult, type Request, type RequestError } from './transport.ts';

// A plain read kept up to date by its caller (the viewer, their agents and threads): read at once,
// and read again by the session's rules when it failed: an outage waits out its retryAfterS, other
// failures back off, an error waiting cannot fix (an invalid token, say) is final.

export interface QueryState<T> {
  /** The last answer read; kept while a later read fails. */
  data: T | null;
  /** Why the last read failed (while it is retried, or finally); null after a good read. */
  error: RequestError | null;
  /** A read is under way or waiting to be retried, and none has succeeded since it started. */
  loading: boolean;
}

export interface QueryStore<T> {
  getSnapshot(): QueryState<T>;
  subscribe(listener: () => void): () => void;
  /** Reads again now; answers what that read got. */
  refetch(): Promise<ActionResult<T>>;
  /** Stops retrying; the state stays as it was. */
  close(): void;
}

export function watchQuery<TResult, TVariables>(
  request: Request,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  options: { reconnectDelayMs?: number } = {},
): QueryStore<TResult> {
  let state: QueryState<TResult> = { data: null, error: null, loading: true };
  const listeners = new Set<() => void>();
  let closed = false;
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;

  const set = (next: QueryState<TResult>) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };

  async function read(): Promise<ActionResult<TResult>> {
    clearTimeout(retryTimer);
    const attempt = ++latest;
    if (!state.loading) set({ ...state, loading: true });
    const result = await request(document, variables);
    // An older read answering late changes nothing a newer one decides.
    if (closed || attempt !== latest) return result;
    if (!isRequestError(result)) {
      failedAttempts = 0;
      set({ data: result, error: null, loading: false });
      return result;
    }
    const decision = retryDecision(result, failedAttempts++, options.reconnectDelayMs);
    set({ data: state.data, error: result, loading: !decision.final });
    if (!decision.final) retryTimer = setTimeout(() => void read(), decision.delayMs);
    return result;
  }
  void read();

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refetch: read,
    close() {
      closed = true;
      clearTimeout(retryTimer);
    },
  };
}
