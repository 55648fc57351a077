import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging.ts';

/** An ioredis refusal as it reaches a log: the reply, with the command that got it. */
function redisRefusal(args: string[]): Error {
  return Object.assign(new Error('WRONGPASS invalid username-password pair or user is disabled.'), {
    name: 'ReplyError',
    command: { name: 'auth', args },
  });
}

describe('createLogger', () => {
  it('never writes a Redis command’s arguments (an AUTH’s password), keeping the command and the reply', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    const secret = 'the-redis-password';
    logger.warn({ err: redisRefusal([secret]) }, 'Redis is unreachable');
    const cluster = Object.assign(new Error('Failed to refresh slots cache.'), { lastNodeError: redisRefusal(['parley', secret]) });
    logger.warn({ err: cluster }, 'the Redis Cluster is unreachable');
    const cause = new Error('subscribing failed', { cause: redisRefusal([secret]) });
    logger.debug({ err: cause }, 'a Redis Cluster node failed');

    expect(lines).toHaveLength(3);
    const written = lines.join('');
    expect(written).not.toContain(secret);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first.err).toMatchObject({ message: expect.stringContaining('WRONGPASS'), command: { name: 'auth', args: '[redacted]' } });
    expect(second.err.lastNodeError.command).toEqual({ name: 'auth', args: '[redacted]' });
  });
});
