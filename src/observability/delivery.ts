import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { ParleyMetrics } from './metrics.ts';

const STREAMED_CHUNKS = new Set(['TextDelta', 'ReasoningDelta']);

/**
 * A subscriber's events as they leave its stream for the socket: counted by kind, and for
 * streamed chunks the time since the runtime emitted them (their `createdAt`) observed as the
 * delivery lag. Not an async generator, whose return() would wait for the next event.
 */
export function observeDelivery(
  events: AsyncIterableIterator<RunEvent>,
  metrics: ParleyMetrics,
): AsyncIterableIterator<RunEvent> {
  return {
    async next() {
      const result = await events.next();
      if (!result.done) record(result.value, metrics);
      return result;
    },
    return: (value?: unknown) => events.return!(value),
    throw: (error?: unknown) => events.throw!(error),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function record(event: RunEvent, metrics: ParleyMetrics): void {
  const type = event.payload.type;
  metrics.eventsDeliveredOf[event.seq !== null ? 'durable' : type === 'MessageSnapshot' ? 'snapshot' : 'live'].inc();
  if (event.seq === null && STREAMED_CHUNKS.has(type)) {
    metrics.deliveryLag.observe(Math.max(0, (Date.now() - Date.parse(event.createdAt)) / 1000));
  }
}
