import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client as SocketClient } from 'graphql-ws';
import {
  EditQueuedDocument,
  RemoveQueuedDocument,
  ReorderQueuedDocument,
  ResolveCardDocument,
  RetryTurnDocument,
  SendThreadMessageDocument,
  SteerQueuedDocument,
  StopExecutionDocument,
  ThreadConversationDocument,
  ThreadQueueDocument,
  ThreadRunEventsDocument,
} from './documents.ts';
import type {
  EditQueuedMutation,
  RemoveQueuedMutation,
  ReorderQueuedMutation,
  ResolveCardMutation,
  RetryTurnMutation,
  SendThreadMessageMutation,
  SteerQueuedMutation,
  StopExecutionMutation,
  SuspensionDecision,
  ThreadRunEventsSubscription,
} from './gql/graphql.ts';
import { applyToThread, initialThreadState, type Connection, type RunEvent, type ThreadInput, type ThreadState } from './thread-state.ts';

export interface ParleyClientOptions {
  /** The GraphQL endpoint over HTTP, e.g. `http://localhost:4000/graphql`. */
  url: string;
  /** The WebSocket endpoint; by default `url` with `ws:`/`wss:`. */
  wsUrl?: string;
  token: string;
  /** A WebSocket class where there is no global one (Node before 22: the `ws` package). */
  webSocketImpl?: unknown;
  fetch?: typeof fetch;
  /** The first wait before subscribing again after a dropped subscription; it doubles up to 10 s. */
  reconnectDelayMs?: number;
}

/** A request that did not reach a typed answer: the network, or an error outside the result union. */
export interface RequestError {
  __typename: 'RequestError';
  message: string;
  code: string | null;
  retryAfterS: number | null;
}

export type ActionResult<T> = T | RequestError;

/** A file for a multipart request, at a variable path such as `attachments.0`. */
export interface UploadedFile {
  variablePath: string;
  file: Blob & { name?: string };
}

export interface ParleyClient {
  /**
   * One GraphQL request over HTTP; a failure comes back as a RequestError. With `files`, it is a
   * GraphQL multipart request: each file is sent as a part and mapped onto the variable path.
   */
  request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    files?: readonly UploadedFile[],
  ): Promise<ActionResult<TResult>>;
  /** A new session following the thread; close it when done. */
  thread(threadId: string): ThreadSession;
}

type SendResult = SendThreadMessageMutation['sendMessage'];
type EditResult = EditQueuedMutation['editQueuedMessage'];
type RemoveResult = RemoveQueuedMutation['removeQueuedMessage'];
type ReorderResult = ReorderQueuedMutation['reorderQueuedMessage'];
type SteerResult = SteerQueuedMutation['steerQueuedMessage'];
type StopResult = StopExecutionMutation['cancelExecution'];
type ResolveResult = ResolveCardMutation['resolveSuspension'];
type RetryResult = RetryTurnMutation['retryExecution'];

export interface ThreadSession {
  readonly threadId: string;
  getSnapshot(): ThreadState;
  subscribe(listener: () => void): () => void;
  /**
   * Resolves once the conversation has been read and the subscription is live; rejects when the
   * session cannot follow the thread (e.g. an invalid token or an unknown thread).
   */
  ready(): Promise<void>;
  /**
   * Queues a message. Its idempotency key is made once and sent again on every retry, so a
   * request that failed on the way back never queues the message twice.
   */
  send(text: string, options?: { idempotencyKey?: string; attachments?: readonly (Blob & { name?: string })[] }): Promise<ActionResult<SendResult>>;
  edit(queueId: string, text: string): Promise<ActionResult<EditResult>>;
  remove(queueId: string): Promise<ActionResult<RemoveResult>>;
  /**
   * Moves a queued message to the target's place, sending the order the state shows. On a
   * QueueChangedError the queue is read again (the state shows the current order) and the error
   * is returned, so the caller can decide again.
   */
  reorder(queueId: string, targetQueueId: string): Promise<ActionResult<ReorderResult>>;
  /** Steers a queued message into the running execution (by default the active one). */
  steer(queueId: string, executionId?: string): Promise<ActionResult<SteerResult>>;
  /** Stops the running execution (by default the active one). */
  stop(executionId?: string): Promise<ActionResult<StopResult>>;
  resolve(suspensionId: string, resolution: { decision: SuspensionDecision } | { answer: string }): Promise<ActionResult<ResolveResult>>;
  /** Re-queues a failed turn (by default the one of the current error). */
  retry(executionId?: string): Promise<ActionResult<RetryResult>>;
  /** Reads the conversation and the queue again. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

const MAX_RECONNECT_DELAY_MS = 10_000;
const SEND_ATTEMPTS = 3;
/** Subscription errors that waiting cannot fix. */
const FINAL_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'BAD_USER_INPUT']);

