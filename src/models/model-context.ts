import { DEMO_PROVIDER } from './demo/model.ts';

const DATASET_PACKAGE = '@pydantic/genai-prices';
const TOKENIZER_PACKAGE = 'gpt-tokenizer/encoding/o200k_base';

/** Parley's providers as the model dataset names them; a compatible endpoint's models are unknown to it. */
const DATASET_PROVIDERS: Record<string, string> = { openai: 'openai', 'openai-responses': 'openai', anthropic: 'anthropic' };

type Dataset = typeof import('@pydantic/genai-prices');
type Tokenizer = typeof import('gpt-tokenizer/encoding/o200k_base');

/** A model id's `provider:` and the rest (registry.ts checks ids; this one is already an agent's). */
function split(modelId: string): { provider: string; model: string } {
  const separator = modelId.indexOf(':');
  return { provider: modelId.slice(0, Math.max(separator, 0)), model: modelId.slice(separator + 1) };
}

/** What the next call's history is measured against: the agent's own setting, else the dataset's. */
export interface WindowSetting {
  model: string;
  contextWindowTokens: number | null;
}

/**
 * How large a model's context window is, and how many tokens a text takes in it. Both packages are
 * large and loaded on first use, once per instance (kept here, never in the module).
 *
 * Windows: the agent's `contextWindowTokens`, else the maintained model dataset on npm
 * (@pydantic/genai-prices, `context_window`) for OpenAI's and Anthropic's models; null otherwise
 * (a compatible endpoint's model, or the demo model without a setting: nothing is compacted).
 * Tokens: the demo model counts words (its documented usage), any other model the o200k encoding
 * (gpt-tokenizer), an estimate close to OpenAI's and near enough for Anthropic's to decide when to
 * compact; the provider's own count of the last call is what `Conversation.context` starts from.
 */
export class ModelContext {
  private dataset: Promise<Dataset> | null = null;
  private tokenizer: Promise<Tokenizer> | null = null;

  async windowOf(agent: WindowSetting): Promise<number | null> {
    if (agent.contextWindowTokens !== null) return agent.contextWindowTokens;
    const { provider, model } = split(agent.model);
    const providerId = DATASET_PROVIDERS[provider];
    if (!providerId) return null;
    const dataset = await (this.dataset ??= import(DATASET_PACKAGE) as Promise<Dataset>);
    try {
      const found = dataset.calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId });
      const window = found?.model.context_window;
      return typeof window === 'number' && window > 0 ? window : null;
    } catch {
      // The dataset does not know the model.
      return null;
    }
  }

  /** The tokens these texts take in the model's prompt (an estimate; see the class). */
  async estimate(modelId: string, texts: readonly string[]): Promise<number> {
    if (split(modelId).provider === DEMO_PROVIDER) {
      return texts.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
    }
    const tokenizer = await (this.tokenizer ??= import(TOKENIZER_PACKAGE) as Promise<Tokenizer>);
    return texts.reduce((sum, text) => sum + tokenizer.countTokens(text), 0);
  }
}
