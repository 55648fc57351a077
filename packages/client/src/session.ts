import { ThreadConversationDocument, ThreadQueueDocument, ThreadRunEventsDocument } from './documents.ts';
import { applyToThread, initialThreadState, type Connection, type RunEvent, type ThreadInput, type ThreadState } from './thread-state.ts';
import { followSubscription, isRequestError, retryDecision, type Failure, type Request, type TransportOptions } from './transport.ts';

// A thread session follows one thread by the recovery contract: it reads the conversation, follows
// runEvents from its last durable cursor (again after every ending), reads again what events say
// changed, and keeps one immutable state. The actions on the thread live in actions.ts.

/** What the actions need of a session: its state, and the reads that bring the state up to date. */
export interface SessionCore {
  readonly threadId: string;
  getSnapshot(): ThreadState;
  subscribe(listener: () => void): () => void;
  /** Puts a queue an action answered into the state. */
  dispatch(input: ThreadInput): void;
  readQueue(): Promise<void>;
  readConversation(): Promise<void>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** A read that runs one at a time: asked for while it runs, it runs once more afterwards. */
export function coalesce(run: () => Promise<void>, isClosed: () => boolean): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again && !isClosed());
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

export function openSession(threadId: string, options: TransportOptions, request: Request): SessionCore {
  let state = initialThreadState(threadId);
  const listeners = new Set<() => void>();
  let closed = false;
  let subscription: { stop(): Promise<void> } | null = null;
  let failedReads = 0;
  let readRetryTimer: ReturnType<typeof setTimeout> | undefined;
  let markReady: () => void;
  let refuseReady: (error: Error) => void;
  const readyPromise = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    refuseReady = reject;
  });
  // A caller that never awaits ready() must not see an unhandled rejection.
  readyPromise.catch(() => {});

  const dispatch = (input: ThreadInput) => {
    const next = applyToThread(state, input);
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  const setConnection = (connection: Connection) => {
    dispatch({ type: 'connection', connection });
    if (connection.status === 'closed' && connection.error) {
      refuseReady(Object.assign(new Error(connection.error.message), { code: connection.error.code }));
    }
  };
  const giveUp = (failure: Failure) => setConnection({ status: 'closed', error: { message: failure.message, code: failure.code }, retryAt: null });
  const showWait = (failure: Failure, delayMs: number, unavailable: boolean) =>
    setConnection({ status: unavailable ? 'unavailable' : 'reconnecting', error: { message: failure.message, code: failure.code }, retryAt: Date.now() + delayMs });

  const readQueue = coalesce(async () => {
    const result = await request(ThreadQueueDocument, { threadId });
    if (!isRequestError(result) && !closed) dispatch({ type: 'queue', queue: result.queue });
  }, () => closed);

  const readConversation = coalesce(async () => {
    const result = await request(ThreadConversationDocument, { threadId });
    if (closed) return;
    if (!isRequestError(result)) return dispatch({ type: 'conversation', conversation: result.conversation });
    // Before the first read the session has nothing to show: it tries again, unless waiting cannot help.
    if (state.loaded) return;
    const decision = retryDecision(result, failedReads++, options.reconnectDelayMs);
    if (decision.final) return giveUp(result);
    showWait(result, decision.delayMs, decision.unavailable);
    readRetryTimer = setTimeout(start, decision.delayMs);
  }, () => closed);

  const afterEvent = (event: RunEvent) => {
    switch (event.__typename) {
      case 'MessageQueued':
      case 'QueueUpdated':
      case 'ExecutionStarted':
        void readQueue();
        break;
      // A summary now stands for some of the path's messages (or no longer does): its part is on the record.
      case 'ThreadCompacted':
        void readConversation();
        break;
      // The path moved: its messages and their siblings come from the record.
      case 'BranchSwitched':
        void readConversation();
        void readQueue();
        break;
      // The reply's exact parts (tool outputs, cards) and the thread's status come from the record.
      case 'ExecutionFinished':
      case 'ExecutionUpdated':
      case 'SuspensionOpened':
        if (!event.parentExecutionId) {
          void readConversation();
          void readQueue();
        }
        break;
    }
  };

  const follow = () =>
    followSubscription(options, ThreadRunEventsDocument as never, {
      variables: () => ({ threadId, after: state.cursor }),
      next: (data: { runEvents: RunEvent }) => {
        dispatch({ type: 'event', event: data.runEvents });
        afterEvent(data.runEvents);
      },
      live: () => {
        setConnection({ status: 'live', error: null, retryAt: null });
        markReady();
      },
      waiting: showWait,
      // A reconnect picks up the queue as it is now; durable events fill in the rest.
      retrying: () => void readQueue(),
      gaveUp: giveUp,
    });

  async function start() {
    await readConversation();
    if (closed || !state.loaded) return;
    void readQueue();
    subscription = follow();
  }
  void start();

  return {
    threadId,
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch,
    readQueue,
    readConversation,
    ready: () => readyPromise,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(readRetryTimer);
      await subscription?.stop();
      dispatch({ type: 'connection', connection: { status: 'closed', error: null, retryAt: null } });
    },
  };
}
