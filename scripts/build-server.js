// The server's production build: src/ compiled by tsc (tsconfig.build.json) into dist/, with a
// stamp of the sources it was built from. Plain JavaScript, because it runs before there is any
// build and without a TypeScript loader: bin/parley.js calls ensureCurrentBuild() before it loads
// dist/, so a build older than the sources is never run; `npm run build` and npm install's
// postinstall run this file.
//
// A build goes to a fresh folder next to dist/ (the same depth, so its source maps' relative paths
// hold) and replaces dist/ only once it is complete: a build that fails or is killed leaves the
// previous one in place, and files of deleted sources do not linger. Processes starting at once
// (several instances, a CLI command next to the server) build once: the others wait on a lock file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, closeSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUILD_DIR = path.join(ROOT, 'dist');
const STAMP = path.join(BUILD_DIR, 'build-stamp.json');
const LOCK = path.join(ROOT, 'dist.lock');
const TSCONFIG = path.join(ROOT, 'tsconfig.build.json');
/** What the build is made of: a change to any of these makes dist/ out of date. */
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json'];
/** Folders tsconfig.build.json leaves out (unit tests beside their module): editing one changes no build. */
const EXCLUDED = new Set(['__tests__']);
const LOCK_WAIT_MS = 5 * 60_000;

function filesOf(entry) {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .filter((name) => !EXCLUDED.has(name))
    .flatMap((name) => filesOf(path.join(entry, name)));
}

/** A hash of every input's path and content. */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesOf)) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function builtFrom() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).sources ?? null;
  } catch {
    return null;
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` holding the build lock; a lock left by a process that died is taken over. */
async function withLock(work) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd;
    try {
      fd = openSync(LOCK, 'wx');
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(LOCK, 'utf8'), 10);
      } catch {
        // released meanwhile
      }
      if (Number.isInteger(holder) && !processAlive(holder)) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another build (pid ${holder}) still holds ${LOCK}`);
      await sleep(200);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return await work();
    } finally {
      try {
        unlinkSync(LOCK);
      } catch {
        // already gone
      }
    }
  }
}

function compile(sources) {
  const staging = `${BUILD_DIR}.tmp-${process.pid}`;
  const previous = `${BUILD_DIR}.old-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', TSCONFIG, '--outDir', staging], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() || String(result.error ?? `exit ${result.status}`);
    throw new Error(`tsc failed:\n${output}`);
  }
  writeFileSync(path.join(staging, 'build-stamp.json'), `${JSON.stringify({ sources, builtAt: new Date().toISOString() })}\n`);
  try {
    renameSync(BUILD_DIR, previous);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(staging, BUILD_DIR);
  rmSync(previous, { recursive: true, force: true });
}

/** Compiles src/ into dist/ now. */
export async function build() {
  await withLock(async () => compile(sourceHash()));
}

/** Builds dist/ unless it was built from the sources as they are; true when it built. */
export async function ensureCurrentBuild() {
  if (builtFrom() === sourceHash()) return false;
  return withLock(async () => {
    // Another process may have built it while this one waited for the lock.
    const sources = sourceHash();
    if (builtFrom() === sources) return false;
    process.stderr.write('parley: dist/ is missing or older than src/: building it (npm run build)…\n');
    compile(sources);
    return true;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await build();
    console.log('server built into dist/');
  } catch (error) {
    console.error(`parley: the build failed: ${error.message}`);
    process.exit(1);
  }
}