export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const wsUrl = options.wsUrl ?? options.url.replace(/^http/, 'ws');

  async function request<TResult, TVariables>(
    document: TypedDocumentNode<TResult, TVariables>,
    variables: TVariables,
    files: readonly UploadedFile[] = [],
  ): Promise<ActionResult<TResult>> {
    try {
      const operation = JSON.stringify({ query: print(document), variables });
      const response = await fetchImpl(options.url, {
        method: 'POST',
        headers: files.length
          ? { authorization: `Bearer ${options.token}` }
          : { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: files.length ? multipartBody(operation, files) : operation,
      });
      const body = (await response.json()) as {
        data?: TResult | null;
        errors?: { message: string; extensions?: { code?: string; retryAfterS?: number } }[];
      };
      const error = body.errors?.[0];
      if (error || !body.data) {
        return {
          __typename: 'RequestError',
          message: error?.message ?? `HTTP ${response.status}`,
          code: error?.extensions?.code ?? null,
          retryAfterS: error?.extensions?.retryAfterS ?? null,
        };
      }
      return body.data;
    } catch (error) {
      return { __typename: 'RequestError', message: error instanceof Error ? error.message : String(error), code: null, retryAfterS: null };
    }
  }

  return {
    request,
    thread: (threadId) => openThread(threadId, { ...options, wsUrl }, request),
  };
}

/** The GraphQL multipart request: the operation (files as nulls), the map, then each file. */
function multipartBody(operation: string, files: readonly UploadedFile[]): FormData {
  const form = new FormData();
  form.set('operations', operation);
  form.set('map', JSON.stringify(Object.fromEntries(files.map((upload, index) => [String(index), [`variables.${upload.variablePath}`]]))));
  files.forEach((upload, index) => form.set(String(index), upload.file, upload.file.name ?? `file-${index}`));
  return form;
}

function isRequestError(value: unknown): value is RequestError {
  return typeof value === 'object' && value !== null && (value as { __typename?: string }).__typename === 'RequestError';
}

/** Picks the payload field of a mutation's result, or passes a RequestError through. */
function field<T, K extends keyof T>(result: ActionResult<T>, key: K): ActionResult<T[K]> {
  return isRequestError(result) ? result : result[key];
}

