import { z } from 'zod';
import { booleanFlag, optionalUrl } from '../lifecycle/settings.ts';
import { parseProvidersJson, type ProviderSettings } from './registry.ts';

/** The model providers' slice of the settings. */
export const modelSettings = z.object({
  /** Unset: on in the embedded mode, off with DATABASE_URL (see loadConfig). */
  PARLEY_DEMO: booleanFlag.optional().describe('serve the built-in demo model (`demo:*`); unset: on in the embedded mode, off with `DATABASE_URL`'),
  OPENAI_API_KEY: z.string().min(1).optional().describe('enables `openai:<model>` (chat completions) and `openai-responses:<model>`; a secret, never logged'),
  OPENAI_BASE_URL: optionalUrl(['http:', 'https:']).describe('another OpenAI endpoint (a proxy or a compatible server)'),
  ANTHROPIC_API_KEY: z.string().min(1).optional().describe('enables `anthropic:<model>`; a secret, never logged'),
  ANTHROPIC_BASE_URL: optionalUrl(['http:', 'https:']).describe('another Anthropic endpoint (must end in `/v1`)'),
  PARLEY_PROVIDERS: z.string().min(1).meta({ allowed: 'a JSON object of named endpoints' }).optional().describe('named OpenAI-compatible endpoints as JSON, e.g. `{"ollama":{"baseURL":"http://127.0.0.1:11434/v1"}}` gives `ollama:llama3.2`'),
});

export type ModelSettings = Omit<z.infer<typeof modelSettings>, 'PARLEY_DEMO'> & {
  /** Whether the built-in demo model (`demo:*`) may be used: agents on it created and run. */
  PARLEY_DEMO: boolean;
};

export function providerSettingsFrom(settings: ModelSettings): ProviderSettings {
  return {
    demo: settings.PARLEY_DEMO,
    openai: settings.OPENAI_API_KEY ? { apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL } : undefined,
    anthropic: settings.ANTHROPIC_API_KEY
      ? { apiKey: settings.ANTHROPIC_API_KEY, baseURL: settings.ANTHROPIC_BASE_URL }
      : undefined,
    compatible: settings.PARLEY_PROVIDERS ? parseProvidersJson(settings.PARLEY_PROVIDERS) : {},
  };
}
