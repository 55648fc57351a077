import type { Server } from 'node:http';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ParleyYoga } from './yoga.ts';

export interface GraphQLWebSocketOptions {
  maxPayloadBytes: number;
  /** A socket that sends no `connection_init` within this is closed (4408). */
  initTimeoutMs: number;
  logger: Logger;
}

export interface GraphQLWebSocket {
  /** Completes every subscription, then drops the sockets. */
  close(): Promise<void>;
}

/** graphql-ws on `/graphql` of the HTTP server, running each operation through Yoga's plugins and context. */
export function serveGraphQLOverWebSocket(
  server: Server,
  yoga: ParleyYoga,
  { maxPayloadBytes, initTimeoutMs, logger }: GraphQLWebSocketOptions,
): GraphQLWebSocket {
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
      onSubscribe: async (ctx, _id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
          connectionParams: ctx.connectionParams ?? {},
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
      await handle.dispose();
      for (const client of wsServer.clients) client.terminate();
    },
  };
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
