import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Plugin } from 'graphql-yoga';
import type { AgUiModule } from '../../ag-ui/ag-ui-module.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import type { SignedInStreams } from '../../auth/signed-in-streams.ts';
import { DomainError, RateLimitedError, type ErrorCode } from '../../domain/errors.ts';
import { EventBacklog } from '../../events/event-backlog.ts';
import type { User } from '../../generated/prisma/client.ts';
import { decodeId } from '../../schema/ids.ts';
import { STREAM_EXPIRED_MESSAGE, STREAM_USER_DISABLED_MESSAGE } from './use-stream-sign-in.ts';
import { TOO_MANY_SUBSCRIPTIONS_CODE, type StreamsPerUser } from './use-subscriptions-per-user.ts';

export const AG_UI_PATH = '/ag-ui/agents/';
const AG_UI_TRANSPORT = { transport: 'ag-ui' };
const ROUTE = /^\/ag-ui\/agents\/([^/]+)(?:\/threads\/([^/]+)\/(stop))?$/;
// setTimeout fires at once for a longer delay; a token valid for longer than this is not watched.
const MAX_TIMER_MS = 2 ** 31 - 1;

const STATUS: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  LIMIT_EXCEEDED: 429,
  SERVICE_UNAVAILABLE: 503,
};

export interface AgUiOptions {
  identify(authorization: string | null): Promise<{ user: User | null; refusal: string | null; expiresAt: number | null }>;
  agUi: Pick<AgUiModule, 'run' | 'stopRun'>;
  rateLimits: Pick<RateLimits, 'consume'>;
  /** The subscriptions bound: an AG-UI run is one stream of its user, as an SSE subscription is. */
  streams: StreamsPerUser;
  signedIn: SignedInStreams;
  /** The gauge of open subscriptions (parley_subscriptions_active): an AG-UI stream counts under transport "ag-ui". */
  subscriptionsActive: { inc(labels: { transport: string }): void; dec(labels: { transport: string }): void };
  maxBufferedBytes: number;
  onSlowReaderDrop(): void;
}

/**
 * `POST /ag-ui/agents/<agentId>`: an AG-UI run (a `RunAgentInput` body, `Accept: text/event-stream`),
 * signed in as GraphQL is, within the same budgets (a request that sends something costs a mutation)
 * and the same per-user bound on open streams, ended at its JWT's `exp` or when its user is
 * disabled. `POST /ag-ui/agents/<agentId>/threads/<threadId>/stop` is Stop. Refusals before the
 * stream opens are JSON with an HTTP status; after, `RUN_ERROR`. See docs/ag-ui.md.
 */
export function useAgUi(options: AgUiOptions): Plugin {
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith(AG_UI_PATH)) return;
      const json = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
        endResponse(
          new fetchAPI.Response(JSON.stringify({ error: { code, message } }), {
            status,
            headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
          }),
        );
      const refuse = (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        const retryAfter: Record<string, string> = error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterS) } : {};
        return json(STATUS[error.code], error.code, error.message, retryAfter);
      };
      const route = ROUTE.exec(url.pathname);
      const agentId = route ? agentIdOf(decodeURIComponent(route[1]!)) : null;
      if (!route || agentId === null) return json(404, 'NOT_FOUND', 'No such AG-UI endpoint: POST /ag-ui/agents/<agentId>.');
      if (request.method !== 'POST') return json(405, 'BAD_REQUEST', 'AG-UI runs are started with POST.', { allow: 'POST' });
      const { user, refusal, expiresAt } = await options.identify(request.headers.get('authorization'));
      if (!user) {
        return json(401, 'UNAUTHENTICATED', refusal ?? 'Authentication required: send "Authorization: Bearer <token>".', { 'www-authenticate': 'Bearer' });
      }
      const limited = await options.rateLimits.consume('mutation', { userId: user.id });
      if (limited) return refuse(new RateLimitedError(limited.retryAfterS));
      if (route[3] === 'stop') {
        try {
          await options.agUi.stopRun(user, agentId, route[2]!);
          return json(202, 'OK', 'Stop requested: the run ends with the outcome "cancelled".');
        } catch (error) {
          return refuse(error);
        }
      }
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return json(400, 'BAD_USER_INPUT', 'body: is not JSON (an AG-UI RunAgentInput is expected).');
      }
      const release = options.streams.take(user.id);
      if (!release) return json(429, TOO_MANY_SUBSCRIPTIONS_CODE, options.streams.refusalMessage());
      const streamEnd = new AbortController();
      const backlog = new EventBacklog(options.maxBufferedBytes, undefined, options.onSlowReaderDrop);
      let events: AsyncGenerator<BaseEvent>;
      try {
        events = await options.agUi.run(user, agentId, body, backlog, streamEnd.signal);
      } catch (error) {
        release();
        return refuse(error);
      }
      const unwatch = watchSignIn(options.signedIn, user.id, expiresAt, streamEnd);
      const encoder = new EventEncoder({ accept: request.headers.get('accept') ?? undefined });
      options.subscriptionsActive.inc(AG_UI_TRANSPORT);
      let open = true;
      const done = () => {
        if (!open) return;
        open = false;
        unwatch();
        release();
        options.subscriptionsActive.dec(AG_UI_TRANSPORT);
      };
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await events.next();
            if (next.done) {
              done();
              controller.close();
            } else {
              controller.enqueue(encoder.encodeBinary(next.value));
            }
          } catch (error) {
            done();
            controller.error(error);
          }
        },
        cancel() {
          // The client went away: its run goes on; a new request attaches to it. The abort wakes a
          // stream parked for its thread's next event (its return() alone would wait for that event).
          done();
          streamEnd.abort('The client closed the stream.');
          void events.return(undefined).catch(() => undefined);
        },
      });
      return endResponse(
        new fetchAPI.Response(stream, {
          status: 200,
          headers: { 'content-type': encoder.getContentType(), 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
        }),
      );
    },
  };
}

/** The agent's raw id from the path (its raw id, or the global id Parley prints and GraphQL gives); null for neither. */
function agentIdOf(value: string): string | null {
  try {
    return decodeId('agentId', value, 'Agent');
  } catch {
    return null;
  }
}

/** Aborts `end` at the JWT's `exp` or when the user is disabled; the function that stops watching. */
function watchSignIn(signedIn: SignedInStreams, userId: string, expiresAt: number | null, end: AbortController): () => void {
  const timer =
    expiresAt !== null && expiresAt - Date.now() <= MAX_TIMER_MS
      ? setTimeout(() => end.abort(STREAM_EXPIRED_MESSAGE), Math.max(0, expiresAt - Date.now()))
      : undefined;
  const unwatch = signedIn.watch(userId, () => end.abort(STREAM_USER_DISABLED_MESSAGE));
  return () => {
    clearTimeout(timer);
    unwatch();
  };
}
