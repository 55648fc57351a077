import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type DocumentNode } from 'graphql';
import { createClient, type Client as SocketClient } from 'graphql-ws';

// How the client reaches the server: one GraphQL request over HTTP (JSON or multipart), and a
// subscription over a WebSocket that comes back by itself with backoff. Nothing here knows threads.

export interface TransportOptions {
  /** The GraphQL endpoint over HTTP, e.g. `http://localhost:4000/graphql`. */
  url: string;
  /** The WebSocket endpoint; by default `url` with `ws:`/`wss:`. */
  wsUrl?: string;
  /**
   * The bearer credential: an API token or a JWT, or a function that answers the current one
   * (e.g. from the product's sign-in SDK). A function is called for every request and every
   * connection, again on an `UNAUTHENTICATED` answer, and — for a JWT — shortly before it expires,
   * when the subscription moves to a fresh socket from its last durable cursor.
   */
  token: string | (() => string | Promise<string>);
  /** A WebSocket class where there is no global one (Node before 22: the `ws` package). */
  webSocketImpl?: unknown;
  fetch?: typeof fetch;
  /** The first wait before trying again after a dropped subscription or a failed read; it doubles up to 10 s. */
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

/** Why something stopped: what a retry decision is made from. */
export interface Failure {
  message: string;
  code: string | null;
  retryAfterS: number | null;
}

export type Request = <TResult, TVariables>(
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  files?: readonly UploadedFile[],
) => Promise<ActionResult<TResult>>;

export function isRequestError(value: unknown): value is RequestError {
  return typeof value === 'object' && value !== null && (value as { __typename?: string }).__typename === 'RequestError';
}

const MAX_RETRY_DELAY_MS = 10_000;
/** Errors that waiting cannot fix. */
const FINAL_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'BAD_USER_INPUT']);

export type RetryDecision = { final: true } | { final: false; delayMs: number; unavailable: boolean };

/**
 * The one retry rule of every read and subscription: an error waiting cannot fix is final; an
 * outage is waited out for its `retryAfterS`; anything else backs off exponentially with jitter.
 */
export function retryDecision(failure: Failure, failedAttempts: number, baseDelayMs = 250): RetryDecision {
  if (failure.code && FINAL_CODES.has(failure.code)) return { final: true };
  const unavailable = failure.code === 'SERVICE_UNAVAILABLE';
  const delayMs =
    unavailable && failure.retryAfterS != null
      ? failure.retryAfterS * 1000
      : Math.min(MAX_RETRY_DELAY_MS, baseDelayMs * 2 ** failedAttempts) * (0.75 + Math.random() * 0.5);
  return { final: false, delayMs, unavailable };
}

/** The credential to send now: the string, or what the token function answers. */
export async function currentToken(options: Pick<TransportOptions, 'token'>): Promise<string> {
  return typeof options.token === 'function' ? options.token() : options.token;
}

