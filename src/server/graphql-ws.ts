import type { Server } from 'node:http';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { authorizationFromConnectionParams, type TokenAuthenticator } from '../auth/tokens.ts';
import { isDatabaseOutage } from '../db/outage.ts';
import { EventBacklog } from '../events/event-backlog.ts';
import type { ParleyYoga } from './yoga.ts';

/** The close code of a `connection_init` refused because its user has as many sockets open as allowed. */
export const TOO_MANY_SOCKETS_CLOSE_CODE = 4429;

/** The close code at shutdown (the standard "Service Restart"): reconnect, to another instance if there is one. */
export const SERVICE_RESTART_CLOSE_CODE = 1012;

/** The close code of a `connection_init` that met a database outage (the standard "Try Again Later"). */
export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

/** The `extensions.code` of an operation refused because its socket runs as many as allowed. */
export const TOO_MANY_SUBSCRIPTIONS_CODE = 'TOO_MANY_SUBSCRIPTIONS';

export interface GraphQLWebSocketOptions {
  maxPayloadBytes: number;
  /** A socket that sends no `connection_init` within this is closed (4408). */
  initTimeoutMs: number;
  /** Operations (subscriptions, and queries or mutations in progress) one socket may run at once. */
  maxOperationsPerSocket: number;
  /** Sockets one user may hold open on this instance. */
  maxSocketsPerUser: number;
  /** Bytes of events one socket may hold for a reader that is not keeping up (see EventBacklog). */
  maxBufferedBytes: number;
  tokens: TokenAuthenticator;
  logger: Logger;
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
  const sockets = new SocketsPerUser(options.maxSocketsPerUser);
  const backlogs = new WeakMap<WebSocket, EventBacklog>();
  const wsServer = new WebSocketServer({ server, path: '/graphql', maxPayload: maxPayloadBytes });
  // The HTTP server reports its own listen errors (e.g. a port in use); ws only re-emits them.
  wsServer.on('error', (error) => logger.debug({ err: error }, 'websocket server error'));
  wsServer.on('connection', (socket) => closeUnlessInitialised(socket, initTimeoutMs));
  const handle = useServer(
    {
      // closeUnlessInitialised does this, without closing a socket whose connection_init is already here.
      connectionInitWaitTimeout: 0,
      execute: (args: ExecutionArgs) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args: ExecutionArgs) =>
        (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      // A token that is there but wrong is refused here, before any operation; no token at all is
      // an anonymous client (its operations then answer as any anonymous request does).
      onConnect: async (ctx) => {
        const authorization = authorizationFromConnectionParams(ctx.connectionParams ?? {});
        if (authorization === undefined || authorization === null || authorization === '') return true;
        const socket = ctx.extra.socket;
        let user;
        try {
          user = await options.tokens.authenticate(authorization);
        } catch (error) {
          if (!isDatabaseOutage(error)) throw error;
          // Not a refused token (4403, which a client must not retry): the client reconnects later.
          socket.close(TRY_AGAIN_LATER_CLOSE_CODE, 'Service unavailable: try again later');
          return false;
        }
        if (!user) return false;
        if (!sockets.open(user.id, socket)) {
          socket.close(TOO_MANY_SOCKETS_CLOSE_CODE, 'Too many open sockets for this user');
          return false;
        }
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws has already registered this operation when it asks.
        if (Object.keys(ctx.subscriptions).length > maxOperationsPerSocket) {
          return [
            new GraphQLError(`At most ${maxOperationsPerSocket} operations may run at once on one socket.`, {
              extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE },
            }),
          ];
        }
        const socket = ctx.extra.socket;
        let eventBacklog = backlogs.get(socket);
        if (!eventBacklog) {
          eventBacklog = new EventBacklog(options.maxBufferedBytes, () => socket.bufferedAmount);
          backlogs.set(socket, eventBacklog);
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket,
          params: payload,
          connectionParams: ctx.connectionParams ?? {},
          eventBacklog,
        });
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
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
        if (errors.length) return errors;
        return args;
      },
    },
    wsServer,
  );
  return {
    async close() {
      for (const client of wsServer.clients) client.close(SERVICE_RESTART_CLOSE_CODE, 'Service restart: reconnect');
      await handle.dispose();
      for (const client of wsServer.clients) client.terminate();
    },
  };
}

/** Which sockets each authenticated user holds open, to refuse one beyond the cap. */
class SocketsPerUser {
  private readonly byUser = new Map<string, Set<WebSocket>>();

  constructor(private readonly max: number) {}

  /** Counts the socket for the user until it closes; false (nothing counted) when the user is at the cap. */
  open(userId: string, socket: WebSocket): boolean {
    // A socket that closed while its token was looked up would never leave the count.
    if (socket.readyState !== socket.OPEN) return false;
    const open = this.byUser.get(userId) ?? new Set<WebSocket>();
    if (open.size >= this.max) return false;
    open.add(socket);
    this.byUser.set(userId, open);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0 && this.byUser.get(userId) === open) this.byUser.delete(userId);
    });
    return true;
  }
}

/**
 * Closes a socket that has not sent `connection_init` within the timeout (4408, as graphql-ws
 * would). graphql-ws' own timer can fire after a long event-loop stall even though the message has
 * arrived meanwhile (timers run before pending I/O), closing a healthy client on a busy machine;
 * here the check runs after pending I/O (setImmediate), so only a socket that really sent nothing
 * is closed.
 */
function closeUnlessInitialised(socket: WebSocket, timeoutMs: number): void {
  let initialised = false;
  socket.once('message', () => {
    initialised = true;
  });
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!initialised && socket.readyState === socket.OPEN) socket.close(4408, 'Connection initialisation timeout');
      }),
    timeoutMs,
  );
  socket.once('close', () => clearTimeout(timer));
}
