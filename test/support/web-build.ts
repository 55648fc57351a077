import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildWebApp } from '../../scripts/build-web.ts';
import { WEB_APP_DIRECTORY } from '../../src/server/plugins/use-web-app.ts';
import { eventually } from './server.ts';

// The suites that load the web chat build it when the build is missing or older than its sources
// (npm install builds it too; this keeps a suite true to the sources it runs against).

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'packages/client/src'].map((source) => path.join(ROOT, source));
const LOCK = path.join(ROOT, 'web/.build-lock');

function newestChange(file: string): number {
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(file).map((entry) => newestChange(path.join(file, entry))));
}

function builtAt(): number | null {
  try {
    return statSync(path.join(WEB_APP_DIRECTORY, 'index.html')).mtimeMs;
  } catch {
    return null;
  }
}

const isStale = () => {
  const built = builtAt();
  return built === null || SOURCES.some((source) => newestChange(source) > built);
};

/** Builds web/dist unless it is up to date; suites running at once build it once (a lock folder). */
export async function ensureWebAppBuilt(): Promise<void> {
  if (!isStale()) return;
  const lockTaken = () => {
    try {
      mkdirSync(LOCK);
      return true;
    } catch {
      return false;
    }
  };
  await eventually(lockTaken, 120_000, `${LOCK} to be free (remove it if no build is running)`);
  try {
    if (!isStale()) return;
    await buildWebApp();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
