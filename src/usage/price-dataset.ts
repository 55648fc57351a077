import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseModelId } from '../models/registry.ts';
import { DEMO_PROVIDER } from '../models/demo/model.ts';
import type { ModelPriceRow } from './model-price.ts';

const DATASET_PACKAGE = '@pydantic/genai-prices';

/**
 * The demo model's price (documented in docs/usage.md), so tests and the demo can check the
 * arithmetic: per million tokens, input 1.00, cached input 0.10, cache writes 1.25, output 2.00,
 * reasoning 3.00.
 */
export const DEMO_PRICE: Omit<ModelPriceRow, 'modelId' | 'source'> = {
  inputPerMillion: 1_000_000n,
  cachedInputPerMillion: 100_000n,
  cacheWritePerMillion: 1_250_000n,
  outputPerMillion: 2_000_000n,
  reasoningPerMillion: 3_000_000n,
};

/** Parley's providers as the dataset names them; compatible endpoints (any model) have no default price. */
const DATASET_PROVIDERS: Record<string, string> = { openai: 'openai', 'openai-responses': 'openai', anthropic: 'anthropic' };

type Dataset = typeof import('@pydantic/genai-prices');

/**
 * Default prices: the demo's, and for OpenAI's and Anthropic's models those of a maintained dataset
 * on npm (@pydantic/genai-prices), loaded on first use (it is large) and named with its version.
 */
export class PriceDataset {
  private dataset: Promise<{ module: Dataset; source: string }> | null = null;

  async priceOf(modelId: string, at: Date): Promise<ModelPriceRow | null> {
    const { provider, model } = parseModelId(modelId);
    if (provider === DEMO_PROVIDER) return { modelId, ...DEMO_PRICE, source: 'demo' };
    const providerId = DATASET_PROVIDERS[provider];
    if (!providerId) return null;
    const { module, source } = await (this.dataset ??= loadDataset());
    const found = module.calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId, timestamp: at });
    const prices = found?.model_price;
    const input = micros(prices?.input_mtok);
    const output = micros(prices?.output_mtok);
    if (input === null || output === null) return null;
    return {
      modelId,
      inputPerMillion: input,
      outputPerMillion: output,
      cachedInputPerMillion: micros(prices?.cache_read_mtok),
      cacheWritePerMillion: micros(prices?.cache_write_mtok),
      reasoningPerMillion: null,
      source,
    };
  }
}

async function loadDataset(): Promise<{ module: Dataset; source: string }> {
  const module = await import(DATASET_PACKAGE);
  // The package exports no version; its package.json sits above its entry point.
  const entry = createRequire(import.meta.url).resolve(DATASET_PACKAGE);
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return { module: module as Dataset, source: `${DATASET_PACKAGE}@${version}` };
}

/** A dataset price (a float per million tokens, or tiers whose base applies) in micro-units. */
function micros(value: number | { base: number } | undefined): bigint | null {
  const price = typeof value === 'number' ? value : value?.base;
  if (price === undefined || !Number.isFinite(price) || price < 0) return null;
  // The dataset's prices are decimals written with a few digits; six after the point is a micro-unit.
  const [whole, fraction = ''] = price.toFixed(6).split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}
