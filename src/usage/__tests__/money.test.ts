import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../domain/errors.ts';
import { formatAmount, formatPerMillion, formatPicos, parsePerMillion, picosOfAmount } from '../money.ts';
import { costOf, type ModelPriceRow } from '../model-price.ts';
import { PriceDataset } from '../price-dataset.ts';

describe('prices and amounts', () => {
  it('reads a price per million tokens exactly, in micro-units', () => {
    expect(parsePerMillion('2.5', 'p')).toBe(2_500_000n);
    expect(parsePerMillion('0.000001', 'p')).toBe(1n);
    expect(parsePerMillion('999999999.999999', 'p')).toBe(999_999_999_999_999n);
    expect(parsePerMillion(' 3 ', 'p')).toBe(3_000_000n);
    expect(formatPerMillion(2_500_000n)).toBe('2.50');
    expect(formatPerMillion(20_000_001n)).toBe('20.000001');
  });

  it.each(['-1', 'two', '1e-7', '0.0000001', '1,5', '', '.5', '5.', '1000000000', 'NaN', 'Infinity'])('refuses "%s", naming the field', (text) => {
    expect(() => parsePerMillion(text, 'inputPerMillion')).toThrow(InvalidInputError);
    expect(() => parsePerMillion(text, 'inputPerMillion')).toThrow(/^inputPerMillion: /);
  });

  it('refuses a huge input at once, without reading it through (the pattern is linear and the length capped)', () => {
    for (const text of ['9'.repeat(1_000_000), `1.${'0'.repeat(1_000_000)}`, `${'1'.repeat(500_000)}x`]) {
      const error = (() => {
        try {
          parsePerMillion(text, 'p');
        } catch (caught) {
          return caught as Error;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error!.message.length).toBeLessThan(300);
    }
  });

  it('writes and reads amounts to the pico-unit', () => {
    expect(formatPicos(0n)).toBe('0.00');
    expect(formatPicos(5_035_000_020n)).toBe('0.00503500002');
    expect(formatPicos(12_340_000_000_000n)).toBe('12.34');
    expect(formatAmount(125_000_000n)).toBe('0.000125000000');
    expect(picosOfAmount('0.000125000000')).toBe(125_000_000n);
    expect(picosOfAmount('12.34')).toBe(12_340_000_000_000n);
    // Sums past what a float holds exactly stay exact.
    expect(picosOfAmount('123456789012.000000000001')).toBe(123_456_789_012_000_000_000_001n);
  });
});

describe('a call’s cost', () => {
  const price: ModelPriceRow = {
    modelId: 'x:y',
    inputPerMillion: 3_000_000n,
    outputPerMillion: 15_000_000n,
    cachedInputPerMillion: 300_000n,
    cacheWritePerMillion: 3_750_000n,
    reasoningPerMillion: 20_000_000n,
    source: 'operator',
  };
  const tokens = { inputTokens: 1500, cachedInputTokens: 200, cacheWriteTokens: 300, outputTokens: 50, reasoningTokens: 20 };

  it('charges each kind at its own price', () => {
    expect(costOf(tokens, price)).toBe(1000n * 3_000_000n + 200n * 300_000n + 300n * 3_750_000n + 30n * 15_000_000n + 20n * 20_000_000n);
  });

  it('charges a kind without a price as input (cache) or output (reasoning)', () => {
    const plain = { ...price, cachedInputPerMillion: null, cacheWritePerMillion: null, reasoningPerMillion: null };
    expect(costOf(tokens, plain)).toBe(1500n * 3_000_000n + 50n * 15_000_000n);
  });

  it('never charges a negative count when a provider reports cached tokens beyond its input', () => {
    expect(costOf({ ...tokens, inputTokens: 100, outputTokens: 10 }, price)).toBe(200n * 300_000n + 300n * 3_750_000n + 20n * 20_000_000n);
  });
});

describe('default prices', () => {
  const dataset = new PriceDataset();

  it('knows the demo model’s documented price', async () => {
    expect(await dataset.priceOf('demo:default', new Date())).toMatchObject({ inputPerMillion: 1_000_000n, reasoningPerMillion: 3_000_000n, source: 'demo' });
  });

  it('takes OpenAI’s and Anthropic’s from the price dataset, named with its version', async () => {
    const gpt = await dataset.priceOf('openai:gpt-4o', new Date('2026-06-01T00:00:00Z'));
    expect(gpt?.source).toMatch(/^@pydantic\/genai-prices@\d+\.\d+\.\d+$/);
    expect(gpt!.inputPerMillion).toBeGreaterThan(0n);
    expect(gpt!.outputPerMillion).toBeGreaterThan(gpt!.inputPerMillion);
    expect((await dataset.priceOf('openai-responses:gpt-4o', new Date('2026-06-01T00:00:00Z')))?.inputPerMillion).toBe(gpt!.inputPerMillion);
  });

  it('has none for a model it does not know, or an operator’s own endpoint', async () => {
    expect(await dataset.priceOf('openai:no-such-model-anywhere', new Date())).toBeNull();
    expect(await dataset.priceOf('ollama:llama3', new Date())).toBeNull();
  });
});
