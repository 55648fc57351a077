import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { describeWithServices } from '../support/backends.ts';
import { startPrivateCluster, type PrivateCluster } from '../support/private-cluster.ts';
import { eventually } from '../support/server.ts';

/**
 * PostgreSQL ending the sessions (a restart, an outage) must not end the process: the pool's idle
 * connections and one held by a transaction between its statements both emit 'error' then, which
 * nobody else hears before Prisma's first query (the turn's statements do not go through Prisma).
 */
describeWithServices('connections that PostgreSQL ends', () => {
  let cluster: PrivateCluster;
  let db: Database;
  const uncaught: unknown[] = [];
  const remember = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    process.on('uncaughtException', remember);
  }, 120_000);

  afterAll(async () => {
    process.off('uncaughtException', remember);
    await db?.close();
    await cluster?.destroy();
  }, 120_000);

  it('fail what ran on them, and leave the process and the pool working', async () => {
    db = await openDatabase({ databaseUrl: cluster.url });
    // Idle connections in the pool, and one held by a transaction between two statements.
    await Promise.all([1, 2, 3].map((n) => db.sql.query(Prisma.sql`SELECT ${n}::int AS "n"`)));
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let began!: () => void;
    const inTransaction = new Promise<void>((resolve) => (began = resolve));
    const transaction = db.sql.transaction(async (tx) => {
      await tx.query(Prisma.sql`SELECT 1 AS "first"`);
      began();
      await paused;
      return tx.query(Prisma.sql`SELECT 2 AS "second"`);
    });
    await inTransaction;

    await cluster.stop();
    resume();
    await expect(transaction).rejects.toThrow();
    await cluster.start();
    const [row] = await eventually(
      () => db.sql.query<{ n: number }>(Prisma.sql`SELECT 7::int AS "n"`).catch(() => null),
      30_000,
      'a statement after the restart',
    );
    expect(row).toEqual({ n: 7 });
    expect(uncaught).toEqual([]);
  }, 120_000);
});
