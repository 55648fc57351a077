import { createHash, timingSafeEqual } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { ParleyMetrics } from '../../observability/metrics.ts';
import { clientErrorCode } from '../mask-error.ts';
import { operationLabels, type OperationLabels } from './operation-labels.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsEndpoint {
  /** False: `/metrics` is not served (404). */
  enabled: boolean;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token: string | null;
}

/** The labels of the operation each context runs, for the errors its results carry. */
type Labelled = { labels: OperationLabels; startedAt: number };

/**
 * Serves `/metrics` (Prometheus text format) and counts GraphQL operations, their duration, their
 * errors by the code the client gets, and the subscriptions open, over HTTP/SSE and WebSocket alike.
 */
export function useMetrics(metrics: ParleyMetrics, endpoint: MetricsEndpoint): Plugin {
  const countErrors = (labels: OperationLabels, errors: readonly unknown[] | undefined) => {
    for (const error of errors ?? []) metrics.graphqlErrors.inc({ ...labels, code: clientErrorCode(error) });
  };
  const beforeOperation = (error: GraphQLError, fallbackCode: string) =>
    metrics.graphqlErrors.inc({
      type: 'unknown',
      operation: 'unknown',
      code: typeof error.extensions?.code === 'string' ? error.extensions.code : fallbackCode,
    });
  const started = (document: Parameters<typeof operationLabels>[0], operationName: string | null | undefined): Labelled => {
    const labels = operationLabels(document, operationName);
    metrics.graphqlOperations.inc(labels);
    return { labels, startedAt: performance.now() };
  };
  const elapsedS = (operation: Labelled) => (performance.now() - operation.startedAt) / 1000;

  return {
    async onRequest({ request, endResponse, fetchAPI }) {
      if (!endpoint.enabled || new URL(request.url).pathname !== METRICS_PATH) return;
      if (endpoint.token !== null && !bearerMatches(request.headers.get('authorization'), endpoint.token)) {
        endResponse(
          new fetchAPI.Response('A valid PARLEY_METRICS_TOKEN is needed: Authorization: Bearer <token>.\n', {
            status: 401,
            headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' },
          }),
        );
        return;
      }
      const { contentType, body } = await metrics.exposition();
      endResponse(new fetchAPI.Response(body, { status: 200, headers: { 'content-type': contentType } }));
    },
    onParse() {
      return ({ result }) => {
        if (result instanceof Error) beforeOperation(result as GraphQLError, 'GRAPHQL_PARSE_FAILED');
      };
    },
    onValidate() {
      return ({ valid, result }) => {
        if (!valid) for (const error of result) beforeOperation(error, 'GRAPHQL_VALIDATION_FAILED');
      };
    },
    onExecute({ args }) {
      const operation = started(args.document, args.operationName);
      return {
        onExecuteDone({ result }) {
          metrics.graphqlDuration.observe(operation.labels, elapsedS(operation));
          if (!isAsyncIterable(result)) countErrors(operation.labels, result.errors);
        },
      };
    },
    onSubscribe({ args }) {
      const operation = started(args.document, args.operationName);
      // The WebSocket server hands its connection parameters to every operation's context.
      const transport = (args.contextValue as { connectionParams?: unknown }).connectionParams ? 'websocket' : 'sse';
      return {
        onSubscribeResult({ result }) {
          metrics.graphqlDuration.observe(operation.labels, elapsedS(operation));
          if (!isAsyncIterable(result)) {
            countErrors(operation.labels, result.errors);
            return undefined;
          }
          metrics.subscriptionsActive.inc({ transport });
          return {
            onNext({ result: next }) {
              countErrors(operation.labels, next.errors);
            },
            onEnd() {
              metrics.subscriptionsActive.dec({ transport });
            },
          };
        },
        onSubscribeError({ error }) {
          countErrors(operation.labels, [error]);
        },
      };
    },
  };
}

/** Compares digests, so the comparison takes the same time whatever the token sent. */
function bearerMatches(authorization: string | null, token: string): boolean {
  const sent = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(token));
}
