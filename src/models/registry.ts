import { createAnthropic, type AnthropicProvider } from '@ai-sdk/anthropic';
import { createOpenAI, type OpenAIProvider } from '@ai-sdk/openai';
import { createOpenAICompatible, type OpenAICompatibleProvider } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import { DEMO_PROVIDER, createDemoModel } from './demo/model.ts';
import { ModelContext } from './model-context.ts';

/*
 * Providers come from the server's environment only: API input names a model
 * as `provider:model` and can never point the server at a URL of its choosing.
 *
 * `openai:` uses the Chat Completions API: it is the API every OPENAI_BASE_URL proxy and
 * OpenAI-compatible endpoint implements, keeps no conversation state on OpenAI's side,
 * and streams errors in the shape the error taxonomy was verified against.
 * `openai-responses:` is there for models only the Responses API serves.
 */

export interface CompatibleEndpoint {
  baseURL: string;
  apiKey?: string;
}

export interface ProviderSettings {
  /** Whether `demo:*` models are served (PARLEY_DEMO). */
  demo: boolean;
  openai?: { apiKey: string; baseURL?: string };
  anthropic?: { apiKey: string; baseURL?: string };
  compatible: Record<string, CompatibleEndpoint>;
}

const BUILT_IN_PROVIDERS = ['openai', 'openai-responses', 'anthropic', DEMO_PROVIDER] as const;

export class UnknownModelError extends Error {
  override readonly name = 'UnknownModelError';

  constructor(
    readonly modelId: string,
    message: string,
  ) {
    super(message);
  }
}

export class ProviderConfigError extends Error {
  override readonly name = 'ProviderConfigError';
}

// A name becomes the part before the first ':' of a model id, so it cannot contain one.
function providerNameProblem(name: string): string | undefined {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) return 'a provider name may use letters, digits, "-" and "_" only';
  if ((BUILT_IN_PROVIDERS as readonly string[]).includes(name.toLowerCase())) {
    return `is reserved for a built-in provider (${BUILT_IN_PROVIDERS.join(', ')})`;
  }
  return undefined;
}

const compatibleEndpointSchema = z.strictObject({
  baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  apiKey: z.string().min(1, 'must not be empty when given').optional(),
});

// Names are checked in a refinement because zod reports a bad record key only as "Invalid key".
const providersSchema = z.record(z.string(), compatibleEndpointSchema).superRefine((providers, context) => {
  for (const name of Object.keys(providers)) {
    const problem = providerNameProblem(name);
    if (problem) context.addIssue({ code: 'custom', path: [name], message: problem });
  }
});

/**
 * Parses PARLEY_PROVIDERS, e.g. `{"ollama":{"baseURL":"http://127.0.0.1:11434/v1"}}`.
 * The message names the variable and the offending entry, never an API key.
 */
export function parseProvidersJson(text: string): Record<string, CompatibleEndpoint> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProviderConfigError(
      `PARLEY_PROVIDERS is not valid JSON (${(error as Error).message}); expected an object such as {"ollama":{"baseURL":"http://127.0.0.1:11434/v1"}}`,
    );
  }
  const parsed = providersSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      return `${where}: ${issue.message}`;
    });
    throw new ProviderConfigError(
      `PARLEY_PROVIDERS is invalid: ${problems.join('; ')}. Expected {"<name>":{"baseURL":"http(s)://…","apiKey":"optional"}}`,
    );
  }
  return parsed.data;
}

/** Splits at the first ':' only, because model names such as `llama3.2:3b` contain colons. */
export function parseModelId(id: string): { provider: string; model: string } {
  const separator = id.indexOf(':');
  const provider = separator < 0 ? '' : id.slice(0, separator).trim();
  const model = separator < 0 ? '' : id.slice(separator + 1).trim();
  if (!provider || !model) {
    throw new UnknownModelError(
      id,
      `Model id "${id}" is malformed: expected "provider:model", e.g. "openai:gpt-4.1-mini" or "demo:default".`,
    );
  }
  return { provider, model };
}

export class ModelRegistry {
  private openaiProvider?: OpenAIProvider;
  private anthropicProvider?: AnthropicProvider;
  private readonly compatibleProviders = new Map<string, OpenAICompatibleProvider>();
  /** Context windows and token estimates (compaction). */
  readonly context = new ModelContext();

  constructor(private readonly settings: ProviderSettings) {}

  /** Provider names a model id may start with under these settings. */
  configuredProviders(): string[] {
    return [
      ...(this.settings.demo ? [DEMO_PROVIDER] : []),
      ...(this.settings.openai ? ['openai', 'openai-responses'] : []),
      ...(this.settings.anthropic ? ['anthropic'] : []),
      ...Object.keys(this.settings.compatible),
    ];
  }

  validate(modelId: string): void {
    const { provider } = parseModelId(modelId);
    if (this.configuredProviders().includes(provider)) return;
    if (provider === DEMO_PROVIDER) {
      throw new UnknownModelError(
        modelId,
        `The demo model "${modelId}" is off on this server (PARLEY_DEMO=false, the default with DATABASE_URL); ` +
          `choose a real model${this.configuredProviders().length > 0 ? ` (configured: ${this.configuredProviders().join(', ')})` : ''}, or set PARLEY_DEMO=true on the server.`,
      );
    }
    const hint = (BUILT_IN_PROVIDERS as readonly string[]).includes(provider)
      ? ` Set ${provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'} on the server to enable it.`
      : ' Named endpoints are configured in PARLEY_PROVIDERS on the server.';
    throw new UnknownModelError(
      modelId,
      `Model "${modelId}" uses provider "${provider}", which is not configured.${hint} Configured: ${this.configuredProviders().join(', ')}.`,
    );
  }

  resolve(modelId: string): LanguageModelV3 {
    this.validate(modelId);
    const { provider, model } = parseModelId(modelId);
    switch (provider) {
      case DEMO_PROVIDER:
        return createDemoModel(model);
      case 'openai':
        return this.openai().chat(model);
      case 'openai-responses':
        return this.openai().responses(model);
      case 'anthropic':
        return this.anthropic().languageModel(model);
      default:
        return this.compatible(provider).chatModel(model);
    }
  }

  /** The provider as errors and logs should name it: `openai-responses:` is still OpenAI. */
  providerName(modelId: string): string {
    const { provider } = parseModelId(modelId);
    return provider === 'openai-responses' ? 'openai' : provider;
  }

  private openai(): OpenAIProvider {
    const settings = this.settings.openai;
    if (!settings) throw new Error('OpenAI is not configured');
    this.openaiProvider ??= createOpenAI({ apiKey: settings.apiKey, baseURL: settings.baseURL });
    return this.openaiProvider;
  }

  private anthropic(): AnthropicProvider {
    const settings = this.settings.anthropic;
    if (!settings) throw new Error('Anthropic is not configured');
    this.anthropicProvider ??= createAnthropic({ apiKey: settings.apiKey, baseURL: settings.baseURL });
    return this.anthropicProvider;
  }

  private compatible(name: string): OpenAICompatibleProvider {
    let provider = this.compatibleProviders.get(name);
    if (!provider) {
      const endpoint = this.settings.compatible[name];
      // includeUsage: token budgets need usage on streamed responses, which
      // OpenAI-compatible servers only send when asked.
      provider = createOpenAICompatible({ name, baseURL: endpoint.baseURL, apiKey: endpoint.apiKey, includeUsage: true });
      this.compatibleProviders.set(name, provider);
    }
    return provider;
  }
}
