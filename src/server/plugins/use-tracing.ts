import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ATTR_REQUEST_ID, type ParleyTracing } from '../../observability/tracing.ts';
import { operationLabels } from './operation-labels.ts';

/**
 * Each GraphQL operation is a span (`query viewer`, `mutation sendMessage`, `subscription
 * runEvents` until its stream is set up) carrying the request id; resolvers run inside it, so a
 * message queued by `sendMessage` remembers it as the origin of its turn's trace.
 */
export function useTracing(tracing: ParleyTracing): Plugin {
  if (!tracing.enabled) return {};
  const start = (document: Parameters<typeof operationLabels>[0], operationName: string | null | undefined, contextValue: unknown) => {
    const labels = operationLabels(document, operationName);
    const requestId = (contextValue as { requestId?: string }).requestId;
    return tracing.tracer.startSpan(`${labels.type} ${labels.operation}`, {
      kind: SpanKind.SERVER,
      attributes: {
        'graphql.operation.type': labels.type,
        ...(operationName ? { 'graphql.operation.name': operationName } : {}),
        ...(requestId ? { [ATTR_REQUEST_ID]: requestId } : {}),
      },
    });
  };
  const finish = (span: ReturnType<typeof start>, errors: readonly { message: string }[] | undefined) => {
    if (errors?.length) span.setStatus({ code: SpanStatusCode.ERROR, message: errors[0]!.message });
    span.end();
  };
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const span = start(args.document, args.operationName, args.contextValue);
      setExecuteFn((executeArgs) => context.with(trace.setSpan(context.active(), span), () => executeFn(executeArgs)));
      return {
        onExecuteDone({ result }) {
          finish(span, isAsyncIterable(result) ? undefined : result.errors);
        },
      };
    },
    onSubscribe({ args, subscribeFn, setSubscribeFn }) {
      const span = start(args.document, args.operationName, args.contextValue);
      setSubscribeFn((subscribeArgs) => context.with(trace.setSpan(context.active(), span), () => subscribeFn(subscribeArgs)));
      return {
        onSubscribeResult({ result }) {
          finish(span, isAsyncIterable(result) ? undefined : result.errors);
        },
        onSubscribeError({ error }) {
          finish(span, [error as Error]);
        },
      };
    },
  };
}
