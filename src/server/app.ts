import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { TokenAuthenticator } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { schema } from '../schema/index.ts';
import { bootstrapDemo, type DemoBootstrap } from './bootstrap.ts';
import { depthLimitRule, MutationRateLimiter } from './limits.ts';
import { ServerShutdown } from '../execution/running-executions.ts';
import { openParley, type Parley, type ParleyOverrides } from '../parley.ts';

export interface App {
  /** Listens on config.PORT (0 = a free port) and starts this instance's queue consumer. */
  start(): Promise<{ url: string; port: number }>;
  /** Stops accepting, closes subscriptions, lets running replies finish within the grace period. */
  stop(): Promise<void>;
  parley: Parley;
  demo: DemoBootstrap | null;
}

export interface BuildAppOptions {
  logger?: Logger;
  /** Create the demo user, project and agent on first start (the embedded default does). */
  bootstrapDemo?: boolean;
  overrides?: ParleyOverrides;
}

/** The error a resolver threw, beneath the GraphQLErrors wrapped around it (by any graphql copy). */
function rootCause(error: unknown): unknown {
  let current = error;
  while (current && typeof current === 'object' && 'originalError' in current && current.originalError) {
    current = current.originalError;
  }
  return current;
}

function maskError(logger: Logger) {
  return (error: unknown): Error => {
    const path = error instanceof GraphQLError ? error.path : undefined;
    const cause = rootCause(error);
    if (cause instanceof DomainError) {
      const retryAfterS = 'retryAfterS' in cause ? { retryAfterS: cause.retryAfterS } : {};
      return new GraphQLError(cause.message, { path, extensions: { code: cause.code, ...retryAfterS } });
    }
    // Errors GraphQL raised (parse, validation, a variable a scalar refused) are meant for the client.
    if (cause instanceof Error && 'extensions' in cause) return error as Error;
    logger.error({ err: cause }, 'unexpected error in a GraphQL operation');
    return new GraphQLError('Unexpected error.', { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}

export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<App> {
  const logger = options.logger ?? pino({ level: config.PARLEY_LOG_LEVEL, base: { service: 'parley' } });
  const parley = await openParley(config, logger, options.overrides);
  const demo = options.bootstrapDemo ? await bootstrapDemo(parley) : null;
  const rateLimiter = new MutationRateLimiter(config.PARLEY_MUTATIONS_PER_MINUTE);

  const tokens = new TokenAuthenticator(parley.db.prisma);
  const authenticate = (authorization: unknown) => tokens.authenticate(authorization);

  const limitsPlugin: Plugin<GraphQLContext> = {
    onValidate({ addValidationRule }) {
      addValidationRule(depthLimitRule(config.PARLEY_MAX_QUERY_DEPTH));
    },
    onExecute({ args }) {
      const operation = args.document.definitions.find((definition: { kind: string }) => definition.kind === 'OperationDefinition');
      const viewer = (args.contextValue as GraphQLContext).viewer;
      if (operation && 'operation' in operation && operation.operation === 'mutation' && viewer) {
        rateLimiter.check(viewer.id);
      }
    },
  };

  const yoga = createYoga<{ req?: IncomingMessage; connectionParams?: Record<string, unknown> }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { subscriptionsProtocol: 'WS', title: 'Parley' },
    // Yoga reports every GraphQL error it sends, expected ones included; unexpected errors are
    // logged at error level by maskError, so Yoga's own lines go to debug.
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.debug(args.map(String).join(' ')),
      warn: (...args) => logger.debug(args.map(String).join(' ')),
      error: (...args) => logger.debug(args.map(String).join(' ')),
    },
    maskedErrors: { maskError: maskError(logger) },
    plugins: [limitsPlugin],
    context: async ({ request, connectionParams }) => {
      const authorization = connectionParams
        ? (connectionParams.authorization ?? connectionParams.Authorization ?? connectionParams.token)
        : request.headers.get('authorization');
      return { parley, viewer: await authenticate(authorization) };
    },
  });

  let ready = true;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'alive' }));
      return;
    }
    if (url.pathname === '/ready') {
      const checks = await readiness(parley);
      const ok = ready && checks.database && checks.redis;
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ready' : 'unavailable', ...checks, accepting: ready }));
      return;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = String(req.headers['content-type']).startsWith('multipart/')
      ? config.PARLEY_MAX_REQUEST_BYTES + config.PARLEY_MAX_ATTACHMENTS * config.PARLEY_MAX_ATTACHMENT_BYTES
      : config.PARLEY_MAX_REQUEST_BYTES;
    if (length > limit) {
      res.writeHead(413, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          errors: [{ message: `Request body over ${limit} bytes.`, extensions: { code: 'BAD_USER_INPUT' } }],
        }),
      );
      return;
    }
    void yoga.handle(req, res);
  });

  const wsServer = new WebSocketServer({ server, path: '/graphql', maxPayload: config.PARLEY_MAX_REQUEST_BYTES });
  // The HTTP server reports its own listen errors (e.g. a port in use); ws only re-emits them.
  wsServer.on('error', (error) => logger.debug({ err: error }, 'websocket server error'));
  wsServer.on('connection', (socket) => closeUnlessInitialised(socket, config.PARLEY_WS_INIT_TIMEOUT_MS));
  const wsHandle = useServer(
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
    parley,
    demo,
    async start() {
      await parley.startWork();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.PORT, config.HOST, () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}/graphql`;
      logger.info({ url, instanceId: parley.instanceId, database: parley.db.kind, pubsub: parley.bus.kind }, 'Parley is listening');
      return { url, port };
    },
    async stop() {
      ready = false;
      await parley.consumer.stop();
      await new Promise<void>((resolve) => {
        const grace = setTimeout(() => {
          for (const run of parley.running.all()) run.controller.abort(new ServerShutdown());
        }, config.PARLEY_SHUTDOWN_GRACE_MS);
        void parley.consumer.waitForRuns().then(() => {
          clearTimeout(grace);
          resolve();
        });
      });
      await wsHandle.dispose();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await parley.close();
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

async function readiness(parley: Parley): Promise<{ database: boolean; redis: boolean }> {
  const settle = async (probe: () => Promise<void>) => {
    try {
      await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000))]);
      return true;
    } catch {
      return false;
    }
  };
  const [database, redis] = await Promise.all([settle(() => parley.db.ping()), settle(() => parley.bus.ping())]);
  return { database, redis };
}
