import { z } from 'zod';
import { jwtSettings, jwtSettingsProblems, rateLimitSettings } from './auth/settings.ts';
import { databaseSettings } from './db/settings.ts';
import { directorySettings } from './directory/settings.ts';
import { liveBusSettings, liveBusSettingsProblems } from './events/settings.ts';
import { executionSettings, roleSettingsProblems } from './execution/settings.ts';
import { modelSettings, type ModelSettings } from './models/settings.ts';
import { observabilitySettings } from './observability/settings.ts';
import { queueSettings } from './queue/settings.ts';
import { serverSettings } from './server-settings.ts';
import { toolSettings } from './tools/settings.ts';
import { usageSettings } from './usage/settings.ts';

/** Every module's slice of the settings, each defined beside its module. */
const envSchema = z.object({
  ...serverSettings.shape,
  ...databaseSettings.shape,
  ...liveBusSettings.shape,
  ...observabilitySettings.shape,
  ...rateLimitSettings.shape,
  ...jwtSettings.shape,
  ...executionSettings.shape,
  ...queueSettings.shape,
  ...directorySettings.shape,
  ...modelSettings.shape,
  ...toolSettings.shape,
  ...usageSettings.shape,
});

/** The environment variables Parley reads (README's settings table lists exactly these). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

export type Config = Omit<z.infer<typeof envSchema>, keyof ModelSettings> & ModelSettings;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at start; every problem names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const problems = [...jwtSettingsProblems(parsed.data), ...liveBusSettingsProblems(parsed.data), ...roleSettingsProblems(parsed.data)];
  if (problems.length) throw new ConfigError(problems);
  const demo = parsed.data.PARLEY_DEMO ?? !parsed.data.DATABASE_URL;
  return { ...parsed.data, PARLEY_DEMO: demo, ...overrides };
}
