import { z } from 'zod';
import { optionalUrl, positiveInt } from '../lifecycle/settings.ts';
import type { DatabaseTarget } from './database.ts';

/** The database module's slice of the settings. */
export const databaseSettings = z.object({
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  PARLEY_DATA_DIR: z.string().min(1).default('./.parley'),
  PARLEY_DB_POOL_SIZE: positiveInt.default(10),
  PARLEY_DB_ACQUIRE_TIMEOUT_MS: positiveInt.default(5_000),
  PARLEY_DB_STATEMENT_TIMEOUT_MS: positiveInt.default(30_000),
});

export type DatabaseSettings = z.infer<typeof databaseSettings>;

/** `PARLEY_DATA_DIR=memory://` keeps the embedded database in memory (tests, throw-away demos). */
export function databaseTarget(settings: DatabaseSettings): DatabaseTarget {
  if (settings.DATABASE_URL) {
    const pool = {
      size: settings.PARLEY_DB_POOL_SIZE,
      acquireTimeoutMs: settings.PARLEY_DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: settings.PARLEY_DB_STATEMENT_TIMEOUT_MS,
    };
    return { databaseUrl: settings.DATABASE_URL, pool };
  }
  if (settings.PARLEY_DATA_DIR === 'memory://') return { memory: true };
  return { dataDir: settings.PARLEY_DATA_DIR };
}
