import { z } from 'zod';
import { optionalUrl, positiveInt } from '../lifecycle/settings.ts';
import type { DatabaseTarget } from './database.ts';

/** The database module's slice of the settings. */
export const databaseSettings = z.object({
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']).describe('PostgreSQL URL; unset = embedded PGlite. `?schema=name` selects a schema'),
  PARLEY_DATA_DIR: z.string().min(1).default('./.parley').describe('PGlite data folder (embedded mode); `memory://` keeps it in memory'),
  PARLEY_DB_POOL_SIZE: positiveInt.default(10).describe('PostgreSQL connections per instance'),
  PARLEY_DB_ACQUIRE_TIMEOUT_MS: positiveInt.default(5_000).describe('longest a request waits for a pooled connection; then it answers `SERVICE_UNAVAILABLE`'),
  PARLEY_DB_STATEMENT_TIMEOUT_MS: positiveInt.default(30_000).describe('PostgreSQL `statement_timeout` of every connection: a longer statement (a lock wait included) is cancelled and the request answers `SERVICE_UNAVAILABLE`'),
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
