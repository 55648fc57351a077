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

/**
 * Each module's slice under the heading docs/configuration.md gives it; that page is printed from
 * these (`npm run config:print`), so a setting is described once, beside its validation.
 */
export const SETTINGS_BY_TOPIC: readonly { topic: string; settings: z.ZodObject }[] = [
  { topic: 'Server: HTTP, WebSocket, GraphQL and the web chat', settings: serverSettings },
  { topic: 'Database', settings: databaseSettings },
  { topic: 'Live delivery: Redis or Redis Cluster', settings: liveBusSettings },
  { topic: 'Running turns', settings: executionSettings },
  { topic: 'Queues, messages and attachments', settings: queueSettings },
  { topic: 'Threads', settings: directorySettings },
  { topic: 'Model providers', settings: modelSettings },
  { topic: 'Tools', settings: toolSettings },
  { topic: 'Usage and cost', settings: usageSettings },
  { topic: 'Rate limits', settings: rateLimitSettings },
  { topic: 'Sign-in with JWTs', settings: jwtSettings },
  { topic: 'Logs, metrics and traces', settings: observabilitySettings },
];

/** The environment variables Parley reads (docs/configuration.md lists exactly these). */
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
