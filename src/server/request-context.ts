import type { IncomingMessage } from 'node:http';
import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { authorizationFromConnectionParams } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import { SiblingBatch } from '../conversation/conversation-service.ts';
import { EventBacklog } from '../events/event-backlog.ts';
import { streamThreadEvents } from '../events/run-event-stream.ts';
import type { RunEvent } from '../events/subscriber-ledger.ts';
import { observeDelivery } from '../observability/delivery.ts';
import { currentRequestId, requestIdFrom } from '../observability/request-id.ts';
import type { Parley } from '../parley.ts';
import type { GraphQLContext, SchemaServices } from '../schema/context.ts';

/** What the HTTP server (req) or the WebSocket server (connectionParams) hands to Yoga. */
export interface ServerContext {
  req?: IncomingMessage;
  connectionParams?: Record<string, unknown>;
  /** A WebSocket's bound, shared by its operations; an HTTP request gets one of its own. */
  eventBacklog?: EventBacklog;
  /** A WebSocket operation's own id (an HTTP request's comes from the request scope). */
  requestId?: string;
  /** A WebSocket's peer address (its upgrade request is not kept); an HTTP request has `req`. */
  remoteAddress?: string;
}

/** The context Yoga makes per request: the schema's, and what only the server's plugins read. */
export interface YogaContext extends GraphQLContext {
  /** When a subscription of this HTTP (SSE) request must end: its JWT's `exp`. Null for API tokens and on a WebSocket, which is closed instead. */
  streamDeadline: number | null;
}

type ThreadEventsOn = (options: { threadId: string; after: string | null; backlog: EventBacklog }) => AsyncIterableIterator<RunEvent>;

/**
 * Makes each request's context: who signs in, the request's own loaders and bound, and the
 * services, built once here from the instance (resolvers never see the instance itself).
 */
export function requestContextFactory({ parley, config, logger }: { parley: Parley; config: Config; logger: Logger }) {
  const services = schemaServices(parley);
  const threadEventsOn = threadEventStreams(parley);
  return async ({ request, connectionParams, eventBacklog, requestId: operationRequestId }: ServerContext & YogaInitialContext): Promise<YogaContext> => {
    const requestId = operationRequestId ?? currentRequestId() ?? requestIdFrom(undefined);
    const authorization = connectionParams ? authorizationFromConnectionParams(connectionParams) : request.headers.get('authorization');
    const { user, refusal, expiresAt, admin } = await parley.authenticator.identify(authorization);
    const backlog = eventBacklog ?? new EventBacklog(config.PARLEY_MAX_BUFFERED_EVENT_BYTES, undefined, slowReaderDropped(parley));
    return {
      viewer: user,
      viewerRefusal: refusal,
      admin: user !== null && admin,
      streamDeadline: connectionParams ? null : expiresAt,
      loader: parley.db.prisma,
      siblings: new SiblingBatch(services.conversations),
      threadEvents: ({ threadId, after }) => threadEventsOn({ threadId, after, backlog }),
      services,
      requestId,
      logger: logger.child({ requestId }),
    };
  };
}

/** What resolvers may call: the domain services, not the instance. */
function schemaServices(parley: Parley): SchemaServices {
  const { tools, ...services } = parley.services;
  return { ...services, tracing: parley.tracing, toolServers: tools, currency: parley.currency };
}

/** A subscriber's stream of a thread's events, counted as it is delivered. */
function threadEventStreams(parley: Parley): ThreadEventsOn {
  return ({ threadId, after, backlog }) =>
    observeDelivery(
      streamThreadEvents({
        prisma: parley.db.prisma,
        sql: parley.db.sql,
        bus: parley.bus,
        running: parley.execution.running,
        threadId,
        after,
        liveChannelTimeoutMs: parley.config.PARLEY_LIVE_CHANNEL_TIMEOUT_MS,
        backlog,
      }),
      parley.metrics,
    );
}

/** Counts a subscription whose reader fell past the bound and had its waiting events dropped. */
export function slowReaderDropped(parley: Parley): () => void {
  return () => parley.metrics.slowReadersDropped.inc();
}
