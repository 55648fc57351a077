import { APICallError } from '@ai-sdk/provider';
import type { ProviderSettings } from './registry.ts';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
const ANTHROPIC_VERSION = '2023-06-01';

/** A cheap authenticated request to one configured provider: listing its models costs no tokens. */
export interface ProviderProbe {
  /** The provider's name as model ids use it (`openai`, `anthropic`, a PARLEY_PROVIDERS entry). */
  provider: string;
  /** Resolves when the provider accepted the key; throws the error the AI SDK would (APICallError) otherwise. */
  check(signal: AbortSignal): Promise<void>;
}

export function providerProbes(settings: ProviderSettings): ProviderProbe[] {
  const probes: ProviderProbe[] = [];
  if (settings.openai) {
    const { apiKey, baseURL } = settings.openai;
    probes.push(listModels('openai', baseURL ?? OPENAI_BASE_URL, { authorization: `Bearer ${apiKey}` }));
  }
  if (settings.anthropic) {
    const { apiKey, baseURL } = settings.anthropic;
    probes.push(listModels('anthropic', baseURL ?? ANTHROPIC_BASE_URL, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }));
  }
  for (const [name, endpoint] of Object.entries(settings.compatible)) {
    probes.push(listModels(name, endpoint.baseURL, endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}));
  }
  return probes;
}

function listModels(provider: string, baseURL: string, headers: Record<string, string>): ProviderProbe {
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  return {
    provider,
    async check(signal) {
      let response: Response;
      try {
        response = await fetch(url, { headers, signal });
      } catch (error) {
        throw new APICallError({ message: `${url}: ${(error as Error).message}`, url, requestBodyValues: {}, cause: error });
      }
      if (response.ok) {
        await response.body?.cancel();
        return;
      }
      const body = await response.text();
      throw new APICallError({
        message: messageOf(body) ?? `${response.status} ${response.statusText}`,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        responseHeaders: Object.fromEntries(response.headers.entries()),
        responseBody: body,
      });
    },
  };
}

/** `{"error":{"message":…}}` (OpenAI and compatibles) and `{"type":"error","error":{"message":…}}` (Anthropic). */
function messageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === 'string' ? parsed.error.message : undefined;
  } catch {
    return undefined;
  }
}
