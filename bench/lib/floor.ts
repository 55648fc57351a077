/**
 * The raw write floor of P3, P8, P10 and P11: `BEGIN; INSERT one row; COMMIT`.
 * PostgreSQL: through `pg` from the bench process on a pool of 10 connections (the size of the
 * server's own pool). PGlite: inside the host process on the server's own PGlite instance (it has
 * one connection, so the loop runs there; the figure then has no HTTP or IPC in it at all).
 */
import pg from 'pg';
import type { Host } from './hosts.ts';

export const FLOOR_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS bench_floor_insert (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), thread_id text NOT NULL, text text NOT NULL, position int NOT NULL, created_at timestamptz NOT NULL DEFAULT now())';

export interface InsertFloor {
  /** Runs `workers` closed loops of the raw transaction for `durationMs`; latencies in ms. */
  closedLoop(workers: number, durationMs: number): Promise<number[]>;
  /** `count` raw transactions one after the other; latencies in ms. */
  sequential(count: number): Promise<number[]>;
  close(): Promise<void>;
}

/** Runs `work` in `workers` loops until `durationMs` has passed; the latency of each call. */
export async function closedLoop(workers: number, durationMs: number, work: (worker: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < end) {
        const started = performance.now();
        await work(worker);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

export async function postgresFloor(databaseUrl: string): Promise<InsertFloor> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema')!;
  url.searchParams.delete('schema');
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, options: `-c search_path="${schema}"` });
  // A row may measure the floor before any server has migrated (and so created) its schema.
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(FLOOR_TABLE_SQL);
  const insert = async (worker: number) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO bench_floor_insert (thread_id, text, position) VALUES ($1, $2, $3)', [
        `thread-${worker}`,
        'hello from the benchmark',
        worker,
      ]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  return {
    closedLoop: (workers, durationMs) => closedLoop(workers, durationMs, insert),
    async sequential(count) {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await insert(0);
        latencies.push(performance.now() - started);
      }
      return latencies;
    },
    close: () => pool.end(),
  };
}

/** The floor on a PGlite host: the loops run in the host process (host.ts `floorLoop`). */
export function pgliteFloor(host: Host): InsertFloor {
  return {
    closedLoop: (workers, durationMs) => host.call<number[]>('floorLoop', { workers, durationMs }),
    sequential: (count) => host.call<number[]>('floorLoop', { workers: 1, count }),
    close: async () => {},
  };
}
