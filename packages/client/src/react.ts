import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createContext, createElement, useCallback, useContext, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { failureOf, type ActionFailure, type ThreadActions } from './actions.ts';
import type { ParleyClient, ThreadSession } from './client.ts';
import type { QueryState, QueryStore } from './query.ts';
import { initialThreadState, type ThreadState } from './thread-state.ts';
import type { ActionResult } from './transport.ts';

// React hooks over the client's stores: a store is opened when a component first subscribes and
// closed when the last one leaves, so what a hook returns works from the first render on.

const ParleyContext = createContext<ParleyClient | null>(null);

export function ParleyProvider({ client, children }: { client: ParleyClient; children?: ReactNode }) {
  return createElement(ParleyContext.Provider, { value: client }, children);
}

export function useParleyClient(): ParleyClient {
  const client = useContext(ParleyContext);
  if (!client) throw new Error('useParleyClient needs a <ParleyProvider client={…}> above it.');
  return client;
}

interface Store<S> {
  getSnapshot(): S;
  subscribe(listener: () => void): () => void;
}

/**
 * One store shared by the components that read it: opened on first use, closed a moment after the
 * last subscriber left (StrictMode's unsubscribe-resubscribe keeps it), opened again if needed.
 */
class SharedStore<T extends Store<S>, S> {
  private value: T | null = null;
  private subscribers = 0;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly open: () => T,
    private readonly close: (store: T) => void,
    private readonly placeholder: S,
  ) {}

  /** The open store; used without a subscriber (an action after unmount), it closes again soon. */
  current(): T {
    this.value ??= this.open();
    if (this.subscribers === 0) this.closeSoon();
    return this.value;
  }

  readonly subscribe = (listener: () => void) => {
    clearTimeout(this.closeTimer);
    this.subscribers++;
    const stop = (this.value ??= this.open()).subscribe(listener);
    return () => {
      stop();
      if (--this.subscribers === 0) this.closeSoon();
    };
  };

  readonly getSnapshot = (): S => (this.value ? this.value.getSnapshot() : this.placeholder);

  private closeSoon() {
    clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => {
      if (this.subscribers > 0 || !this.value) return;
      this.close(this.value);
      this.value = null;
    });
  }
}

/** `loading` until the conversation is read, `streaming` while a reply runs, `error` when the session gave up or the last reply failed. */
export type ThreadStatus = 'loading' | 'ready' | 'streaming' | 'error';

export function threadStatus(state: ThreadState): ThreadStatus {
  if (state.connection.status === 'closed' && state.connection.error) return 'error';
  if (!state.loaded) return 'loading';
  if (state.activeExecutionId) return 'streaming';
  return state.error ? 'error' : 'ready';
}

export interface ThreadView extends ThreadActions {
  state: ThreadState;
  status: ThreadStatus;
}

/**
 * Follows a thread for as long as the component is mounted (a new session per thread id). The
 * actions are the session's, the same functions on every render for the same thread.
 */
export function useThread(threadId: string): ThreadView {
  const client = useParleyClient();
  const shared = useMemo(
    () => new SharedStore<ThreadSession, ThreadState>(() => client.thread(threadId), (session) => void session.close(), initialThreadState(threadId)),
    [client, threadId],
  );
  const actions = useMemo<ThreadActions>(
    () => ({
      send: (...args) => shared.current().send(...args),
      edit: (...args) => shared.current().edit(...args),
      remove: (...args) => shared.current().remove(...args),
      reorder: (...args) => shared.current().reorder(...args),
      steer: (...args) => shared.current().steer(...args),
      stop: (...args) => shared.current().stop(...args),
      resolve: (...args) => shared.current().resolve(...args),
      retry: (...args) => shared.current().retry(...args),
      compact: () => shared.current().compact(),
      editMessage: (...args) => shared.current().editMessage(...args),
      regenerate: (...args) => shared.current().regenerate(...args),
      switchBranch: (...args) => shared.current().switchBranch(...args),
      refresh: () => shared.current().refresh(),
    }),
    [shared],
  );
  const state = useSyncExternalStore(shared.subscribe, shared.getSnapshot, shared.getSnapshot);
  return { ...actions, state, status: threadStatus(state) };
}

