import type { Server } from 'node:http';
import { GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, WebSocket } from 'ws';
import { authorizationFromConnectionParams, type TokenAuthenticator } from '../auth/tokens.ts';
import type { SignedInStreams } from '../auth/signed-in-streams.ts';
import { isDatabaseOutage } from '../db/outage.ts';
import { EventBacklog } from '../events/event-backlog.ts';
import { inRequestScope, requestIdFrom } from '../observability/request-id.ts';
import { errorWithRequestId, withRequestId } from './plugins/use-request-id.ts';
import type { SharedEventResults } from './plugins/use-shared-event-results.ts';
import { TOO_MANY_SUBSCRIPTIONS_CODE } from './plugins/use-subscriptions-per-user.ts';
import type { ParleyYoga } from './yoga.ts';
import type { LimitReporter } from './connection-limits.ts';
import { closeUnlessInitialised, IDLE_CLOSE_CODE, IdleWatch, OpenSockets } from './graphql-ws-sockets.ts';

/** The close code of a `connection_init` refused because its user has as many sockets open as allowed. */
export const TOO_MANY_SOCKETS_CLOSE_CODE = 4429;

/** The close code of a socket that ran no operation for the idle timeout (the standard "Normal Closure"). */
export { IDLE_CLOSE_CODE };

/** The close code at shutdown (the standard "Service Restart"): reconnect, to another instance if there is one. */
export const SERVICE_RESTART_CLOSE_CODE = 1012;

/** The close code of a `connection_init` that met a database outage (the standard "Try Again Later"). */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

/** The close code of a socket whose JWT expired: reconnect with a fresh token. */
export const TOKEN_EXPIRED_CLOSE_CODE = 4401;

/** The close code of a `connection_init` whose token was refused, or of a socket whose user was disabled (graphql-ws's own "Forbidden"). */
export const TOKEN_REFUSED_CLOSE_CODE = 4403;

// setTimeout fires at once for a longer delay; a token valid for longer than this is not watched.
const MAX_TIMER_MS = 2 ** 31 - 1;
// A WebSocket close reason is at most 123 bytes.
const MAX_CLOSE_REASON_BYTES = 123;

/** The `extensions.code` of an operation refused because its socket (or its user) runs as many as allowed. */
export { TOO_MANY_SUBSCRIPTIONS_CODE };

export interface GraphQLWebSocketOptions {
  maxPayloadBytes: number;
  /** A socket that sends no `connection_init` within this is closed (4408). */
  initTimeoutMs: number;
  /** Operations (subscriptions, and queries or mutations in progress) one socket may run at once. */
  maxOperationsPerSocket: number;
  /** Sockets one user may hold open on this instance. */
  maxSocketsPerUser: number;
  /** Sockets without a token one peer address may hold open on this instance. */
  maxAnonymousSocketsPerAddress: number;
  /** An acknowledged socket that runs no operation for this long is closed (IDLE_CLOSE_CODE). */
  idleTimeoutMs: number;
  /**
   * Every socket is pinged this often and terminated when its pong is not back within as long: a
   * peer gone without a close (or one that stopped reading) does not hold its subscriptions.
   */
  keepAliveMs: number;
  /** Told each time a limit closes or refuses a socket. */
  limits: LimitReporter;
  /** Bytes of events one socket may hold for a reader that is not keeping up (see EventBacklog). */
  maxBufferedBytes: number;
  tokens: Pick<TokenAuthenticator, 'identify'>;
  /** Where a signed-in socket is registered, so that disabling its user closes it (4403). */
  streams: SignedInStreams;
  logger: Logger;
  /** Told when a subscription on a socket passes maxBufferedBytes and drops what waits for it. */
  onSlowReaderDrop?: () => void;
  /** The server's shared live-event results (the Yoga's too): each is turned into JSON once. */
  sharedResults: Pick<SharedEventResults, 'isShared'>;
}

export interface GraphQLWebSocket {
  /** Closes every socket with SERVICE_RESTART_CLOSE_CODE, ending its subscriptions. */
  close(): Promise<void>;
}