/** When a JWT expires (ms since the epoch), read without verifying it (the server does); null for an API token. */
export function tokenExpiry(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(atob(parts[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** How long before a JWT's expiry a subscription moves to a fresh token: a fifth of what is left, at most 30 s. */
export function refreshDelay(expiresAt: number, now = Date.now()): number {
  const left = expiresAt - now;
  return Math.max(0, left - Math.min(30_000, left / 5));
}

export function createRequest(options: TransportOptions): Request {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const send = async (document: DocumentNode, variables: unknown, files: readonly UploadedFile[]) => {
    const operation = JSON.stringify({ query: print(document), variables });
    const token = await currentToken(options);
    // Without a token (an anonymous reader, e.g. a shared thread's page) no Authorization is sent at all.
    const signedIn: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const response = await fetchImpl(options.url, {
      method: 'POST',
      headers: files.length ? signedIn : { 'content-type': 'application/json', ...signedIn },
      body: files.length ? multipartBody(operation, files) : operation,
    });
    return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: GraphQLErrorLike[] } };
  };
  return async (document, variables, files = []) => {
    try {
      let answer = await send(document, variables, files);
      // A token function may hand out a fresh token now (the last one expired meanwhile): once more.
      if (typeof options.token === 'function' && answer.body.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED') {
        answer = await send(document, variables, files);
      }
      const error = answer.body.errors?.[0];
      if (error || !answer.body.data) return { __typename: 'RequestError', ...failureOf(error, `HTTP ${answer.status}`) };
      return answer.body.data as never;
    } catch (error) {
      return { __typename: 'RequestError', message: error instanceof Error ? error.message : String(error), code: null, retryAfterS: null };
    }
  };
}

interface GraphQLErrorLike {
  message?: string;
  extensions?: { code?: string; retryAfterS?: number };
}

function failureOf(error: GraphQLErrorLike | undefined, fallback: string): Failure {
  return { message: error?.message ?? fallback, code: error?.extensions?.code ?? null, retryAfterS: error?.extensions?.retryAfterS ?? null };
}

/** The GraphQL multipart request: the operation (files as nulls), the map, then each file. */
export function multipartBody(operation: string, files: readonly UploadedFile[]): FormData {
  const form = new FormData();
  form.set('operations', operation);
  form.set('map', JSON.stringify(Object.fromEntries(files.map((upload, index) => [String(index), [`variables.${upload.variablePath}`]]))));
  files.forEach((upload, index) => form.set(String(index), upload.file, upload.file.name ?? `file-${index}`));
  return form;
}

export interface FollowHandlers<TData> {
  /** The variables of each attempt: a resubscription asks again (e.g. for the latest cursor). */
  variables: () => Record<string, unknown>;
  next: (data: TData) => void;
  /** The socket is open and the subscription sent. */
  live: () => void;
  /** The subscription ended; it is tried again after `delayMs`. */
  waiting: (failure: Failure, delayMs: number, unavailable: boolean) => void;
  /** Before each new attempt after an ending. */
  retrying: () => void;
  /** The subscription ended with an error waiting cannot fix; it is not tried again. */
  gaveUp: (failure: Failure) => void;
}

/** The close code of a socket whose JWT expired (the server's): a token function gives a fresh one at once. */
export const TOKEN_EXPIRED_CLOSE_CODE = 4401;

/**
 * Follows a subscription until stopped: each ending (an error, a completion, a dropped socket) is
 * retried on a fresh socket after the delay of `retryDecision`, unless it is final. With a token
 * function and a JWT, the subscription moves to a fresh socket with a fresh token shortly before
 * the token expires (the old socket is closed once the new one is there), so a long reply streams
 * on across refreshes; the new subscription starts from `variables()`, i.e. the last durable cursor.
 */
export function followSubscription<TData>(
  options: TransportOptions,
  document: TypedDocumentNode<TData, never>,
  handlers: FollowHandlers<TData>,
): { stop(): Promise<void> } {
  const wsUrl = options.wsUrl ?? options.url.replace(/^http/, 'ws');
  let stopped = false;
  let socket: SocketClient | null = null;
  let stopCurrent = () => {};
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  const refreshing = typeof options.token === 'function';

  /** Closes the socket a refresh is moving away from (once the new one is connected, or has ended). */
  let retire = () => {};

  /** Moves to a fresh socket and token. */
  const refresh = () => {
    const previous = { socket, stop: stopCurrent };
    retire = () => {
      retire = () => {};
      previous.stop();
      void previous.socket?.dispose();
    };
    attempt();
  };

  const attempt = () => {
    if (stopped) return;
    clearTimeout(refreshTimer);
    const current = createClient({
      url: wsUrl,
      webSocketImpl: options.webSocketImpl,
      connectionParams: async () => {
        const token = await currentToken(options);
        const expiresAt = refreshing ? tokenExpiry(token) : null;
        if (expiresAt !== null && socket === current) {
          clearTimeout(refreshTimer);
          refreshTimer = setTimeout(refresh, refreshDelay(expiresAt));
        }
        return token ? { authorization: `Bearer ${token}` } : {};
      },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          if (socket !== current) return;
          failedAttempts = 0;
          retire();
          handlers.live();
        },
      },
    });
    socket = current;
    let lastError: Failure | null = null;
    let ended = false;
    const end = (error: unknown) => {
      if (ended || stopped || socket !== current) return;
      ended = true;
      clearTimeout(refreshTimer);
      retire();
      void current.dispose();
      const failure = lastError ?? describeEnd(error);
      // The server closed it at the token's expiry: a token function has a fresh one now.
      if (refreshing && closeCodeOf(error) === TOKEN_EXPIRED_CLOSE_CODE && failedAttempts++ < 3) {
        handlers.retrying();
        return attempt();
      }
      const decision = retryDecision(failure, failedAttempts++, options.reconnectDelayMs);
      if (decision.final) return handlers.gaveUp(failure);
      handlers.waiting(failure, decision.delayMs, decision.unavailable);
      retryTimer = setTimeout(() => {
        handlers.retrying();
        attempt();
      }, decision.delayMs);
    };
    stopCurrent = current.subscribe<TData>(
      { query: print(document), variables: handlers.variables() },
      {
        next: (value) => {
          if (socket !== current) return;
          const error = value.errors?.[0] as GraphQLErrorLike | undefined;
          if (error) lastError = failureOf(error, 'The subscription failed.');
          if (value.data) handlers.next(value.data as TData);
        },
        error: end,
        complete: () => end(null),
      },
    );
  };
  attempt();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(refreshTimer);
      retire();
      stopCurrent();
      await socket?.dispose();
    },
  };
}

function closeCodeOf(error: unknown): number | null {
  return typeof error === 'object' && error !== null && 'code' in error && 'reason' in error ? (error as { code: number }).code : null;
}

/** What ended a subscription, readable: a closed socket arrives as a CloseEvent. */
export function describeEnd(error: unknown): Failure {
  if (error === null || error === undefined) return { message: 'The subscription ended.', code: null, retryAfterS: null };
  if (Array.isArray(error)) return failureOf(error[0] as GraphQLErrorLike | undefined, 'The subscription failed.');
  const closeCode = closeCodeOf(error);
  if (closeCode !== null) {
    const { reason } = error as { reason: string };
    // 4403: refused (or its user disabled); 4401: its token expired, and a fixed token stays expired.
    const code = closeCode === 4403 ? 'FORBIDDEN' : closeCode === TOKEN_EXPIRED_CLOSE_CODE ? 'UNAUTHENTICATED' : null;
    return { message: `The connection closed (${closeCode}${reason ? `: ${reason}` : ''}).`, code, retryAfterS: null };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, retryAfterS: null };
}

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
