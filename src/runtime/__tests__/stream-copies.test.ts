import { describe, expect, it } from 'vitest';
import { createDemoModel } from '../../models/demo/model.ts';
import { runAgent } from '../agent-runtime.ts';

/**
 * Every copy the AI SDK splits off a model's stream (`tee`) keeps each chunk until it is read; one
 * read only at the end (what awaiting `result.response` does) costs a long reply's length in
 * memory and its square in time. The run reads the stream once and lets the SDK's copy go.
 */
describe('a run reads the model’s stream once', () => {
  it('splits one copy off the model’s stream for a step, reads it, and releases the copy the SDK kept', async () => {
    const original = ReadableStream.prototype.tee;
    const kept: ReadableStream[] = [];
    ReadableStream.prototype.tee = function (this: ReadableStream) {
      const branches = original.call(this);
      kept.push(branches[1]);
      return branches;
    } as typeof original;
    try {
      let chunks = 0;
      const result = await runAgent({
        model: createDemoModel('default'),
        provider: 'demo',
        system: '',
        messages: [{ role: 'user', content: '/tokens 50' }],
        tools: {},
        signal: new AbortController().signal,
        retryPolicy: { maxAttempts: 1, baseDelayS: 0.001, maxDelayS: 0.01, deadlineS: 10 },
        maxSteps: 2,
        emit: async (event) => {
          if (event.type === 'text-delta') chunks += 1;
        },
      });
      expect(result.outcome).toBe('COMPLETED');
      expect(chunks).toBe(50);
      expect(kept).toHaveLength(1);
    } finally {
      ReadableStream.prototype.tee = original;
    }
    // Released, it holds none of the reply's chunks: it reads as ended at once.
    expect(await kept[0]!.getReader().read()).toEqual({ done: true, value: undefined });
  });
});
