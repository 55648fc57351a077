import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_MIGRATIONS_DIR,
  migrate,
  MigrationChecksumError,
  readMigrations,
  type Migration,
  type MigrationConnection,
} from '../../src/db/migrator.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { TEST_DATABASE_URL, type Backend } from '../support/server.ts';

/** A database of its own for one test, with the raw connection the migrator takes. */
interface Target {
  connection: MigrationConnection;
  /** Another connection to the same database (PostgreSQL only; PGlite has one). */
  openAnother?(): Promise<MigrationConnection & { close(): Promise<void> }>;
  close(): Promise<void>;
}

function pgliteConnection(db: PGlite): MigrationConnection {
  return {
    async query(sql, params) {
      return (await db.query(sql, params)).rows as never[];
    },
    async exec(sql) {
      await db.exec(sql);
    },
  };
}

async function pgConnection(schema: string): Promise<MigrationConnection & { close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path="${schema}"` });
  await client.connect();
  return {
    async query(sql, params) {
      return (await client.query(sql, params)).rows;
    },
    async exec(sql) {
      await client.query(sql);
    },
    close: () => client.end(),
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function openTarget(backend: Backend): Promise<Target> {
  if (backend === 'pglite') {
    const db = new PGlite();
    await db.waitReady;
    return { connection: pgliteConnection(db), close: () => db.close() };
  }
  const schema = `t_mig_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`CREATE SCHEMA "${schema}"`);
  const opened: { close(): Promise<void> }[] = [];
  const open = async () => {
    const connection = await pgConnection(schema);
    opened.push(connection);
    return connection;
  };
  const connection = await open();
  return {
    connection,
    openAnother: open,
    async close() {
      await Promise.all(opened.map((connection) => connection.close()));
      await adminQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}

/** Tables of the connection's current schema (the test schema on PostgreSQL, public on PGlite). */
async function tables(connection: MigrationConnection): Promise<string[]> {
  const rows = await connection.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

async function indexes(connection: MigrationConnection): Promise<string[]> {
  const rows = await connection.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`,
  );
  return rows.map((row) => row.indexname);
}

async function recorded(connection: MigrationConnection): Promise<{ name: string; checksum: string }[]> {
  return connection.query<{ name: string; checksum: string }>(
    'SELECT "name", "checksum" FROM "_parley_migrations" ORDER BY "name"',
  );
}

/** A copy of prisma/migrations the test may edit. */
async function copyMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parley-migrations-'));
  await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

let migrations: Migration[];
let expectedTables: string[];

beforeAll(async () => {
  migrations = await readMigrations();
  const init = migrations.find((migration) => migration.name === '0001_init');
  expectedTables = [...(init?.sql ?? '').matchAll(/CREATE TABLE "(\w+)"/g)].map((match) => match[1]!);
});

describe('the committed migrations', () => {
  it('are read in name order with a checksum of their SQL', async () => {
    const names = migrations.map((migration) => migration.name);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names.slice(0, 2)).toEqual(['0001_init', '0002_one_active_execution_per_thread']);
    expect(names).toEqual([...names].sort());
    expect(new Set(migrations.map((migration) => migration.checksum)).size).toBe(migrations.length);
    for (const migration of migrations) expect(migration.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(expectedTables).toEqual(
      expect.arrayContaining(['user', 'project', 'membership', 'agent', 'thread', 'message', 'execution', 'queue_item', 'thread_event']),
    );
  });
});

describeEachBackend('migrate()', (backend) => {
  let target: Target | undefined;
  const tempDirs: string[] = [];

  async function fresh(): Promise<Target> {
    target = await openTarget(backend);
    return target;
  }

  afterEach(async () => {
    await target?.close();
    target = undefined;
    await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('applies every migration to a fresh database and creates the tables', async () => {
    const { connection } = await fresh();
    expect(await tables(connection)).toEqual([]);

    const applied = await migrate(connection, migrations);

    expect(applied).toEqual(migrations.map((migration) => migration.name));
    const present = await tables(connection);
    expect(present).toEqual(expect.arrayContaining([...expectedTables, '_parley_migrations']));
    expect(await indexes(connection)).toContain('execution_one_active_per_thread');
    expect(await recorded(connection)).toEqual(
      migrations.map((migration) => ({ name: migration.name, checksum: migration.checksum })),
    );
    // The schema is usable: the tables take rows.
    await connection.query(`INSERT INTO "user" ("id", "email") VALUES ($1, $2)`, [randomUUID(), 'a@example.test']);
    expect(await connection.query(`SELECT "email", "locale" FROM "user"`)).toEqual([
      { email: 'a@example.test', locale: 'en' },
    ]);
  });

  it('applies nothing when run again, and keeps the data', async () => {
    const { connection } = await fresh();
    await migrate(connection, migrations);
    await connection.query(`INSERT INTO "user" ("id", "email") VALUES ($1, $2)`, [randomUUID(), 'kept@example.test']);
    const before = await connection.query('SELECT "name", "checksum", "appliedAt" FROM "_parley_migrations" ORDER BY "name"');

    expect(await migrate(connection, migrations)).toEqual([]);
    expect(await migrate(connection, await readMigrations())).toEqual([]);

    expect(await connection.query('SELECT "name", "checksum", "appliedAt" FROM "_parley_migrations" ORDER BY "name"')).toEqual(
      before,
    );
    expect(await connection.query(`SELECT "email" FROM "user"`)).toEqual([{ email: 'kept@example.test' }]);
  });

  it('0008 makes each existing thread one straight path, its last message the active leaf', async () => {
    const { connection } = await fresh();
    await migrate(connection, migrations.filter((migration) => migration.name < '0008'));
    const [userId, projectId, agentId, threadId, emptyThreadId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await connection.query(`INSERT INTO "user" ("id", "email") VALUES ($1, 'old@example.test')`, [userId]);
    await connection.query(`INSERT INTO "project" ("id", "name") VALUES ($1, 'Old')`, [projectId]);
    await connection.query(`INSERT INTO "agent" ("id", "projectId", "name", "model", "updatedAt") VALUES ($1, $2, 'A', 'demo:default', now())`, [agentId, projectId]);
    for (const id of [threadId, emptyThreadId]) {
      await connection.query(`INSERT INTO "thread" ("id", "agentId", "ownerId", "updatedAt") VALUES ($1, $2, $3, now())`, [id, agentId, userId]);
    }
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [index, id] of ids.entries()) {
      await connection.query(`INSERT INTO "message" ("id", "threadId", "role", "updatedAt") VALUES ($1, $2, $3, now())`, [
        id,
        threadId,
        index % 2 === 0 ? 'USER' : 'ASSISTANT',
      ]);
    }

    await migrate(connection, migrations);

    const rows = await connection.query<{ id: string; parentId: string | null }>(`SELECT "id", "parentId" FROM "message" ORDER BY "seq"`);
    expect(rows).toEqual(ids.map((id, index) => ({ id, parentId: index === 0 ? null : ids[index - 1] })));
    const threads = await connection.query<{ id: string; activeLeafMessageId: string | null }>(
      `SELECT "id", "activeLeafMessageId" FROM "thread" ORDER BY "id" = $1 DESC`,
      [threadId],
    );
    expect(threads).toEqual([
      { id: threadId, activeLeafMessageId: ids[3] },
      { id: emptyThreadId, activeLeafMessageId: null },
    ]);
  });

  it('applies only the new migration added later', async () => {
    const { connection } = await fresh();
    const dir = await copyMigrations();
    tempDirs.push(dir);
    expect(await migrate(connection, await readMigrations(dir))).toEqual(migrations.map((migration) => migration.name));

    await addMigration(dir, '9999_probe', 'CREATE TABLE "probe_added_later" ("id" INTEGER PRIMARY KEY);');
    expect(await migrate(connection, await readMigrations(dir))).toEqual(['9999_probe']);
    expect(await tables(connection)).toContain('probe_added_later');
    expect((await recorded(connection)).map((row) => row.name)).toEqual([...migrations.map((m) => m.name), '9999_probe']);
  });

  it('refuses a migration changed after it was applied, naming it, and applies nothing', async () => {
    const { connection } = await fresh();
    const dir = await copyMigrations();
    tempDirs.push(dir);
    await migrate(connection, await readMigrations(dir));
    const recordedBefore = await recorded(connection);

    const changed = '0002_one_active_execution_per_thread';
    const file = path.join(dir, changed, 'migration.sql');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"threadId"', '"threadId", "id"'));
    // A new migration behind the changed one must not be applied either.
    await addMigration(dir, '9999_after_changed', 'CREATE TABLE "probe_after_changed" ("id" INTEGER);');

    const error = await migrate(connection, await readMigrations(dir)).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(MigrationChecksumError);
    expect((error as MigrationChecksumError).migration).toBe(changed);
    expect((error as Error).message).toContain(changed);

    expect(await recorded(connection)).toEqual(recordedBefore);
    expect(await tables(connection)).not.toContain('probe_after_changed');
    // The lock was released: the unchanged set still migrates (to nothing) on the same connection.
    expect(await migrate(connection, migrations)).toEqual([]);
  });

  it('rolls a failing migration back completely and does not record it', async () => {
    const { connection } = await fresh();
    const dir = await copyMigrations();
    tempDirs.push(dir);
    await addMigration(
      dir,
      '9999_broken',
      [
        'CREATE TABLE "probe_broken" ("id" INTEGER PRIMARY KEY);',
        'INSERT INTO "probe_broken" ("id") VALUES (1);',
        'ALTER TABLE "user" ADD COLUMN "probe_column" TEXT;',
        'SELECT * FROM "no_such_table";',
      ].join('\n'),
    );

    // The good migrations before it are applied (each in its own transaction); the broken one not at all.
    const error = await migrate(connection, await readMigrations(dir)).then(
      () => null,
      (thrown: unknown) => thrown as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain('9999_broken');
    expect(error!.message).toContain('no_such_table');

    const present = await tables(connection);
    expect(present).not.toContain('probe_broken');
    expect(present).toEqual(expect.arrayContaining(expectedTables));
    const userColumns = await connection.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'user'`,
    );
    expect(userColumns.map((column) => column.column_name)).not.toContain('probe_column');
    expect((await recorded(connection)).map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));

    // The connection is usable and not stuck in a transaction or the lock: fixing the file applies it.
    await writeFile(path.join(dir, '9999_broken', 'migration.sql'), 'CREATE TABLE "probe_broken" ("id" INTEGER PRIMARY KEY);');
    expect(await migrate(connection, await readMigrations(dir))).toEqual(['9999_broken']);
    expect(await tables(connection)).toContain('probe_broken');
  });

});