/** graphql-ws on `/graphql` of the HTTP server, running each operation through Yoga's plugins and context. */
export function serveGraphQLOverWebSocket(
  server: Server,
  yoga: ParleyYoga,
  options: GraphQLWebSocketOptions,
): GraphQLWebSocket {
  const { maxPayloadBytes, initTimeoutMs, maxOperationsPerSocket, logger } = options;
  const sockets = new OpenSockets(options.maxSocketsPerUser);
  const anonymousSockets = new OpenSockets(options.maxAnonymousSocketsPerAddress);
  const idleWatches = new WeakMap<WebSocket, IdleWatch>();
  const watchIdle = (socket: WebSocket, operations: () => number) =>
    idleWatches.set(
      socket,
      new IdleWatch(socket, operations, options.idleTimeoutMs, () =>
        options.limits.hit('websocket_idle_timeout', { address: (socket as SharedPayloadWebSocket).remoteAddress }),
      ),
    );
  const backlogs = new WeakMap<WebSocket, EventBacklog>();
  const serializedResults = new WeakMap<ExecutionResult, string>();
  const wsServer = new WebSocketServer({
    server,
    path: '/graphql',
    maxPayload: maxPayloadBytes,
    WebSocket: SharedPayloadWebSocket,
  });
  // The HTTP server reports its own listen errors (e.g. a port in use); ws only re-emits them.
  wsServer.on('error', (error) => logger.debug({ err: error }, 'websocket server error'));
  wsServer.on('connection', (socket: SharedPayloadWebSocket, request) => {
    socket.remoteAddress = request.socket.remoteAddress;
    closeUnlessInitialised(socket, initTimeoutMs);
  });
  const handle = useServer(
    {
      // closeUnlessInitialised does this, without closing a socket whose connection_init is already here.
      connectionInitWaitTimeout: 0,
      // Each operation runs in its request scope, so that what it logs carries its id.
      execute: (args: ExecutionArgs) =>
        inRequestScope(requestIdOf(args), () =>
          (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args),
        ) as never,
      subscribe: (args: ExecutionArgs) =>
        inRequestScope(requestIdOf(args), () =>
          (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args),
        ) as never,
      // A shared result never carries errors, so it needs no request id.
      onNext: (ctx, _id, _payload, args, result) =>
        options.sharedResults.isShared(result)
          ? serializedOnce(result, ctx.extra.socket as SharedPayloadWebSocket, serializedResults)
          : withRequestId(result, requestIdOf(args)),
      onError: (_ctx, _id, payload, errors) => {
        const requestId = requestIdFrom(payload.extensions?.requestId);
        return errors.map((error) => errorWithRequestId(error, requestId));
      },
      // A token that is there but wrong is refused here, before any operation; no token at all is
      // an anonymous client (its operations then answer as any anonymous request does).
      onConnect: async (ctx) => {
        // An idle socket keeps only what its operations need: not its upgrade request (headers,
        // parser state), whose one use, the peer's address, the socket holds.
        Reflect.deleteProperty(ctx.extra, 'request');
        const authorization = authorizationFromConnectionParams(ctx.connectionParams ?? {});
        const socket = ctx.extra.socket;
        const operations = () => Object.keys(ctx.subscriptions).length;
        if (authorization === undefined || authorization === null || authorization === '') {
          const address = (socket as SharedPayloadWebSocket).remoteAddress ?? 'unknown';
          if (!anonymousSockets.open(address, socket)) {
            options.limits.hit('websocket_anonymous_per_address', { address });
            socket.close(TOO_MANY_SOCKETS_CLOSE_CODE, 'Too many sockets without a token from this address');
            return false;
          }
          watchIdle(socket, operations);
          return true;
        }
        let authentication;
        try {
          authentication = await options.tokens.identify(authorization);
        } catch (error) {
          if (!isDatabaseOutage(error)) throw error;
          // Not a refused token (4403, which a client must not retry): the client reconnects later.
          socket.close(TRY_AGAIN_LATER_CLOSE_CODE, 'Service unavailable: try again later');
          return false;
        }
        const { user, refusal, expiresAt } = authentication;
        if (refusal) socket.close(TOKEN_REFUSED_CLOSE_CODE, closeReason(refusal));
        if (!user) return false;
        if (expiresAt !== null && expiresAt <= Date.now()) {
          socket.close(TOKEN_EXPIRED_CLOSE_CODE, 'Token expired: reconnect with a fresh token');
          return false;
        }
        if (!sockets.open(user.id, socket)) {
          socket.close(TOO_MANY_SOCKETS_CLOSE_CODE, 'Too many open sockets for this user');
          return false;
        }
        if (expiresAt !== null) closeAtExpiry(socket, expiresAt);
        socket.once('close', options.streams.watch(user.id, () => socket.close(TOKEN_REFUSED_CLOSE_CODE, 'This user has been disabled')));
        watchIdle(socket, operations);
        return true;
      },
      onComplete: (ctx) => idleWatches.get(ctx.extra.socket)?.busy(),
      onSubscribe: async (ctx, _id, payload) => {
        idleWatches.get(ctx.extra.socket)?.busy();
        // One id per operation: the client's (`extensions.requestId` of its subscribe message) or a new one.
        const requestId = requestIdFrom(payload.extensions?.requestId);
        // graphql-ws has already registered this operation when it asks.
        if (Object.keys(ctx.subscriptions).length > maxOperationsPerSocket) {
          return [
            new GraphQLError(`At most ${maxOperationsPerSocket} operations may run at once on one socket.`, {
              extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE, requestId },
            }),
          ];
        }
        const socket = ctx.extra.socket;
        let eventBacklog = backlogs.get(socket);
        if (!eventBacklog) {
          eventBacklog = new EventBacklog(options.maxBufferedBytes, () => socket.bufferedAmount, options.onSlowReaderDrop);
          backlogs.set(socket, eventBacklog);
        }
        // Only what the context is made of: a subscription keeps its context as long as it runs.
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          connectionParams: ctx.connectionParams ?? {},
          eventBacklog,
          requestId,
          remoteAddress: (socket as SharedPayloadWebSocket).remoteAddress,
        });
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [errorWithRequestId(error as GraphQLError, requestId)];
        }
        const args: ExecutionArgs = {
          schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors.map((error: GraphQLError) => errorWithRequestId(error, requestId));
        return args;
      },
    },
    wsServer,
    options.keepAliveMs,
  );
  return {
    async close() {
      for (const client of wsServer.clients) client.close(SERVICE_RESTART_CLOSE_CODE, 'Service restart: reconnect');
      await handle.dispose();
      for (const client of wsServer.clients) client.terminate();
    },
  };
}

