import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { expect } from 'vitest';
import WebSocket from 'ws';
import type { RunEventsSubscription } from '../gql/operations.ts';
import { RunEventsDocument } from './documents.ts';
import { brief, type RunEvent } from './run-events.ts';
import { eventually } from './server.ts';

/** A thread's runEvents, followed over a WebSocket of its own. */
export interface Follower {
  readonly threadId: string;
  /** Every event received so far, in order (across resubscriptions): a copy, that stays as it is. */
  readonly events: RunEvent[];
  /** What the subscription reported: GraphQL errors, and what it ended with (e.g. a closed socket). */
  readonly errors: unknown[];
  /** How often the subscription was taken up again from the last cursor (with `resume`). */
  readonly resubscriptions: number;
  /** How often the WebSocket closed while following (not counting `close()`). */
  readonly socketClosures: number;
  /**
   * Resolves with the subscription's first answer (a replayed event, or a snapshot of the running
   * reply); rejects if it fails first. Once it has answered, the subscription is live: the server
   * listens to the thread's channel before it answers anything, so no later event, live or durable,
   * can pass it by. Until then, a live-only delta may: it comes back as a snapshot instead. A
   * subscription with nothing to replay (a new thread, or `after` at the log's end) answers nothing
   * until the thread changes: give the thread a finished turn and follow it from before its end.
   */
  ready(timeoutMs?: number): Promise<RunEvent>;
  /** Resolves with the first event `match` accepts, as soon as there is one. */
  waitFor<T extends RunEvent>(match: (event: RunEvent) => event is T, timeoutMs?: number): Promise<T>;
  waitFor(match: (event: RunEvent) => boolean, timeoutMs?: number): Promise<RunEvent>;
  /** Resolves with all events once `condition` holds for them. */
  waitUntil(condition: (events: RunEvent[]) => boolean, timeoutMs?: number): Promise<RunEvent[]>;
  /** Unsubscribes at once (no event arrives after it), then closes the socket. */
  close(): Promise<void>;
}

export interface FollowOptions {
  /**
   * Follow as a careful client does: when the subscription fails or the socket drops, subscribe
   * again (a new socket) with `after` = the last cursor received, up to `maxResubscriptions` times.
   * Without it, the first error or completion ends the follower and fails every wait.
   */
  resume?: boolean;
  maxResubscriptions?: number;
}

/** Follows a thread's events from `after` (default: from the beginning; `null`: from now). */
export function follow(
  server: { wsUrl: string },
  token: string | null,
  threadId: string,
  after: string | null = '0',
  options: FollowOptions = {},
): Follower {
  const events: RunEvent[] = [];
  const errors: unknown[] = [];
  const listeners = new Set<() => void>();
  const notify = () => [...listeners].forEach((listener) => listener());
  let failed = false;
  let completed = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  let client: Client;
  let unsubscribe = () => {};
  const state = { resubscriptions: 0, socketClosures: 0 };

  const waitUntilFound = <T>(find: () => T | undefined, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const report = () =>
        `events so far: ${events.map(brief).join(', ') || 'none'}; errors: ${JSON.stringify(errors)}${completed ? '; completed' : ''}`;
      const check = () => {
        const found = find();
        if (found !== undefined) finish(() => resolve(found));
        else if (failed) finish(() => reject(new Error(`subscription failed; ${report()}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms; ${report()}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });

  const connect = (from: string | null) => {
    const current = createClient({
      url: server.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
      lazy: true,
      on: {
        closed: () => {
          if (!closed) state.socketClosures++;
        },
      },
    });
    client = current;
    let ended = false;
    const end = (error: unknown) => {
      if (closed || ended) return;
      ended = true;
      if (error !== null) errors.push(describeSubscriptionError(error));
      if (options.resume && !failed && state.resubscriptions < (options.maxResubscriptions ?? 20)) {
        void current.dispose();
        state.resubscriptions++;
        // A short pause so that a server which is gone for good is not hammered; not a synchronization.
        setTimeout(() => closed || connect(events.at(-1)?.cursor ?? from), 100);
        return;
      }
      completed = error === null;
      failed = true;
      notify();
    };
    unsubscribe = current.subscribe<RunEventsSubscription>(
      { query: print(RunEventsDocument), variables: { threadId, after: from } },
      {
        next: (value) => {
          if (value.errors?.length) {
            errors.push(...value.errors);
            failed = true;
          }
          if (value.data) events.push(value.data.runEvents);
          notify();
        },
        error: end,
        complete: () => end(null),
      },
    );
  };
  connect(after);

  return {
    threadId,
    get events() {
      return [...events];
    },
    errors,
    get resubscriptions() {
      return state.resubscriptions;
    },
    get socketClosures() {
      return state.socketClosures;
    },
    ready(timeoutMs = 15_000) {
      return waitUntilFound(() => events[0], timeoutMs);
    },
    waitFor(match: (event: RunEvent) => boolean, timeoutMs = 15_000) {
      return waitUntilFound(() => events.find(match), timeoutMs);
    },
    waitUntil(condition, timeoutMs = 15_000) {
      return waitUntilFound(() => (condition(events) ? [...events] : undefined), timeoutMs);
    },
    close() {
      closing ??= (async () => {
        closed = true;
        unsubscribe();
        await client.dispose();
      })();
      return closing;
    },
  } as Follower;
}

/** The GraphQL errors a subscription is refused with; it delivers no event. */
export async function refusedSubscription(
  server: { wsUrl: string },
  token: string | null,
  threadId: string,
  after: string | null = null,
): Promise<{ message?: string; extensions?: { code?: string } }[]> {
  const follower = follow(server, token, threadId, after);
  try {
    await eventually(() => follower.errors.length > 0, 10_000, 'the subscription to be refused');
    expect(follower.events).toEqual([]);
    return follower.errors.flat() as { message?: string; extensions?: { code?: string } }[];
  } finally {
    await follower.close();
  }
}

/**
 * What a subscription ended with, readable in a failure message: a closed socket arrives as a
 * CloseEvent, whose fields are getters that JSON.stringify would print as `{}`.
 */
function describeSubscriptionError(error: unknown): unknown {
  if (error && typeof error === 'object' && 'code' in error && 'reason' in error && !('message' in error)) {
    const { code, reason, wasClean } = error as { code: number; reason: string; wasClean?: boolean };
    return { socketClosed: { code, reason: String(reason), wasClean } };
  }
  if (error instanceof Error) return { message: error.message, stack: error.stack?.split('\n').slice(0, 4).join(' | ') };
  return error;
}
