import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../rate-limits.ts';
import { describeWithServices } from '../../../test/support/backends.ts';
import { eventually, TEST_REDIS_URL } from '../../../test/support/server.ts';
import { startTcpProxy } from '../../../test/support/tcp-proxy.ts';

// The rate-limit service on its own: budgets per user and per address, per kind, shared through Redis.

const limits = (redis?: Redis, scope = randomUUID()) =>
  new RateLimits({ mutationsPerMinute: 3, queriesPerMinute: 2, scope, redis });

async function consumeTimes(rateLimits: RateLimits, times: number, ...args: Parameters<RateLimits['consume']>) {
  const answers = [];
  for (let index = 0; index < times; index++) answers.push(await rateLimits.consume(...args));
  return answers;
}

describe('RateLimits in memory', () => {
  it('admits the budget, then answers the whole seconds to wait', async () => {
    const rateLimits = limits();
    const answers = await consumeTimes(rateLimits, 4, 'mutation', { userId: 'u1' });
    expect(answers.slice(0, 3)).toEqual([null, null, null]);
    expect(answers[3]!.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(answers[3]!.retryAfterS).toBeLessThanOrEqual(60);
  });

  it('keeps users, addresses and kinds apart', async () => {
    const rateLimits = limits();
    await consumeTimes(rateLimits, 3, 'mutation', { userId: 'u1' });
    expect(await rateLimits.consume('mutation', { userId: 'u1' })).not.toBeNull();
    expect(await rateLimits.consume('mutation', { userId: 'u2' })).toBeNull();
    expect(await rateLimits.consume('mutation', { address: 'u1' })).toBeNull();
    expect(await rateLimits.consume('query', { userId: 'u1' })).toBeNull();
  });

  it('counts the points a request weighs', async () => {
    const rateLimits = limits();
    expect(await rateLimits.consume('query', { address: '10.0.0.1' }, 2)).toBeNull();
    expect(await rateLimits.consume('query', { address: '10.0.0.1' })).not.toBeNull();
  });

  it('limits in memory while Redis does not answer', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      const rateLimits = limits(unreachable);
      const answers = await consumeTimes(rateLimits, 4, 'mutation', { userId: 'u1' });
      expect(answers.map((answer) => answer === null)).toEqual([true, true, true, false]);
    } finally {
      unreachable.disconnect();
    }
  });
});

describeWithServices('RateLimits on Redis', () => {
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis(TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };

  afterAll(() => {
    for (const redis of clients) redis.disconnect();
  });

  it('two services (instances) of one scope share the budget; another scope has its own', async () => {
    const scope = randomUUID();
    const first = limits(client(), scope);
    const second = limits(client(), scope);
    await eventually(() => clients.every((redis) => redis.status === 'ready'), 10_000, 'the Redis connections');
    expect(await consumeTimes(first, 2, 'mutation', { userId: 'u1' })).toEqual([null, null]);
    expect(await second.consume('mutation', { userId: 'u1' })).toBeNull();
    expect(await second.consume('mutation', { userId: 'u1' })).not.toBeNull();
    expect(await first.consume('mutation', { userId: 'u1' })).not.toBeNull();
    const elsewhere = limits(client(), randomUUID());
    await eventually(() => clients.every((redis) => redis.status === 'ready'), 10_000, 'the Redis connections');
    expect(await elsewhere.consume('mutation', { userId: 'u1' })).toBeNull();
  });

  it('limits in memory, without waiting, while a connected Redis holds its answers back', async () => {
    const redis = new URL(TEST_REDIS_URL!);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const held = new Redis(proxy.url('redis:'), { maxRetriesPerRequest: 1 });
    clients.push(held);
    try {
      await eventually(() => held.status === 'ready', 10_000, 'the Redis connection');
      proxy.hold();
      const rateLimits = limits(held);
      // Each answer comes from the instance's own count, while the Redis connection stays open.
      const answers = await consumeTimes(rateLimits, 4, 'mutation', { userId: 'u1' });
      expect(answers.map((answer) => answer === null)).toEqual([true, true, true, false]);
      expect(held.status).toBe('ready');
    } finally {
      held.disconnect();
      await proxy.close();
    }
  });
});
