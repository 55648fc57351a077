import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another Parley process (pid ${pid}). ` +
        `PGlite admits one process per data folder. Stop that process first (or use the GraphQL API of the running ` +
        `server, which offers the same operations), or point PARLEY_DATA_DIR at another folder. Nothing was changed.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** The data folder cannot be created or written (permissions, a read-only or full disk). */
export class DataDirUnusableError extends Error {
  constructor(
    readonly dataDir: string,
    readonly reason: string,
  ) {
    super(
      `The data folder ${dataDir} cannot be used: ${reason}. Parley keeps its embedded database there and ` +
        `must be able to write to it. Free some space, fix its permissions, or point PARLEY_DATA_DIR at a ` +
        `writable folder. Nothing was changed.`,
    );
    this.name = 'DataDirUnusableError';
  }
}

const UNUSABLE_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'it is on a read-only file system',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  ENOTDIR: 'a part of the path is a file, not a folder',
};

/**
 * Free space the data folder must have at start. A new store takes about 30 MB; PGlite that runs out
 * of space while writing aborts (a bare "Aborted()") and may leave a half-written store behind, so
 * Parley refuses to start below this instead.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

function ensureFreeSpace(dataDir: string): void {
  const { bavail, bsize } = statfsSync(dataDir);
  const free = bavail * bsize;
  if (free < MIN_FREE_BYTES) {
    const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));
    throw new DataDirUnusableError(dataDir, `the disk is full (${mb(free)} MB free, Parley needs at least ${mb(MIN_FREE_BYTES)} MB)`);
  }
}

/** Runs a file-system step of opening the folder, turning "cannot write here" into DataDirUnusableError. */
function inDataDir<T>(dataDir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    const reason = UNUSABLE_REASONS[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason) throw new DataDirUnusableError(dataDir, reason);
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive, pid-stamped lock file in the data folder before PGlite opens it, because two
 * processes opening one PGlite folder corrupt it. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  try {
    // The folder holds the database and the demo token: only its owner may read it.
    inDataDir(dataDir, () => mkdirSync(dataDir, { recursive: true, mode: 0o700 }));
  } catch (error) {
    // On a read-only file system a recursive mkdir reports the missing folder, not the reason.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DataDirUnusableError(dataDir, 'it cannot be created');
    throw error;
  }
  if (!statSync(dataDir).isDirectory()) throw new DataDirUnusableError(dataDir, 'it is a file, not a folder');
  ensureFreeSpace(dataDir);
  const lockPath = path.join(dataDir, 'parley.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // Writing the lock file also proves that the folder takes writes, before PGlite opens it.
      inDataDir(dataDir, () => {
        const fd = openSync(lockPath, 'wx');
        try {
          writeSync(fd, String(process.pid));
        } catch (error) {
          closeSync(fd);
          rmSync(lockPath, { force: true });
          throw error;
        }
        closeSync(fd);
      });
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(dataDir, holder);
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}
