/**
 * C1's SDK floor (child process): the demo model streamed through the AI SDK's `streamText`, as
 * Parley's runtime reads it (`fullStream`, one step), N streams at once on the row's pace, and
 * nothing else: no server, no database, no subscriber. What one chunk costs here, every server
 * that streams a model through the AI SDK pays before it has done anything with the chunk.
 */
import { stepCountIs, streamText } from 'ai';
import { createDemoModel } from '../../src/models/demo/model.ts';

const model = createDemoModel();

async function stream(text: string): Promise<number> {
  const result = streamText({ model, messages: [{ role: 'user', content: text }], maxRetries: 0, stopWhen: stepCountIs(1), onError: () => {} });
  let chunks = 0;
  for await (const part of result.fullStream) if (part.type === 'text-delta') chunks++;
  return chunks;
}

async function paced(args: { streams: number; chunks: number; seconds: number }) {
  // Warm-up (JIT, the SDK's first calls): not counted.
  await Promise.all(Array.from({ length: 20 }, () => stream('/tokens 200')));
  const before = process.cpuUsage();
  const started = performance.now();
  const counts = await Promise.all(Array.from({ length: args.streams }, () => stream(`/tokens ${args.chunks} over ${args.seconds}`)));
  const cpu = process.cpuUsage(before);
  const cpuUs = cpu.user + cpu.system;
  const chunks = counts.reduce((sum, count) => sum + count, 0);
  return { chunks, cpuUsPerChunk: cpuUs / chunks, cores: cpuUs / 1000 / (performance.now() - started) };
}

process.on('message', async (message: { id: number; cmd: string; args: never }) => {
  try {
    const result = message.cmd === 'paced' ? await paced(message.args) : null;
    process.send!({ id: message.id, ok: true, result });
  } catch (error) {
    process.send!({ id: message.id, ok: false, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', pid: process.pid });
