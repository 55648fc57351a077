import type { IncomingMessage } from 'node:http';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { TokenAuthenticator } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { schema } from '../schema/index.ts';
import { createGraphiQLRenderer, graphiqlOptions } from './graphiql.ts';
import { maskError } from './mask-error.ts';
import type { Parley } from '../parley.ts';
import { useBodyLimit } from './plugins/use-body-limit.ts';
import { useGraphiQLContentSecurityPolicy } from './plugins/use-graphiql-csp.ts';
import { useHealth } from './plugins/use-health.ts';
import { useOperationLimits } from './plugins/use-operation-limits.ts';
import { useReadiness } from './plugins/use-readiness.ts';

/** What the HTTP server (req) or the WebSocket server (connectionParams) hands to Yoga. */
export interface ServerContext {
  req?: IncomingMessage;
  connectionParams?: Record<string, unknown>;
}

export type ParleyYoga = YogaServerInstance<ServerContext, GraphQLContext>;

export interface ParleyYogaOptions {
  parley: Parley;
  config: Config;
  logger: Logger;
  /** False once shutdown has begun. */
  isAccepting: () => boolean;
}

/** Every HTTP route (GraphQL, /health, /ready) and every operation over HTTP or WebSocket goes through this. */
export function createParleyYoga({ parley, config, logger, isAccepting }: ParleyYogaOptions): ParleyYoga {
  const tokens = new TokenAuthenticator(parley.db.prisma);
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: graphiqlOptions,
    renderGraphiQL: createGraphiQLRenderer(),
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
      useGraphiQLContentSecurityPolicy(),
      useReadiness({ probes: { database: () => parley.db.ping(), redis: () => parley.bus.ping() }, isAccepting }),
      useBodyLimit({
        maxBytes: config.PARLEY_MAX_REQUEST_BYTES,
        maxMultipartBytes:
          config.PARLEY_MAX_REQUEST_BYTES + config.PARLEY_MAX_ATTACHMENTS * config.PARLEY_MAX_ATTACHMENT_BYTES,
      }),
      useOperationLimits({ maxDepth: config.PARLEY_MAX_QUERY_DEPTH, mutationsPerMinute: config.PARLEY_MUTATIONS_PER_MINUTE }),
    ],
    context: async ({ request, connectionParams }) => {
      const authorization = connectionParams
        ? (connectionParams.authorization ?? connectionParams.Authorization ?? connectionParams.token)
        : request.headers.get('authorization');
      return { parley, viewer: await tokens.authenticate(authorization) };
    },
  });
}
