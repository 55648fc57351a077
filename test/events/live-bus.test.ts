import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { createLiveBus, type LiveBus } from '../../src/events/live-bus.ts';
import type { RunEventRecord } from '../../src/events/run-event.ts';
import { describeWithServices } from '../support/backends.ts';
import { eventually, TEST_REDIS_URL } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';


function queuedEvent(threadId: string, seq: number): RunEventRecord {
  return {
    threadId,
    seq,
    executionId: null,
    parentExecutionId: null,
    createdAt: new Date().toISOString(),
    payload: { type: 'QueueUpdated' },
  };
}

describeWithServices('the Redis live bus', () => {
  const cleanup: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function busBehindProxy(): Promise<{ bus: LiveBus; proxy: TcpProxy }> {
    const target = new URL(TEST_REDIS_URL!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    cleanup.push(() => proxy.close());
    // The handshake's replies are held back: both connections stay in ioredis' 'connect' state.
    proxy.hold();
    const bus = createLiveBus(proxy.url('redis:'), pino({ level: 'silent' }));
    cleanup.push(() => bus.close());
    await eventually(() => proxy.sent('setinfo') === 2, 10_000, 'both connections to be in their handshake');
    return { bus, proxy };
  }

  async function publishDirectly(event: RunEventRecord): Promise<number> {
    const publisher = new Redis(TEST_REDIS_URL!);
    try {
      return await publisher.publish(`thread:${event.threadId}`, JSON.stringify(event));
    } finally {
      publisher.disconnect();
    }
  }

  it('a thread subscribed during the connection handshake receives what is published once it is confirmed', async () => {
    const { bus, proxy } = await busBehindProxy();
    const threadId = `handshake-${Date.now()}`;
    const events = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
    const first = events.next();
    cleanup.push(() => events.return?.());
    proxy.release();
    await bus.threadChannelReady(threadId, 10_000);
    const event = queuedEvent(threadId, 1);
    expect(await publishDirectly(event)).toBe(1);
    expect((await first).value).toEqual(event);
  });

  it('a thread whose SUBSCRIBE is not confirmed within the bound is reported unavailable, not ready', async () => {
    const { bus } = await busBehindProxy();
    const threadId = `unconfirmed-${Date.now()}`;
    const events = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
    void events.next();
    cleanup.push(() => events.return?.());
    await expect(bus.threadChannelReady(threadId, 300)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      retryAfterS: 1,
    });
  });

  it('after a reconnect, channels are subscribed again before subscribers are told to catch up', async () => {
    const { bus, proxy } = await busBehindProxy();
    proxy.release();
    const threadId = `reconnect-${Date.now()}`;
    const events = bus.pubsub.subscribe('thread', threadId)[Symbol.asyncIterator]();
    const received: RunEventRecord[] = [];
    const pump = (async () => {
      for (;;) {
        const next = await events.next();
        if (next.done) return;
        received.push(next.value);
      }
    })();
    cleanup.push(async () => {
      await events.return?.();
      await pump;
    });
    await bus.threadChannelReady(threadId, 10_000);
    let outages = 0;
    let published = -1;
    const caughtUp = new Promise<void>((resolve) =>
      bus.onResync(() => {
        // At this moment the channel must already receive: whatever is published now arrives.
        void publishDirectly(queuedEvent(threadId, 2)).then((count) => {
          published = count;
          resolve();
        });
      }),
    );
    bus.onOutage(() => outages++);
    proxy.cut();
    await caughtUp;
    expect(outages).toBe(1);
    expect(published).toBe(1);
    await eventually(() => received.length === 1, 10_000, 'the event published at resync');
    expect(received[0]).toMatchObject({ seq: 2 });
  });
});
