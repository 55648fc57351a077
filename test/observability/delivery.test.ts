import { describe, expect, it } from 'vitest';
import { EventBacklog } from '../../src/events/event-backlog.ts';
import type { RunEvent } from '../../src/events/subscriber-ledger.ts';
import { observeDelivery } from '../../src/observability/delivery.ts';
import { ParleyMetrics } from '../../src/observability/metrics.ts';
import { valueOf } from './prometheus.ts';

function event(seq: number | null, payload: RunEvent['payload'], createdAt: Date): RunEvent {
  const record = { threadId: 't', seq, executionId: 'e', parentExecutionId: null, createdAt: createdAt.toISOString(), payload };
  return { ...record, cursor: String(seq ?? '0.1'), origin: record };
}

async function* source(events: RunEvent[]) {
  yield* events;
}

describe('delivery metrics', () => {
  it('counts what a subscription hands out by kind, and the lag of streamed chunks only', async () => {
    const metrics = new ParleyMetrics();
    const emitted = new Date(Date.now() - 2_000);
    const delivered = observeDelivery(
      source([
        event(1, { type: 'QueueUpdated' }, emitted),
        event(null, { type: 'TextDelta', messageId: 'm', text: 'Hi', offset: 0 }, emitted),
        event(null, { type: 'ReasoningDelta', messageId: 'm', text: 'hm', offset: 0 }, emitted),
        event(null, { type: 'MessageSnapshot', messageId: 'm', parts: [], textLength: 0 }, emitted),
      ]),
      metrics,
    );
    const seen = [];
    for await (const item of delivered) seen.push(item.payload.type);
    expect(seen).toEqual(['QueueUpdated', 'TextDelta', 'ReasoningDelta', 'MessageSnapshot']);
    const text = await metrics.registry.getSingleMetricAsString('parley_events_delivered_total');
    expect(valueOf(text, 'parley_events_delivered_total', { kind: 'durable' })).toBe(1);
    expect(valueOf(text, 'parley_events_delivered_total', { kind: 'live' })).toBe(2);
    expect(valueOf(text, 'parley_events_delivered_total', { kind: 'snapshot' })).toBe(1);
    const lag = await metrics.registry.getSingleMetricAsString('parley_delivery_lag_seconds');
    expect(valueOf(lag, 'parley_delivery_lag_seconds_count')).toBe(2);
    // Both chunks waited about two seconds: none falls in the buckets below one second.
    expect(valueOf(lag, 'parley_delivery_lag_seconds_bucket', { le: '1' })).toBe(0);
    expect(valueOf(lag, 'parley_delivery_lag_seconds_bucket', { le: '2.5' })).toBe(2);
  });

  it('a backlog refusing an event reports the overflow (a slow reader’s drop)', () => {
    let overflows = 0;
    const backlog = new EventBacklog(1_000, () => 600, () => (overflows += 1));
    expect(backlog.tryHold(300)).toBe(true);
    expect(overflows).toBe(0);
    expect(backlog.tryHold(300)).toBe(false);
    expect(overflows).toBe(1);
  });
});