describeWithServices('migrate() on postgres, concurrently', () => {
  let target: Target | undefined;

  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  it(
    'concurrent migrate() calls on separate connections all succeed and apply each migration once',
    async () => {
      target = await openTarget('postgres');
      const { openAnother } = target;
      const connections = await Promise.all([openAnother!(), openAnother!(), openAnother!()]);

      const results = await Promise.all(connections.map((connection) => migrate(connection, migrations)));

      // Together they applied everything exactly once, whoever got the lock first.
      // The lock is held for the whole run, so one call applied them all and the others found nothing to do.
      expect(results.filter((names) => names.length > 0)).toEqual([migrations.map((migration) => migration.name)]);
      const applied = results.flat();
      expect(applied.sort()).toEqual(migrations.map((migration) => migration.name).sort());
      const rows = await connections[0]!.query<{ name: string; count: string }>(
        'SELECT "name", count(*)::text AS "count" FROM "_parley_migrations" GROUP BY "name" ORDER BY "name"',
      );
      expect(rows).toEqual(migrations.map((migration) => ({ name: migration.name, count: '1' })));
      expect(await tables(connections[1]!)).toEqual(expect.arrayContaining(expectedTables));

      // None of the sessions still holds the migrator's advisory lock.
      for (const connection of connections) {
        const [held] = await connection.query<{ count: string }>(
          `SELECT count(*)::text AS "count" FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`,
        );
        expect(held!.count).toBe('0');
      }
    },
  );
});
