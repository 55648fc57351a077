import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/**
 * A statement built with `Prisma.sql` (a tagged template: values are bound as parameters, never
 * concatenated); the same object runs through Prisma's `$queryRaw` or through a `SqlClient`.
 */
export type Statement = Prisma.Sql;

/**
 * The driver itself, under Prisma: the `pg.Pool` handed to `PrismaPg`, or the PGlite instance.
 * A statement sent here costs what the driver costs (Prisma's request pipeline adds about ten
 * times that in CPU), so the statements every turn runs go this way (src/storage/). Rows come
 * back the same from both: timestamps as `Date`s read as UTC, `int8` as numbers, JSON parsed,
 * `numeric` as exact strings.
 */
export interface SqlClient {
  query<Row>(statement: Statement): Promise<Row[]>;
  /**
   * Runs `work` in one transaction on one connection, committed when it resolves. `work` sends
   * only this client's statements: a Prisma query inside it would wait, on PGlite, for the one
   * connection this transaction holds.
   */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
}

/** What a statement needs: a client, a transaction of one, or a transaction of Prisma's. */
export type SqlRunner = Pick<SqlClient, 'query'>;

/**
 * Inside a transaction Prisma owns (a service's session-locked change), the same statements run
 * through that transaction: a transaction is always wholly one side's.
 */
export function prismaRunner(prisma: Pick<Prisma.TransactionClient, '$queryRaw'>): SqlRunner {
  return { query: <Row>(statement: Statement) => prisma.$queryRaw<Row[]>(statement) };
}

const OID = { int8: 20, timestamp: 1114 } as const;

/** `timestamp` columns hold UTC (as Prisma writes them); drivers would read them as local time. */
function utcTimestamp(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/** Dates go out as UTC ISO text: a `::timestamp` cast ignores the `Z`, so the stored value is UTC. */
function parameterOf(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

function parametersOf(statement: Statement): unknown[] {
  return statement.values.map(parameterOf);
}

function inTransaction<T>(client: SqlClient, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  // Already inside one: the work joins it.
  return work(client);
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === OID.timestamp) return utcTimestamp;
    if (oid === OID.int8) return Number;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** A client over the pool Prisma's PostgreSQL adapter uses. */
export function pgSqlClient(pool: pg.Pool): SqlClient {
  const on = (queryable: pg.Pool | pg.PoolClient): SqlClient['query'] =>
    async <Row>(statement: Statement) =>
      (await queryable.query({ text: statement.text, values: parametersOf(statement), types: pgTypes })).rows as Row[];
  return {
    query: on(pool),
    async transaction(work) {
      const connection = await pool.connect();
      const tx: SqlClient = { query: on(connection), transaction: (nested) => inTransaction(tx, nested) };
      let broken: Error | undefined;
      try {
        await connection.query('BEGIN');
        const result = await work(tx);
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // A connection whose ROLLBACK fails is not given back to the pool.
        await connection.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        connection.release(broken);
      }
    },
  };
}

const pgliteParsers = {
  [OID.timestamp]: utcTimestamp,
  [OID.int8]: Number,
};

/** A client over the embedded PGlite instance Prisma's PGlite adapter uses. */
export function pgliteSqlClient(pglite: PGlite): SqlClient {
  const on = (queryable: PGlite | Transaction): SqlClient['query'] =>
    async <Row>(statement: Statement) =>
      (await queryable.query<Row>(statement.text, parametersOf(statement), { parsers: pgliteParsers })).rows;
  return {
    query: on(pglite),
    transaction: (work) =>
      pglite.transaction(async (connection) => {
        const tx: SqlClient = { query: on(connection), transaction: (nested) => inTransaction(tx, nested) };
        return work(tx);
      }),
  };
}
