import { expect, it } from 'vitest';
import { ModelContext } from '../model-context.ts';

it('takes the agent’s window, else the model dataset’s for a model it knows, else none', async () => {
  const context = new ModelContext();
  expect(await context.windowOf({ model: 'openai:gpt-4.1-mini', contextWindowTokens: 5000 })).toBe(5000);
  expect(await context.windowOf({ model: 'openai:gpt-4.1-mini', contextWindowTokens: null })).toBeGreaterThan(100_000);
  expect(await context.windowOf({ model: 'anthropic:claude-sonnet-4-5', contextWindowTokens: null })).toBeGreaterThan(100_000);
  expect(await context.windowOf({ model: 'openai:no-such-model-anywhere', contextWindowTokens: null })).toBeNull();
  expect(await context.windowOf({ model: 'ollama:llama3.2:3b', contextWindowTokens: null })).toBeNull();
  expect(await context.windowOf({ model: 'demo:default', contextWindowTokens: null })).toBeNull();
});

it('counts the demo model’s tokens as its words, and others with a tokenizer', async () => {
  const context = new ModelContext();
  expect(await context.estimate('demo:default', ['hello there', 'You said: "hello there"'])).toBe(6);
  const tokens = await context.estimate('openai:gpt-4.1-mini', ['The quick brown fox jumps over the lazy dog.']);
  expect(tokens).toBeGreaterThanOrEqual(9);
  expect(tokens).toBeLessThanOrEqual(12);
});
