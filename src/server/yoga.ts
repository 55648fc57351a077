import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { schema } from '../schema/index.ts';
import { createGraphiQLRenderer, graphiqlOptions } from './graphiql.ts';
import { maskError } from './mask-error.ts';
import type { Parley } from '../parley.ts';
import { useAttachmentDownload } from './plugins/use-attachment-download.ts';
import { useDocumentLimits } from './plugins/use-document-limits.ts';
import type { CostWeights } from './plugins/operation-cost.ts';
import { useGraphiQLContentSecurityPolicy } from './plugins/use-graphiql-csp.ts';
import { useGraphiQLDelivery } from './plugins/use-graphiql-delivery.ts';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useHealth } from './plugins/use-health.ts';
import { useInputHygiene } from './plugins/use-input-hygiene.ts';
import { useRateLimits } from './plugins/use-rate-limits.ts';
import { useReadiness } from './plugins/use-readiness.ts';
import { useSchemaDisclosure } from './plugins/use-schema-disclosure.ts';
import { useWebApp } from './plugins/use-web-app.ts';
import { useShareLinks } from './plugins/use-share-links.ts';
import { useMetrics, type MetricsEndpoint } from './plugins/use-metrics.ts';
import { useRequestId } from './plugins/use-request-id.ts';
import { useTracing } from './plugins/use-tracing.ts';
import { useUploadAuthentication } from './plugins/use-upload-authentication.ts';
import { StreamsPerUser, useSubscriptionsPerUser } from './plugins/use-subscriptions-per-user.ts';
import { useAgUi } from './plugins/use-ag-ui.ts';
import type { LimitReporter } from './connection-limits.ts';
import { requestContextFactory, slowReaderDropped, type ServerContext, type YogaContext } from './request-context.ts';
import { useSharedEventResults, type SharedEventResults } from './plugins/use-shared-event-results.ts';
import { useStreamSignIn } from './plugins/use-stream-sign-in.ts';
import { useThreadExportDownload } from './plugins/use-thread-export-download.ts';

export type ParleyYoga = YogaServerInstance<ServerContext, YogaContext>;

export interface ParleyYogaOptions {
  parley: Parley;
  config: Config;
  logger: Logger;
  /** False once shutdown has begun. */
  isAccepting: () => boolean;
  /** Told each time a limit refuses an operation. */
  limits: LimitReporter;
  /** The server's live-event results, executed once per selection (its WebSocket server serializes them once). */
  sharedResults: SharedEventResults;
}

/** Every HTTP route (GraphQL, /health, /ready, the web chat at /) and every operation over HTTP or WebSocket goes through this. */
export function createParleyYoga({ parley, config, logger, isAccepting, limits, sharedResults }: ParleyYogaOptions): ParleyYoga {
  const streams = new StreamsPerUser(config.PARLEY_MAX_SUBSCRIPTIONS_PER_USER, () => limits.hit('subscriptions_per_user'));
  const identify = (authorization: string | null) => parley.authenticator.identify(authorization);
  return createYoga<ServerContext, YogaContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: graphiqlEnabled(config) ? graphiqlOptions : false,
    renderGraphiQL: createGraphiQLRenderer(),
    cors: corsPolicy(config.PARLEY_CORS_ORIGINS),
    // The HTTP server counts body bytes as they arrive (request-body-limit.ts); this only keeps
    // Yoga's own default (25 MB) from refusing what that allows.
    maxRequestBodySize: maxMultipartBytes(config),
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
      useRequestId(),
      useMetrics(parley.metrics, metricsEndpoint(config)),
      useTracing(parley.tracing),
      useHealth(),
      useShareLinks({ sharing: parley.services.sharing, rateLimits: parley.services.rateLimits, webApp: config.PARLEY_WEB }),
      ...(config.PARLEY_WEB ? [useWebApp({ tokenUrl: config.PARLEY_WEB_TOKEN_URL })] : []),
      useGraphiQLContentSecurityPolicy(),
      useGraphiQLDelivery('/graphql'),
      useCorsWildcard(config.PARLEY_CORS_ORIGINS),
      // A browser sends a cross-site form or multipart POST, or a GET, without asking (no
      // preflight); such a request must carry a header no page can set without asking.
      // Authorization is one: every signed-in client sends it.
      useCSRFPrevention({ requestHeaders: CSRF_HEADERS }),
      useUploadAuthentication({ identify: (authorization) => parley.authenticator.identify(authorization) }),
      useReadiness({ probes: { database: () => parley.db.ping(), redis: () => parley.bus.ping() }, isAccepting, role: parley.role }),
      useSchemaDisclosure({ introspection: config.PARLEY_INTROSPECTION }),
      useDocumentLimits({
        maxTokens: config.PARLEY_MAX_TOKENS,
        maxDepth: config.PARLEY_MAX_QUERY_DEPTH,
        maxAliases: config.PARLEY_MAX_ALIASES,
        maxDirectives: config.PARLEY_MAX_DIRECTIVES,
        maxCost: config.PARLEY_MAX_QUERY_COST,
        costWeights: costWeights(config),
      }),
      useRateLimits(parley.services.rateLimits),
      useSubscriptionsPerUser(streams),
      useAgUi({
        identify,
        agUi: parley.agUi,
        rateLimits: parley.services.rateLimits,
        streams,
        signedIn: parley.signedInStreams,
        subscriptionsActive: parley.metrics.subscriptionsActive,
        maxBufferedBytes: config.PARLEY_MAX_BUFFERED_EVENT_BYTES,
        onSlowReaderDrop: slowReaderDropped(parley),
      }),
      useAttachmentDownload({
        identify: (authorization) => parley.authenticator.identify(authorization),
        load: (user, attachmentId) => parley.services.conversations.attachment(user, attachmentId),
      }),
      useThreadExportDownload({
        identify: (authorization) => parley.authenticator.identify(authorization),
        exportThread: (user, threadId, format) => parley.services.transfer.exportThread(user, threadId, format),
      }),
      useInputHygiene(),
      useSharedEventResults(sharedResults),
      useStreamSignIn({ streams: parley.signedInStreams }),
    ],
    context: requestContextFactory({ parley, config, logger }),
  });
}

