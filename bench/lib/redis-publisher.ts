/**
 * P1 floor publisher (child process): raw ioredis PUBLISH of TextDelta-shaped payloads, one paced
 * timer chain per channel, exactly like the demo model's /slow pacing on the Parley side.
 */
import { Redis } from 'ioredis';
import { nowMs } from './stats.ts';

const redis = new Redis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
await redis.ping();

async function run(args: { prefix: string; channels: number; rate: number; seconds: number; round: string }) {
  const interval = 1000 / args.rate;
  const count = Math.round(args.rate * args.seconds);
  const threadId = '00000000-0000-4000-8000-000000000000';
  await Promise.all(
    Array.from({ length: args.channels }, (_, channel) => {
      let offset = 0;
      return new Promise<void>((resolve) => {
        const tick = (index: number) => {
          const text = index === 0 ? 'You ' : 'x ';
          // The same shape and size as the ThreadEvent Parley publishes for a TextDelta.
          const payload = JSON.stringify({
            threadId,
            seq: null,
            executionId: '11111111-1111-4111-8111-111111111111',
            createdAt: new Date().toISOString(),
            payload: { type: 'TextDelta', messageId: '22222222-2222-4222-8222-222222222222', text, offset },
            bench: { tag: `${args.round}s${channel}`, emittedAt: nowMs() },
          });
          offset += text.length;
          void redis.publish(`${args.prefix}:${channel}`, payload);
          if (index + 1 >= count) return resolve();
          // Paced like the demo model's /slow: one setTimeout(interval) after each chunk.
          setTimeout(() => tick(index + 1), interval);
        };
        tick(0);
      });
    }),
  );
  return count * args.channels;
}

process.on('message', async (message: { id: number; cmd: string; args: never }) => {
  try {
    const result = message.cmd === 'run' ? await run(message.args) : (redis.disconnect(), setTimeout(() => process.exit(0), 20), true);
    process.send!({ id: message.id, ok: true, result });
  } catch (error) {
    process.send!({ id: message.id, ok: false, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });
