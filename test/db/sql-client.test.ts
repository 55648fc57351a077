import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { describeEachBackend } from '../support/backends.ts';
import { dropSchema, isolatedEnv } from '../support/server.ts';

/**
 * The driver under Prisma, as src/storage/ uses it: rows read the same on PostgreSQL and PGlite,
 * whatever the process's time zone, and a transaction commits or rolls back as a whole.
 */
describeEachBackend('the SQL client under Prisma', (backend) => {
  let db: Database;
  let databaseUrl: string | undefined;

  beforeAll(async () => {
    const env = isolatedEnv(backend);
    databaseUrl = env.DATABASE_URL;
    db = await openDatabase(databaseUrl ? { databaseUrl } : { memory: true });
    await db.sql.query(Prisma.sql`CREATE TABLE "probe" ("id" int PRIMARY KEY, "at" timestamp(3), "body" jsonb)`);
  });

  afterAll(async () => {
    await db?.close();
    if (databaseUrl) await dropSchema(databaseUrl);
  });

  it('reads int8 as numbers, timestamps as UTC dates, JSON parsed and numeric as exact text, as Prisma writes them', async () => {
    const at = new Date('2026-12-04T18:00:00.123Z');
    await db.prisma.$executeRaw`INSERT INTO "probe" ("id", "at", "body") VALUES (1, ${at}::timestamp(3), ${JSON.stringify({ a: [1, 'x'] })}::jsonb)`;
    const [row] = await db.sql.query<{ id: number; at: Date; body: unknown; n: number; exact: string }>(
      Prisma.sql`SELECT "id", "at", "body", count(*) OVER () AS "n", 0.1::numeric + 0.2::numeric AS "exact" FROM "probe" WHERE "id" = ${1}`,
    );
    expect(row).toEqual({ id: 1, at, body: { a: [1, 'x'] }, n: 1, exact: '0.3' });
  });

  it('writes dates as UTC, as Prisma does', async () => {
    const at = new Date('2026-06-30T23:59:59.999Z');
    await db.sql.query(Prisma.sql`INSERT INTO "probe" ("id", "at") VALUES (${2}, ${at}::timestamp(3))`);
    const [row] = await db.sql.query<{ stored: string }>(Prisma.sql`SELECT "at"::text AS "stored" FROM "probe" WHERE "id" = ${2}`);
    expect(row!.stored).toBe('2026-06-30 23:59:59.999');
  });

  it('commits a transaction as a whole, and rolls all of it back when its work throws', async () => {
    await db.sql.transaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO "probe" ("id") VALUES (${3})`);
      await tx.transaction((nested) => nested.query(Prisma.sql`INSERT INTO "probe" ("id") VALUES (${4})`));
    });
    const failing = db.sql.transaction(async (tx) => {
      await tx.query(Prisma.sql`INSERT INTO "probe" ("id") VALUES (${5})`);
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    const ids = await db.sql.query<{ id: number }>(Prisma.sql`SELECT "id" FROM "probe" WHERE "id" >= 3 ORDER BY "id"`);
    expect(ids.map((row) => row.id)).toEqual([3, 4]);
  });

  it('stays usable after a statement fails inside a transaction', async () => {
    const duplicate = db.sql.transaction((tx) => tx.query(Prisma.sql`INSERT INTO "probe" ("id") VALUES (${3})`));
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
    const [row] = await db.sql.query<{ n: number }>(Prisma.sql`SELECT count(*) AS "n" FROM "probe"`);
    expect(row!.n).toBe(4);
  });
});
