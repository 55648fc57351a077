import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.ts';
import { acquireDataDirLock } from './embedded-lock.ts';
import { migrate, readMigrations, type MigrationConnection } from './migrator.ts';
import { pgliteSqlClient, pgSqlClient, type SqlClient } from '../storage/sql-client.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  kind: DatabaseKind;
  prisma: PrismaClient;
  /** The same connections without Prisma in between: for the statements every turn runs (src/storage/). */
  sql: SqlClient;
  /** A short-lived raw connection, e.g. for the migrator or for the readiness probe. */
  withConnection<T>(work: (connection: MigrationConnection) => Promise<T>): Promise<T>;
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  /** The PostgreSQL pool's connections checked out and queries waiting for one (PGlite has no pool). */
  poolUsage?(): { inUse: number; waiting: number };
  close(): Promise<void>;
}

/** How long a PostgreSQL client waits, so that a slow or saturated database answers instead of hanging. */
export interface PoolLimits {
  /** Connections in this instance's pool. */
  size: number;
  /** A request that finds every connection busy waits this long for one, then fails as an outage. */
  acquireTimeoutMs: number;
  /** The server cancels a statement (a lock wait included) that runs longer. */
  statementTimeoutMs: number;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = { size: 10, acquireTimeoutMs: 5_000, statementTimeoutMs: 30_000 };

export type DatabaseTarget =
  | { databaseUrl: string; pool?: PoolLimits }
  | { dataDir: string }
  | { memory: true };

function pgConnection(client: pg.PoolClient | pg.Client): MigrationConnection {
  return {
    async query(sql, params) {
      return (await client.query(sql, params as unknown[])).rows;
    },
    async exec(sql) {
      await client.query(sql);
    },
  };
}

function pgliteConnection(db: PGlite): MigrationConnection {
  return {
    async query(sql, params) {
      return (await db.query(sql, params as unknown[])).rows as never[];
    },
    async exec(sql) {
      await db.exec(sql);
    },
  };
}

/**
 * CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent twin (two instances starting at
 * once): the loser gets a unique violation on the catalog, which here means "it exists now".
 */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', '')}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

/** How long closing waits for connections still checked out before it ends them. */
export const CLOSE_CHECKOUT_WAIT_MS = 5_000;

/**
 * A connection the server ends (a restart, an outage) emits 'error', and so does the pool for an
 * idle one; unheard, either is an uncaught exception that ends the process. What is running on it
 * fails on its own (and is classified as an outage); the pool drops the connection and the next
 * statement opens another. Prisma listens only while it is connected, and the turn's statements
 * do not go through it, so the pool is heard from its start to its end.
 */
function survivesEndedConnections(pool: pg.Pool): void {
  const dropped = () => {};
  pool.on('error', dropped);
  pool.on('connect', (client) => client.on('error', dropped));
}

/** The pool's connections that are checked out now. */
function trackCheckouts(pool: pg.Pool): Set<pg.PoolClient> {
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('remove', (client) => checkedOut.delete(client as pg.PoolClient));
  return checkedOut;
}

/**
 * `pool.end()` waits for every checked-out connection to come back, and one that never does (its
 * holder stopped waiting for it, as after a database outage) would keep the instance from
 * stopping. After a bounded wait the rest are ended; their holders, if any still wait, see their
 * queries fail. Resolves with how many had to be ended.
 */
async function endPool(pool: pg.Pool, checkedOut: Set<pg.PoolClient>, waitMs: number): Promise<number> {
  const ended = pool.end();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waited'>((resolve) => {
    timer = setTimeout(() => resolve('waited'), waitMs);
  });
  try {
    if ((await Promise.race([ended, waited])) !== 'waited') return 0;
  } finally {
    clearTimeout(timer);
  }
  const abandoned = [...checkedOut];
  for (const client of abandoned) client.release(new Error('the database is closing'));
  await ended;
  return abandoned.length;
}

export interface OpenOptions {
  /** Told at close how many connections were still checked out after the wait, and were ended. */
  onAbandonedConnections?: (count: number) => void;
  closeWaitMs?: number;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if ('databaseUrl' in target) {
    // `?schema=name` (Prisma's convention) selects a schema other than public, e.g. one per test suite.
    const url = new URL(target.databaseUrl);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    const limits = target.pool ?? DEFAULT_POOL_LIMITS;
    const pool = new pg.Pool({
      connectionString: url.toString(),
      max: limits.size,
      // Also bounds the wait for a free connection of the pool, not only the connect itself.
      connectionTimeoutMillis: limits.acquireTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      options: `-c search_path="${schema.replaceAll('"', '')}"`,
    });
    survivesEndedConnections(pool);
    const checkedOut = trackCheckouts(pool);
    if (schema !== 'public') await createSchema(pool, schema);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
    const withConnection = async <T>(work: (connection: MigrationConnection) => Promise<T>) => {
      const client = await pool.connect();
      try {
        return await work(pgConnection(client));
      } finally {
        client.release();
      }
    };
    return {
      kind: 'postgres',
      prisma,
      sql: pgSqlClient(pool),
      withConnection,
      migrate: async () => withConnection(async (connection) => migrate(connection, await readMigrations())),
      ping: async () => {
        await withConnection((connection) => connection.query('SELECT 1'));
      },
      poolUsage: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await prisma.$disconnect();
        const abandoned = await endPool(pool, checkedOut, options.closeWaitMs ?? CLOSE_CHECKOUT_WAIT_MS);
        if (abandoned > 0) options.onAbandonedConnections?.(abandoned);
      },
    };
  }

  const releaseLock = 'dataDir' in target ? acquireDataDirLock(target.dataDir) : () => {};
  let pglite: PGlite;
  try {
    pglite = new PGlite('dataDir' in target ? `${target.dataDir}/pgdata` : 'memory://');
    await pglite.waitReady;
  } catch (error) {
    releaseLock();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const connection = pgliteConnection(pglite);
  return {
    kind: 'pglite',
    prisma,
    sql: pgliteSqlClient(pglite),
    withConnection: async (work) => work(connection),
    migrate: async () => migrate(connection, await readMigrations()),
    ping: async () => {
      await connection.query('SELECT 1');
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
      releaseLock();
    },
  };
}