export interface ActionState<T> {
  /** Some call of the action has not answered yet. */
  pending: boolean;
  /** The failure the last answered call got (a typed error of its union or a RequestError), else null. */
  error: ActionFailure<T> | null;
  /** What the last answered call got. */
  result: ActionResult<T> | null;
  reset(): void;
}

/**
 * Runs an action (of useThread, or any function answering a result union) and keeps its pending
 * and error state, as a mutation hook does: `const [send, { pending, error }] = useAction(thread.send)`.
 */
export function useAction<TArgs extends unknown[], T extends { __typename?: string }>(
  action: (...args: TArgs) => Promise<ActionResult<T>>,
): [(...args: TArgs) => Promise<ActionResult<T>>, ActionState<T>] {
  const latest = useRef(action);
  latest.current = action;
  const [inFlight, setInFlight] = useState(0);
  const [result, setResult] = useState<ActionResult<T> | null>(null);
  const run = useCallback(async (...args: TArgs) => {
    setInFlight((count) => count + 1);
    try {
      const answer = await latest.current(...args);
      setResult(answer);
      return answer;
    } finally {
      setInFlight((count) => count - 1);
    }
  }, []);
  const reset = useCallback(() => setResult(null), []);
  return [run, { pending: inFlight > 0, error: result ? failureOf(result) : null, result, reset }];
}

export interface QueryView<T> extends QueryState<T> {
  refetch: QueryStore<T>['refetch'];
}

const NOT_READ = { data: null, error: null, loading: true };

/** The reads of each client, by document and variables, so components asking the same share one. */
const sharedReads = new WeakMap<ParleyClient, WeakMap<object, Map<string, SharedStore<QueryStore<unknown>, QueryState<unknown>>>>>();

function sharedRead<TResult, TVariables>(client: ParleyClient, document: TypedDocumentNode<TResult, TVariables>, key: string) {
  let byDocument = sharedReads.get(client);
  if (!byDocument) sharedReads.set(client, (byDocument = new WeakMap()));
  let byVariables = byDocument.get(document);
  if (!byVariables) byDocument.set(document, (byVariables = new Map()));
  let shared = byVariables.get(key);
  if (!shared) {
    shared = new SharedStore<QueryStore<unknown>, QueryState<unknown>>(
      () => client.query(document, JSON.parse(key) as TVariables),
      (store) => store.close(),
      NOT_READ,
    );
    byVariables.set(key, shared);
  }
  return shared as unknown as SharedStore<QueryStore<TResult>, QueryState<TResult>>;
}

/**
 * A plain read (the viewer, agents, threads) for as long as the component is mounted, retried by
 * the session's rules: an outage waits out its retryAfterS, a final error (UNAUTHENTICATED, …)
 * stops in `error`. Components asking for the same document and variables share one read, so a
 * refetch anywhere shows everywhere. With `skip` (variables not known yet) nothing is read.
 */
export function useParleyQuery<TResult, TVariables>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  options: { skip?: boolean } = {},
): QueryView<TResult> {
  const client = useParleyClient();
  const key = JSON.stringify(variables);
  const shared = useMemo(() => (options.skip ? null : sharedRead(client, document, key)), [client, document, key, options.skip]);
  const state = useSyncExternalStore(shared?.subscribe ?? noSubscription, shared?.getSnapshot ?? skipped, shared?.getSnapshot ?? skipped);
  const refetch = useCallback(
    async (): Promise<ActionResult<TResult>> => (shared ? shared.current().refetch() : { __typename: 'RequestError', message: 'The read is skipped.', code: 'SKIPPED', retryAfterS: null }),
    [shared],
  );
  return { ...(state as QueryState<TResult>), refetch };
}

const SKIPPED = { data: null, error: null, loading: false };
const skipped = () => SKIPPED;
const noSubscription = () => () => {};