/** A read that runs one at a time: asked for while it runs, it runs once more afterwards. */
function coalesce(run: () => Promise<void>, isClosed: () => boolean): () => Promise<void> {
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

const WAIT_AND_RETRY_TYPES = new Set(['RateLimitedError', 'ServiceUnavailableError']);

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function openThread(
  threadId: string,
  options: ParleyClientOptions & { wsUrl: string },
  request: ParleyClient['request'],
): ThreadSession {
  let state = initialThreadState(threadId);
  const listeners = new Set<() => void>();
  let closed = false;
  let socket: SocketClient | null = null;
  let stopSubscription = () => {};
  let failedAttempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
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

  const readQueue = coalesce(async () => {
    const result = await request(ThreadQueueDocument, { threadId });
    if (!isRequestError(result) && !closed) dispatch({ type: 'queue', queue: result.queue });
  }, () => closed);

  const readConversation = coalesce(async () => {
    const result = await request(ThreadConversationDocument, { threadId });
    if (isRequestError(result)) {
      // Before the first read the session has nothing to show: it tries again, unless waiting cannot help.
      if (!state.loaded) scheduleRetry(result, start);
      return;
    }
    if (!closed) dispatch({ type: 'conversation', conversation: result.conversation });
  }, () => closed);

  const afterEvent = (event: RunEvent) => {
    switch (event.__typename) {
      case 'MessageQueued':
      case 'QueueUpdated':
      case 'ExecutionStarted':
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

  function subscribeFromCursor() {
    if (closed) return;
    const after = state.cursor;
    const current = createClient({
      url: options.wsUrl,
      webSocketImpl: options.webSocketImpl,
      connectionParams: { authorization: `Bearer ${options.token}` },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          if (socket !== current) return;
          failedAttempts = 0;
          setConnection({ status: 'live', error: null, retryAt: null });
          markReady();
        },
      },
    });
    socket = current;
    let lastError: { message: string; code: string | null; retryAfterS: number | null } | null = null;
    let ended = false;
    const end = (error: unknown) => {
      if (ended || closed || socket !== current) return;
      ended = true;
      void current.dispose();
      lastError ??= describeEnd(error);
      scheduleReconnect(lastError);
    };
    stopSubscription = current.subscribe<ThreadRunEventsSubscription>(
      { query: print(ThreadRunEventsDocument), variables: { threadId, after } },
      {
        next: (value) => {
          if (socket !== current) return;
          const error = value.errors?.[0] as { message: string; extensions?: { code?: string; retryAfterS?: number } } | undefined;
          if (error) {
            lastError = { message: error.message, code: error.extensions?.code ?? null, retryAfterS: error.extensions?.retryAfterS ?? null };
          }
          const event = value.data?.runEvents;
          if (!event) return;
          dispatch({ type: 'event', event });
          afterEvent(event);
        },
        error: end,
        complete: () => end(null),
      },
    );
  }

  function scheduleReconnect(error: { message: string; code: string | null; retryAfterS: number | null }) {
    scheduleRetry(error, () => {
      // A reconnect picks up the queue as it is now; durable events fill in the rest.
      void readQueue();
      subscribeFromCursor();
    });
  }

  function scheduleRetry(error: { message: string; code: string | null; retryAfterS: number | null }, retry: () => void) {
    if (closed) return;
    if (error.code && FINAL_CODES.has(error.code)) {
      setConnection({ status: 'closed', error: { message: error.message, code: error.code }, retryAt: null });
      return;
    }
    const base = options.reconnectDelayMs ?? 250;
    const delay =
      error.code === 'SERVICE_UNAVAILABLE' && error.retryAfterS != null
        ? error.retryAfterS * 1000
        : Math.min(MAX_RECONNECT_DELAY_MS, base * 2 ** failedAttempts) * (0.75 + Math.random() * 0.5);
    failedAttempts++;
    setConnection({
      status: error.code === 'SERVICE_UNAVAILABLE' ? 'unavailable' : 'reconnecting',
      error: { message: error.message, code: error.code },
      retryAt: Date.now() + delay,
    });
    reconnectTimer = setTimeout(retry, delay);
  }

  async function start() {
    await readConversation();
    if (closed || !state.loaded) return;
    void readQueue();
    subscribeFromCursor();
  }
  void start();

  const refreshQueueAfter = async <T>(result: Promise<T>) => {
    const value = await result;
    await readQueue();
    return value;
  };

  const noExecution = (what: string): RequestError => ({
    __typename: 'RequestError',
    message: `There is no ${what} execution.`,
    code: 'NO_EXECUTION',
    retryAfterS: null,
  });

  return {
    threadId,
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready: () => readyPromise,
    async send(text, { idempotencyKey = globalThis.crypto.randomUUID(), attachments = [] } = {}) {
      const files = attachments.map((file, index) => ({ variablePath: `attachments.${index}`, file }));
      // The multipart spec puts a null where each file goes; the map fills it in on the server.
      const variables = { threadId, text, idempotencyKey, attachments: files.length ? attachments.map(() => null) : undefined };
      let result!: ActionResult<SendResult>;
      for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
        result = field(await request(SendThreadMessageDocument, variables as never, files), 'sendMessage');
        // A spent budget and an outage (the typed member or the error of a request) are waited out
        // and sent again with the same idempotency key, so the message is queued once.
        if (!isRequestError(result) && !WAIT_AND_RETRY_TYPES.has(result.__typename as string)) break;
        const retryAfterS = isRequestError(result) ? result.retryAfterS : (result as { retryAfterS?: number }).retryAfterS;
        const retryable = retryAfterS != null || (isRequestError(result) && (result.code === null || result.code === 'SERVICE_UNAVAILABLE'));
        if (!retryable || attempt === SEND_ATTEMPTS) break;
        await wait(retryAfterS != null ? retryAfterS * 1000 : 250 * 2 ** attempt);
      }
      if (!isRequestError(result) && result.__typename === 'MessageQueued') void readQueue();
      return result;
    },
    edit: (queueId, text) => refreshQueueAfter(request(EditQueuedDocument, { queueId, text }).then((r) => field(r, 'editQueuedMessage'))),
    remove: (queueId) => refreshQueueAfter(request(RemoveQueuedDocument, { queueId }).then((r) => field(r, 'removeQueuedMessage'))),
    async reorder(queueId, targetQueueId) {
      const expectedQueueIds = (state.queue?.items ?? []).filter((item) => !item.steeringExecutionId).map((item) => item.id);
      const result = field(await request(ReorderQueuedDocument, { queueId, targetQueueId, expectedQueueIds }), 'reorderQueuedMessage');
      if (!isRequestError(result) && result.__typename === 'Queue') dispatch({ type: 'queue', queue: result });
      else await readQueue();
      return result;
    },
    steer(queueId, executionId = state.activeExecutionId ?? undefined) {
      if (!executionId) return Promise.resolve(noExecution('running'));
      return refreshQueueAfter(request(SteerQueuedDocument, { queueId, executionId }).then((r) => field(r, 'steerQueuedMessage')));
    },
    async stop(executionId = state.activeExecutionId ?? undefined) {
      if (!executionId) return noExecution('running');
      return field(await request(StopExecutionDocument, { executionId }), 'cancelExecution');
    },
    async resolve(suspensionId, resolution) {
      const variables = 'decision' in resolution ? { id: suspensionId, decision: resolution.decision } : { id: suspensionId, answer: resolution.answer };
      return field(await request(ResolveCardDocument, variables), 'resolveSuspension');
    },
    async retry(executionId = state.error?.executionId) {
      if (!executionId) return noExecution('failed');
      return refreshQueueAfter(request(RetryTurnDocument, { executionId }).then((r) => field(r, 'retryExecution')));
    },
    async refresh() {
      await Promise.all([readConversation(), readQueue()]);
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      stopSubscription();
      await socket?.dispose();
      dispatch({ type: 'connection', connection: { status: 'closed', error: null, retryAt: null } });
    },
  };
}

/** What ended a subscription, readable: a closed socket arrives as a CloseEvent. */
function describeEnd(error: unknown): { message: string; code: string | null; retryAfterS: number | null } {
  if (error === null || error === undefined) return { message: 'The subscription ended.', code: null, retryAfterS: null };
  if (Array.isArray(error)) {
    const first = error[0] as { message?: string; extensions?: { code?: string; retryAfterS?: number } } | undefined;
    return { message: first?.message ?? 'The subscription failed.', code: first?.extensions?.code ?? null, retryAfterS: first?.extensions?.retryAfterS ?? null };
  }
  if (typeof error === 'object' && 'code' in error && 'reason' in error) {
    const { code, reason } = error as { code: number; reason: string };
    return { message: `The connection closed (${code}${reason ? `: ${reason}` : ''}).`, code: code === 4403 ? 'FORBIDDEN' : null, retryAfterS: null };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, retryAfterS: null };
}
