import { ForbiddenError, InvalidInputError } from '../domain/errors.ts';
import type { Credential } from '../directory/user-admin.ts';
import { ADMIN_ONLY_MESSAGE } from '../directory/user-admin.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { parseModelId, UnknownModelError } from '../models/registry.ts';
import { parsePerMillion } from './money.ts';
import type { ModelPriceRow } from './model-price.ts';
import type { PriceBook } from './price-book.ts';

/** A price as an operator sets it: decimal strings per million tokens; the optional kinds fall back to input or output. */
export interface PriceInput {
  model: string;
  inputPerMillion: string;
  outputPerMillion: string;
  cachedInputPerMillion?: string | null;
  cacheWritePerMillion?: string | null;
  reasoningPerMillion?: string | null;
}

/** The most models one `modelPrices` call names. */
export const MAX_NAMED_MODELS = 20;
const MAX_MODEL_ID_CHARS = 300;

function isModelId(model: string): boolean {
  try {
    parseModelId(model);
    return true;
  } catch (error) {
    if (error instanceof UnknownModelError) return false;
    throw error;
  }
}

/** Whether a model id names a model this deployment serves (its provider configured); the message says why not. */
export type ModelCheck = (modelId: string) => string | null;

/** Operators' prices: set with an admin credential, read by anyone signed in, in force on every instance at once. */
export class PriceService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly book: PriceBook,
    private readonly checkModel: ModelCheck,
    /** Tells every instance (this one included) to read the prices again, and waits until they were told. */
    private readonly announce: () => Promise<void>,
  ) {}

  async setModelPrice(credential: Pick<Credential, 'admin'>, input: PriceInput): Promise<ModelPriceRow> {
    if (!credential.admin) throw new ForbiddenError('admin', ADMIN_ONLY_MESSAGE);
    const problem = this.checkModel(input.model);
    if (problem) throw new InvalidInputError('model', problem);
    const optional = (text: string | null | undefined, field: string) => (text === null || text === undefined ? null : parsePerMillion(text, field));
    const price = {
      inputPerMillion: parsePerMillion(input.inputPerMillion, 'inputPerMillion'),
      outputPerMillion: parsePerMillion(input.outputPerMillion, 'outputPerMillion'),
      cachedInputPerMillion: optional(input.cachedInputPerMillion, 'cachedInputPerMillion'),
      cacheWritePerMillion: optional(input.cacheWritePerMillion, 'cacheWritePerMillion'),
      reasoningPerMillion: optional(input.reasoningPerMillion, 'reasoningPerMillion'),
    };
    await this.prisma.modelPrice.upsert({ where: { modelId: input.model }, create: { modelId: input.model, ...price }, update: price });
    await this.book.reload();
    await this.announce();
    return { modelId: input.model, ...price, source: 'operator' };
  }

  /** The operator's prices, and for each model named in `models` that has none, its default (when there is one). */
  async modelPrices(models: readonly string[] = []): Promise<ModelPriceRow[]> {
    if (models.length > MAX_NAMED_MODELS) throw new InvalidInputError('models', `name at most ${MAX_NAMED_MODELS} models.`);
    for (const model of models) {
      if (model.length > MAX_MODEL_ID_CHARS || !isModelId(model)) throw new InvalidInputError('models', `"${model.slice(0, 80)}" is not a model id such as openai:gpt-4.1.`);
    }
    const operator = this.book.operator();
    const set = new Set(operator.map((price) => price.modelId));
    const defaults = await Promise.all(models.filter((model) => !set.has(model)).map((model) => this.book.priceOf(model, new Date())));
    return [...operator, ...defaults.filter((price): price is ModelPriceRow => price !== null)];
  }
}
