import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ModelPriceRow } from './model-price.ts';
import type { PriceDataset } from './price-dataset.ts';

/**
 * The prices in force on this instance: the operator's (the model_price table, read again whenever
 * any instance announces a change) over the dataset's defaults.
 */
export class PriceBook {
  private operatorPrices = new Map<string, ModelPriceRow>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly dataset: PriceDataset,
  ) {}

  async reload(): Promise<void> {
    const rows = await this.prisma.modelPrice.findMany();
    this.operatorPrices = new Map(rows.map((row) => [row.modelId, { ...row, source: 'operator' }]));
  }

  /** The operator's prices, by model. */
  operator(): ModelPriceRow[] {
    return [...this.operatorPrices.values()].sort((a, b) => a.modelId.localeCompare(b.modelId));
  }

  /** The price of `modelId` at `at`, or null: a model without a price is recorded with no cost, never a zero. */
  async priceOf(modelId: string, at: Date): Promise<ModelPriceRow | null> {
    return this.operatorPrices.get(modelId) ?? (await this.dataset.priceOf(modelId, at));
  }
}
