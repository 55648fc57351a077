/**
 * P7: start to ready. Embedded: `npm start` (as a user types it) with a fresh PARLEY_DATA_DIR: PGlite
 * initdb, migrations, demo bootstrap, until the "Parley is running" banner. PostgreSQL: `node
 * bin/parley.js serve` with a fresh schema (migrations included) and Redis, until the banner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabaseUrl, REDIS_URL } from '../lib/hosts.ts';
import { serve } from '../lib/serve.ts';
import { spread } from '../lib/stats.ts';
import { log } from '../lib/log.ts';
import type { Row } from '../lib/types.ts';

const ROUNDS = 3;

export const p7: Row = async () => {
  const embedded: number[] = [];
  const postgres: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
    try {
      const cold = await serve('npm-start', { PARLEY_DATA_DIR: dir });
      embedded.push(cold.readyMs);
      await cold.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const pgServer = await serve('node', { DATABASE_URL: benchDatabaseUrl(`p7r${r}`), REDIS_URL });
    postgres.push(pgServer.readyMs);
    await pgServer.stop();
    log(`P7 round ${r}: embedded cold ${embedded[r]!.toFixed(0)} ms, PostgreSQL ${postgres[r]!.toFixed(0)} ms`);
  }
  return {
    id: 'P7',
    what: 'start to ready: embedded `npm start` on a fresh data folder, and PostgreSQL + Redis on a fresh schema',
    metrics: [
      { name: 'embedded cold start (`npm start`, fresh data dir)', unit: 'ms', measured: spread(embedded), budget: 'report', pass: null },
      { name: 'PostgreSQL start (`parley serve`, fresh schema)', unit: 'ms', measured: spread(postgres), budget: 'report', pass: null },
    ],
    notes: ['time from spawning the process to the "Parley is running" banner on stdout; `npm start` includes npm\'s own start-up'],
  };
};
