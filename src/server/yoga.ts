import type { IncomingMessage } from 'node:http';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { authorizationFromConnectionParams, type TokenAuthenticator } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import { EventBacklog } from '../events/event-backlog.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { schema } from '../schema/index.ts';
import { maskError } from './mask-error.ts';
import type { Parley } from '../parley.ts';
import { useBodyLimit } from './plugins/use-body-limit.ts';
import { useHealth } from './plugins/use-health.ts';
import { useOperationLimits } from './plugins/use-operation-limits.ts';
import { useReadiness } from './plugins/use-readiness.ts';

/** What the HTTP server (req) or the WebSocket server (connectionParams) hands to Yoga. */
export interface ServerContext {
  req?: IncomingMessage;
  connectionParams?: Record<string, unknown>;
  /** A WebSocket's bound, shared by its operations; an HTTP request gets one of its own. */
  eventBacklog?: EventBacklog;
}

export type ParleyYoga = YogaServerInstance<ServerContext, GraphQLContext>;

export interface ParleyYogaOptions {
  parley: Parley;
  config: Config;
  logger: Logger;
  tokens: TokenAuthenticator;
  /** False once shutdown has begun. */
  isAccepting: () => boolean;
}

/** Every HTTP route (GraphQL, /health, /ready) and every operation over HTTP or WebSocket goes through this. */
export function createParleyYoga({ parley, config, logger, tokens, isAccepting }: ParleyYogaOptions): ParleyYoga {
  return createYoga<ServerContext, GraphQLContext>({
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
    plugins: [
      useHealth(),
      useReadiness({ probes: { database: () => parley.db.ping(), redis: () => parley.bus.ping() }, isAccepting }),
      useBodyLimit({
        maxBytes: config.PARLEY_MAX_REQUEST_BYTES,
        maxMultipartBytes:
          config.PARLEY_MAX_REQUEST_BYTES + config.PARLEY_MAX_ATTACHMENTS * config.PARLEY_MAX_ATTACHMENT_BYTES,
      }),
      useOperationLimits({ maxDepth: config.PARLEY_MAX_QUERY_DEPTH, mutationsPerMinute: config.PARLEY_MUTATIONS_PER_MINUTE }),
    ],
    context: async ({ request, connectionParams, eventBacklog }) => {
      const authorization = connectionParams
        ? authorizationFromConnectionParams(connectionParams)
        : request.headers.get('authorization');
      return {
        parley,
        viewer: await tokens.authenticate(authorization),
        eventBacklog: eventBacklog ?? new EventBacklog(config.PARLEY_MAX_BUFFERED_EVENT_BYTES),
      };
    },
  });
}