function requestIdOf(args: ExecutionArgs): string {
  return (args.contextValue as { requestId: string }).requestId;
}

const PLACEHOLDER = 'parley:serialized-payload';
const PLACEHOLDER_TAIL = `"payload":"${PLACEHOLDER}"}`;

/**
 * A result shared by many subscribers (SharedEventResults) is turned into JSON once, kept in
 * `serialized` (the server's, keyed by the result) for every other socket that sends it. graphql-ws
 * writes each message as `{"id":…,"type":"next","payload":…}` with JSON.stringify, payload last:
 * the payload given to it stands for the stored text, and the socket puts that text in its place
 * as the message is sent (graphql-ws sends right after it stringifies, in the same tick).
 */
function serializedOnce(result: ExecutionResult, socket: SharedPayloadWebSocket, serialized: WeakMap<ExecutionResult, string>): ExecutionResult {
  let text = serialized.get(result);
  if (text === undefined) {
    text = JSON.stringify(result);
    serialized.set(result, text);
  }
  const json = text;
  return {
    toJSON: () => {
      socket.placed = json;
      return PLACEHOLDER;
    },
  } as unknown as ExecutionResult;
}

class SharedPayloadWebSocket extends WebSocket {
  /** The peer's address, from the upgrade request (which is not kept). */
  remoteAddress: string | undefined;
  /** The stored text of the shared result being sent, between its stringification and this send. */
  placed: string | null = null;

  override send(data: unknown, ...rest: unknown[]): void {
    if (this.placed !== null && typeof data === 'string' && data.endsWith(PLACEHOLDER_TAIL)) {
      data = `${data.slice(0, -PLACEHOLDER_TAIL.length)}"payload":${this.placed}}`;
    }
    this.placed = null;
    (super.send as (...args: unknown[]) => void)(data, ...rest);
  }
}

/** A socket signed in by a JWT lives no longer than the token: its subscriptions must not outlast a sign-out. */
function closeAtExpiry(socket: WebSocket, expiresAt: number): void {
  const delay = expiresAt - Date.now();
  if (delay > MAX_TIMER_MS) return;
  const timer = setTimeout(() => socket.close(TOKEN_EXPIRED_CLOSE_CODE, 'Token expired: reconnect with a fresh token'), delay);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

function closeReason(message: string): string {
  const bytes = Buffer.from(message);
  if (bytes.length <= MAX_CLOSE_REASON_BYTES) return message;
  return new TextDecoder().decode(bytes.subarray(0, MAX_CLOSE_REASON_BYTES)).replace(/\uFFFD+$/, '');
}
