import { describe, expect, it } from 'vitest';
import { createDemoModel } from '../../models/demo/model.ts';
import { runAgent } from '../agent-runtime.ts';

/**
 * Every copy the AI SDK splits off a model's stream (`tee`) keeps each chunk until it is read; one
 * read only at the end (what awaiting `result.response` does) costs a long reply's length in
 * memory and its square in time. The run reads the stream once.
 */
describe('a run reads the model’s stream once', () => {
  it('splits one copy off the model’s stream for a step, the one it reads', async () => {
    const original = ReadableStream.prototype.tee;
    let copies = 0;
    ReadableStream.prototype.tee = function (this: ReadableStream) {
      copies += 1;
      return original.call(this);
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
      expect(copies).toBe(1);
    } finally {
      ReadableStream.prototype.tee = original;
    }
  });
});
