import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client as SocketClient } from 'graphql-ws';

// How the client reaches the server: one GraphQL request over HTTP (JSON or multipart), and a
// subscription over a WebSocket that comes back by itself with backoff. Nothing here knows threads.

export interface TransportOptions {
  /** The GraphQL endpoint over HTTP, e.g. `http://localhost:4000/graphql`. */
  url: string;
  /** The WebSocket endpoint; by default `url` with `ws:`/`wss:`. */
  wsUrl?: string;
  token: string;
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

export function createRequest(options: TransportOptions): Request {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  return async (document, variables, files = []) => {
    try {
      const operation = JSON.stringify({ query: print(document), variables });
      const response = await fetchImpl(options.url, {
        method: 'POST',
        headers: files.length
          ? { authorization: `Bearer ${options.token}` }
          : { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: files.length ? multipartBody(operation, files) : operation,
      });
      const body = (await response.json()) as { data?: unknown; errors?: GraphQLErrorLike[] };
      const error = body.errors?.[0];
      if (error || !body.data) return { __typename: 'RequestError', ...failureOf(error, `HTTP ${response.status}`) };
      return body.data as never;
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

/**
 * Follows a subscription until stopped: each ending (an error, a completion, a dropped socket) is
 * retried on a fresh socket after the delay of `retryDecision`, unless it is final.
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

  const attempt = () => {
    if (stopped) return;
    const current = createClient({
      url: wsUrl,
      webSocketImpl: options.webSocketImpl,
      connectionParams: { authorization: `Bearer ${options.token}` },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          if (socket !== current) return;
          failedAttempts = 0;
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
      void current.dispose();
      const failure = lastError ?? describeEnd(error);
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
      stopCurrent();
      await socket?.dispose();
    },
  };
}

/** What ended a subscription, readable: a closed socket arrives as a CloseEvent. */
export function describeEnd(error: unknown): Failure {
  if (error === null || error === undefined) return { message: 'The subscription ended.', code: null, retryAfterS: null };
  if (Array.isArray(error)) return failureOf(error[0] as GraphQLErrorLike | undefined, 'The subscription failed.');
  if (typeof error === 'object' && 'code' in error && 'reason' in error) {
    const { code, reason } = error as { code: number; reason: string };
    return { message: `The connection closed (${code}${reason ? `: ${reason}` : ''}).`, code: code === 4403 ? 'FORBIDDEN' : null, retryAfterS: null };
  }
  return { message: error instanceof Error ? error.message : String(error), code: null, retryAfterS: null };
}

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
