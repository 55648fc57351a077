import { loadConfig } from '../config.ts';
import type { ModelPriceRow } from '../usage/model-price.ts';
import type { PriceService } from '../usage/prices.ts';
import { printLine, type Command } from './command.ts';
import { withDirectory } from './directory.ts';

/** Opens the database and the operators' prices; running servers read a change within 30 seconds (PRICE_REFRESH_MS). */
async function withPrices(work: (prices: PriceService, currency: string) => Promise<void>): Promise<number> {
  const config = loadConfig(process.env);
  const [{ ModelRegistry }, { providerSettingsFrom }, { standalonePrices }] = await Promise.all([
    import('../models/registry.ts'),
    import('../models/settings.ts'),
    import('../usage/usage-module.ts'),
  ]);
  return withDirectory(config, async ({ db }) => {
    await work(await standalonePrices(db.prisma, new ModelRegistry(providerSettingsFrom(config))), config.PARLEY_CURRENCY);
  });
}

async function describePrice(price: ModelPriceRow, currency: string): Promise<string> {
  const { formatPerMillion } = await import('../usage/money.ts');
  const kinds: [string, bigint | null][] = [
    ['input', price.inputPerMillion],
    ['output', price.outputPerMillion],
    ['cached input', price.cachedInputPerMillion],
    ['cache writes', price.cacheWritePerMillion],
    ['reasoning', price.reasoningPerMillion],
  ];
  const shown = kinds.filter(([, value]) => value !== null).map(([kind, value]) => `${kind} ${formatPerMillion(value!)}`);
  return `${price.modelId}  ${currency} per million tokens: ${shown.join(', ')}  (${price.source})`;
}

export const priceCommands: readonly Command[] = [
  {
    name: 'price set',
    synopsis: 'price set <provider:model> --input X --output Y [--cached-input C] [--cache-write W] [--reasoning R]',
    summary: 'Set a model’s price per million tokens (decimal amounts in PARLEY_CURRENCY); prints it.',
    positional: { name: 'model', required: true },
    flags: { input: { required: true }, output: { required: true }, 'cached-input': {}, 'cache-write': {}, reasoning: {} },
    run: (flags) =>
      withPrices(async (prices, currency) => {
        const price = await prices.setModelPrice(
          { admin: true },
          {
            model: flags.model!,
            inputPerMillion: flags.input!,
            outputPerMillion: flags.output!,
            cachedInputPerMillion: flags['cached-input'],
            cacheWritePerMillion: flags['cache-write'],
            reasoningPerMillion: flags.reasoning,
          },
        );
        printLine(await describePrice(price, currency));
      }),
  },
  {
    name: 'price list',
    synopsis: 'price list [--model M]',
    summary: 'List the operators’ prices, and a model’s default price when it has none.',
    flags: { model: {} },
    run: (flags) =>
      withPrices(async (prices, currency) => {
        const listed = await prices.modelPrices(flags.model ? [flags.model] : []);
        if (listed.length === 0) printLine('(no prices set)');
        for (const price of listed) printLine(await describePrice(price, currency));
      }),
  },
];
