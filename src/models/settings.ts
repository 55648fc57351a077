import { z } from 'zod';
import { booleanFlag, optionalUrl } from '../lifecycle/settings.ts';
import { parseProvidersJson, type ProviderSettings } from './registry.ts';

/** The model providers' slice of the settings. */
export const modelSettings = z.object({
  /** Unset: on in the embedded mode, off with DATABASE_URL (see loadConfig). */
  PARLEY_DEMO: booleanFlag.optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: optionalUrl(['http:', 'https:']),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: optionalUrl(['http:', 'https:']),
  PARLEY_PROVIDERS: z.string().min(1).optional(),
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