/** A request that a browser would send without a preflight passes Yoga's CSRF prevention with one of these. */
export const CSRF_HEADERS = ['authorization', 'x-graphql-yoga-csrf', 'graphql-require-preflight', 'apollo-require-preflight'];

/** GraphiQL is on by default in the embedded mode; with PostgreSQL (a deployment) only when PARLEY_GRAPHIQL=true. */
export function graphiqlEnabled(config: Config): boolean {
  return config.PARLEY_GRAPHIQL ?? !config.DATABASE_URL;
}

/**
 * With `*`, the CORS answer is `*`: the CORS library would echo the request's Origin instead (even
 * `null`, which sandboxed frames send), which tells caches and readers nothing `*` does not.
 */
function useCorsWildcard(origins: '*' | string[]): Plugin {
  return {
    onResponse({ response }) {
      if (origins !== '*' || !response.headers.has('access-control-allow-origin')) return;
      response.headers.set('access-control-allow-origin', '*');
      const vary = (response.headers.get('vary') ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name && name.toLowerCase() !== 'origin');
      if (vary.length) response.headers.set('vary', vary.join(', '));
      else response.headers.delete('vary');
    },
  };
}

/**
 * `/metrics` is on by default in the embedded mode; with PostgreSQL (a deployment, reachable by
 * others) it is served only with PARLEY_METRICS_TOKEN set, or when PARLEY_METRICS=true says so.
 */
export function metricsEndpoint(config: Config): MetricsEndpoint {
  const token = config.PARLEY_METRICS_TOKEN ?? null;
  const enabled = config.PARLEY_METRICS ?? (!config.DATABASE_URL || token !== null);
  return { enabled, token };
}

/**
 * The largest page a connection serves (Conversation.messages) and the most items each unpaged
 * list of objects can have: its setting where one bounds it, else the size it is expected to stay
 * within (no setting caps a reply's parts, a user's projects, a project's agents or a user's
 * tokens). A test fails on a list field of the schema that has neither paging nor an entry here.
 */
export function costWeights(config: Config): CostWeights {
  const estimated = 10;
  return {
    maxPageSize: 200,
    unpagedListSize: estimated,
    listBounds: {
      'Queue.items': config.PARLEY_MAX_QUEUED_PER_THREAD,
      // A user message has its text and its attachments; no setting caps a reply's parts (its
      // steps' text, reasoning and tool calls), of which the running reply is a snapshot.
      'Message.parts': Math.max(1 + config.PARLEY_MAX_ATTACHMENTS, estimated),
      'MessageSnapshot.parts': estimated,
      // One per suspended execution of the thread: its run and the runs it delegated to.
      'Conversation.openSuspensions': estimated,
      'Project.agents': estimated,
      'User.projects': estimated,
      'User.apiTokens': estimated,
      'Project.toolServers': estimated,
      'Agent.toolApprovals': estimated,
      // As many as the server lists (Parley reads at most 1,000).
      'ToolServer.tools': 50,
      // The operators' prices (a few dozen models) and at most MAX_NAMED_MODELS named ones.
      'Query.modelPrices': 50,
      // At most MAX_USAGE_ROWS rows; a report is mostly a month by day, or a few users or models.
      'Query.usage': estimated * 5,
      // A few per project: all agents or one, shared or per user, by day or by month.
      'Project.budgets': estimated,
      // A snippet's parts are its matched words and the text between them, in about 220 characters
      // (searchThreads itself is paged: its `first` counts).
      'SearchSnippet.parts': estimated,
      // A thread is shared a few times; a snapshot's messages are a path (a long one is read whole,
      // like a conversation's page) and their parts a message's.
      'Thread.shareLinks': estimated,
      'ThreadSnapshot.messages': 200,
      'SnapshotMessage.parts': Math.max(1 + config.PARLEY_MAX_ATTACHMENTS, estimated),
    },
  };
}

/** The largest HTTP body: a multipart request may add its attachments to PARLEY_MAX_REQUEST_BYTES. */
export function maxMultipartBytes(config: Config): number {
  return config.PARLEY_MAX_REQUEST_BYTES + config.PARLEY_MAX_ATTACHMENTS * config.PARLEY_MAX_ATTACHMENT_BYTES;
}

/**
 * Clients authenticate with a bearer token, never a cookie, so no origin is ever allowed
 * credentials; `*` lets any page call the API with a token it holds, a list only those origins.
 * A listed origin is echoed back; any other gets no CORS headers at all (not `null`, which
 * sandboxed frames would match).
 */
function corsPolicy(origins: '*' | string[]) {
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (origins === '*') return { origin: '*', credentials: false };
    if (origin && origins.includes(origin)) return { origin: [origin], credentials: false };
    return false as const;
  };
}
