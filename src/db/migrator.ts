import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The few SQL operations the migrator needs, implemented for node-postgres and PGlite alike. */
export interface MigrationConnection {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationChecksumError extends Error {
  constructor(readonly migration: string) {
    super(
      `Migration ${migration} was changed after it was applied (checksum mismatch). ` +
        `Applied migrations are immutable: restore the file and add a new migration instead.`,
    );
    this.name = 'MigrationChecksumError';
  }
}

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

// An arbitrary constant shared by every Parley process: pg_advisory_lock(key) serializes migrators.
const MIGRATION_LOCK_KEY = 727_001;

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies pending migrations in name order, one transaction per file, under an advisory lock so
 * that concurrent starts are safe. Returns the names applied by this call.
 */
export interface MigrationStatus {
  applied: number;
  /** Files not applied yet. */
  pending: string[];
  /** Applied files whose content has changed since. */
  changed: string[];
}

/** What `migrate` would do, without doing it (or taking its lock). */
export async function migrationStatus(connection: MigrationConnection, migrations: Migration[]): Promise<MigrationStatus> {
  const [table] = await connection.query<{ exists: boolean }>(`SELECT to_regclass('"_parley_migrations"') IS NOT NULL AS "exists"`);
  const appliedRows = table?.exists
    ? await connection.query<{ name: string; checksum: string }>('SELECT "name", "checksum" FROM "_parley_migrations"')
    : [];
  const applied = new Map(appliedRows.map((row) => [row.name, row.checksum]));
  return {
    applied: applied.size,
    pending: migrations.filter((migration) => !applied.has(migration.name)).map((migration) => migration.name),
    changed: migrations
      .filter((migration) => applied.has(migration.name) && applied.get(migration.name) !== migration.checksum)
      .map((migration) => migration.name),
  };
}

export async function migrate(connection: MigrationConnection, migrations: Migration[]): Promise<string[]> {
  await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await connection.exec(
      `CREATE TABLE IF NOT EXISTS "_parley_migrations" (
         "name" TEXT PRIMARY KEY,
         "checksum" TEXT NOT NULL,
         "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const appliedRows = await connection.query<{ name: string; checksum: string }>(
      'SELECT "name", "checksum" FROM "_parley_migrations"',
    );
    const applied = new Map(appliedRows.map((row) => [row.name, row.checksum]));
    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw new MigrationChecksumError(migration.name);
        continue;
      }
      await connection.exec('BEGIN');
      try {
        await connection.exec(migration.sql);
        await connection.query('INSERT INTO "_parley_migrations" ("name", "checksum") VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        await connection.exec('COMMIT');
      } catch (error) {
        await connection.exec('ROLLBACK');
        throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      newlyApplied.push(migration.name);
    }
    return newlyApplied;
  } finally {
    await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}
