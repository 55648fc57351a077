import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { describeWithServices } from '../support/backends.ts';
import { TEST_DATABASE_URL } from '../support/server.ts';

describeWithServices('closing a PostgreSQL database', () => {
  it('ends a connection whose holder never gives it back, after a bounded wait, and says how many', async () => {
    const abandoned: number[] = [];
    const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL! }, { closeWaitMs: 200, onAbandonedConnections: (count) => abandoned.push(count) });
    let holderSaw: unknown = null;
    let checkedOut!: () => void;
    const isCheckedOut = new Promise<void>((resolve) => (checkedOut = resolve));
    // A holder that takes a connection and then waits for something that never comes.
    const holding = db.withConnection(async (connection) => {
      checkedOut();
      await new Promise(() => {});
      return connection;
    });
    void holding.catch((error) => (holderSaw = error));
    await isCheckedOut;

    await db.close();

    expect(abandoned).toEqual([1]);
    expect(holderSaw).toBeNull();
  });

  it('closes at once, reporting nothing, when every connection is back', async () => {
    const abandoned: number[] = [];
    const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL! }, { closeWaitMs: 60_000, onAbandonedConnections: (count) => abandoned.push(count) });
    await db.ping();
    await db.close();
    expect(abandoned).toEqual([]);
  });
});
