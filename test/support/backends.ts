import { describe } from 'vitest';
import { TEST_DATABASE_URL, TEST_REDIS_URL, type Backend } from './server.ts';

/**
 * Integration suites run against the machine's PostgreSQL and Redis when TEST_DATABASE_URL and
 * TEST_REDIS_URL are set (CI sets both: an unreachable service then fails the suite). Without them
 * those variants are skipped, each saying so in one line. (One line per suite, not per file: test
 * files share their worker's modules, so a flag here would speak for the first file only.)
 */
function servicesUnavailable(title: string): boolean {
  if (TEST_DATABASE_URL && TEST_REDIS_URL) return false;
  const missing = [!TEST_DATABASE_URL && 'TEST_DATABASE_URL', !TEST_REDIS_URL && 'TEST_REDIS_URL'].filter(Boolean);
  console.log(`${missing.join(' and ')} not set: skipping "${title}" (its PostgreSQL + Redis variant)`);
  return true;
}

/**
 * Defines `suite` unless it needs the services and they are not configured. A skipped suite's body
 * is never run, so whatever it does while the file is collected (an `isolatedEnv('postgres')`, a
 * connection string read) cannot throw on a machine without PostgreSQL and Redis.
 */
function describeIf(needsServices: boolean, title: string, suite: () => void): void {
  if (needsServices && servicesUnavailable(title)) describe.skip(title, () => {});
  else describe(title, suite);
}

/**
 * CI's phase that runs only the PostgreSQL + Redis variants sets TEST_ONLY_SERVICES: another phase on
 * the same Node.js line has run the PGlite ones (scripts/ci-suite.ts).
 */
const ONLY_SERVICES = process.env.TEST_ONLY_SERVICES === '1';

/** Defines `suite` on PGlite (with in-process pub/sub) and on PostgreSQL + Redis, as `<title> on <backend>`. */
export function describeEachBackend(title: string, suite: (backend: Backend) => void): void {
  for (const backend of ['pglite', 'postgres'] as const) {
    if (backend === 'pglite' && ONLY_SERVICES) describe.skip(`${title} on ${backend}`, () => {});
    else describeIf(backend === 'postgres', `${title} on ${backend}`, () => suite(backend));
  }
}

/** Defines a suite that needs the test PostgreSQL and Redis. */
export function describeWithServices(title: string, suite: () => void): void {
  describeIf(true, title, suite);
}
