import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveBus, type InstanceMessage, type LiveBus } from '../../src/events/live-bus.ts';
import type { ThreadEvent } from '../../src/events/thread-event.ts';
import { describeWithServices } from '../support/backends.ts';
import { eventually, TEST_REDIS_URL } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';


function queuedEvent(threadId: string, seq: number): ThreadEvent {
  return {
    threadId,
    seq,
    executionId: null,
    parentExecutionId: null,
    createdAt: new Date().toISOString(),
    payload: { type: 'QueueUpdated' },
  };
}

/** Listens to a thread: what arrived so far, and how to stop. */
function listen(bus: LiveBus, threadId: string) {
  const received: ThreadEvent[] = [];
  const stop = bus.subscribeThread(threadId, (event) => received.push(event));
  return { received, stop };
}

async function subscriberCount(channel: string): Promise<number> {
  const client = new Redis(TEST_REDIS_URL!);
  try {
    const reply = (await client.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
    return Number(reply[1]);
  } finally {
    client.disconnect();
  }
}

describe('the in-memory live bus', () => {
  it('hands each event of a thread to every listener of that thread, in order, until it stops', () => {
    const bus = createLiveBus(undefined, pino({ level: 'silent' }));
    const first = listen(bus, 'thread-a');
    const second = listen(bus, 'thread-a');
    const other = listen(bus, 'thread-b');
    bus.publishThreadEvents([queuedEvent('thread-a', 1), queuedEvent('thread-a', 2)]);
    expect(first.received.map((event) => event.seq)).toEqual([1, 2]);
    expect(second.received).toEqual(first.received);
    expect(other.received).toEqual([]);
    first.stop();
    bus.publishThreadEvents([queuedEvent('thread-a', 3)]);
    expect(first.received).toHaveLength(2);
    expect(second.received.map((event) => event.seq)).toEqual([1, 2, 3]);
    second.stop();
    other.stop();
  });

  it('hands an announced instance message to its listeners before the announcement returns', async () => {
    const bus = createLiveBus(undefined, pino({ level: 'silent' }));
    const heard: InstanceMessage[] = [];
    const stop = bus.onInstanceMessage((message) => heard.push(message));
    await bus.announceToInstances({ kind: 'token-revoked', tokenId: 't1' });
    expect(heard).toEqual([{ kind: 'token-revoked', tokenId: 't1' }]);
    expect(await bus.instanceMessagesHeard()).toBe(true);
    stop();
    bus.relayToInstances({ kind: 'cancel', executionId: 'e1' });
    expect(heard).toHaveLength(1);
  });
});

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

  async function publishDirectly(event: ThreadEvent): Promise<number> {
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
    const listener = listen(bus, threadId);
    cleanup.push(listener.stop);
    proxy.release();
    await bus.threadChannelReady(threadId, 10_000);
    const event = queuedEvent(threadId, 1);
    expect(await publishDirectly(event)).toBe(1);
    await eventually(() => listener.received.length === 1, 10_000, 'the published event');
    expect(listener.received).toEqual([event]);
  });

  it('a thread whose SUBSCRIBE is not confirmed within the bound is reported unavailable, not ready', async () => {
    const { bus } = await busBehindProxy();
    const threadId = `unconfirmed-${Date.now()}`;
    cleanup.push(listen(bus, threadId).stop);
    await expect(bus.threadChannelReady(threadId, 300)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      retryAfterS: 1,
    });
  });

  it('after a reconnect, channels are subscribed again before subscribers are told to catch up', async () => {
    const { bus, proxy } = await busBehindProxy();
    proxy.release();
    const threadId = `reconnect-${Date.now()}`;
    const { received, stop } = listen(bus, threadId);
    cleanup.push(stop);
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

  it('holds one channel per thread however many listen, fans each event out to all, and releases it with the last', async () => {
    const bus = createLiveBus(TEST_REDIS_URL!, pino({ level: 'silent' }));
    cleanup.push(() => bus.close());
    const threadId = `fan-out-${Date.now()}`;
    const channel = `thread:${threadId}`;
    const listeners = [listen(bus, threadId), listen(bus, threadId), listen(bus, threadId)];
    await bus.threadChannelReady(threadId, 10_000);
    expect(await subscriberCount(channel)).toBe(1);

    const event = queuedEvent(threadId, 1);
    expect(await publishDirectly(event)).toBe(1);
    await eventually(() => listeners.every((listener) => listener.received.length === 1), 10_000, 'every listener to get the event');
    // Decoded once: every listener holds the same object.
    expect(new Set(listeners.map((listener) => listener.received[0])).size).toBe(1);
    expect(listeners[0]!.received[0]).toEqual(event);

    listeners[0]!.stop();
    listeners[1]!.stop();
    // Stopping twice changes nothing.
    listeners[1]!.stop();
    expect(await subscriberCount(channel)).toBe(1);
    expect(await publishDirectly(queuedEvent(threadId, 2))).toBe(1);
    await eventually(() => listeners[2]!.received.length === 2, 10_000, 'the remaining listener to get the event');
    expect(listeners[0]!.received).toHaveLength(1);

    listeners[2]!.stop();
    await eventually(async () => (await subscriberCount(channel)) === 0, 10_000, 'the channel to be released');

    // A thread listened to again gets its channel back.
    const again = listen(bus, threadId);
    cleanup.push(again.stop);
    await bus.threadChannelReady(threadId, 10_000);
    expect(await subscriberCount(channel)).toBe(1);
  });

  it('says every instance message published before the question has reached the listeners only once it has', async () => {
    const { bus, proxy } = await busBehindProxy();
    // The machine's Redis is shared with other suites' servers, which announce on the same channel: only this test's message counts.
    const revocation: InstanceMessage = { kind: 'token-revoked', tokenId: `t-${Date.now()}-${Math.random()}` };
    const heard: InstanceMessage[] = [];
    cleanup.push(
      bus.onInstanceMessage((message) => {
        if (message.kind === 'token-revoked' && message.tokenId === revocation.tokenId) heard.push(message);
      }),
    );
    // In the handshake it cannot know.
    expect(await bus.instanceMessagesHeard()).toBe(false);
    proxy.release();
    await eventually(() => bus.instanceMessagesHeard(), 10_000, 'the instance channel to be confirmed');

    // Published by another instance; the delivery to this one is held up on the way.
    proxy.hold();
    const publisher = new Redis(TEST_REDIS_URL!);
    cleanup.push(() => publisher.disconnect());
    expect(await publisher.publish('instance:all', JSON.stringify(revocation))).toBeGreaterThanOrEqual(1);
    let heardWhenAnswered = -1;
    const answer = bus.instanceMessagesHeard().then((result) => {
      heardWhenAnswered = heard.length;
      return result;
    });
    await eventually(() => proxy.sent('ping') === 1, 10_000, 'the PING to go out');
    expect(heard).toEqual([]);
    proxy.release();
    expect(await answer).toBe(true);
    expect(heardWhenAnswered).toBe(1);
    expect(heard).toEqual([revocation]);

    // No answer within its bound: it cannot know.
    proxy.hold();
    expect(await bus.instanceMessagesHeard()).toBe(false);
    proxy.release();
    // Redis away: it cannot know either.
    proxy.refuse();
    proxy.cut();
    expect(await bus.instanceMessagesHeard()).toBe(false);
  });

  it('subscribes to queue kicks only once this instance consumes them, and then hears them', async () => {
    const { bus, proxy } = await busBehindProxy();
    proxy.release();
    await eventually(() => bus.instanceMessagesHeard(), 10_000, 'the instance channel to be confirmed');
    expect(proxy.sent('queue-kick')).toBe(0);

    const kicks = bus.queueKicks();
    cleanup.push(async () => {
      await kicks.return?.();
    });
    // Other suites' servers kick on the machine's Redis too: only this test's thread counts.
    const threadId = `kicked-${Date.now()}-${Math.random()}`;
    const heard: string[] = [];
    void (async () => {
      for await (const kick of kicks) if (kick.threadId === threadId) heard.push(kick.threadId);
    })();
    const publisher = new Redis(TEST_REDIS_URL!);
    cleanup.push(() => publisher.disconnect());
    // A kick published before the SUBSCRIBE is confirmed is not heard, so it is sent until one is.
    await eventually(
      async () => {
        await publisher.publish('queue-kick', JSON.stringify({ threadId }));
        return heard.length > 0;
      },
      10_000,
      'a kick to be heard',
    );
    expect(proxy.sent('queue-kick', 'subscribe')).toBe(1);
  });
});
