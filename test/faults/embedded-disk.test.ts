import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_FROM_SOURCES } from '../support/cli.ts';

const run = promisify(execFile);

/** `parley serve` on a data folder: its exit code and what it said on stderr. */
async function serveOn(dataDir: string): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, [...CLI_FROM_SOURCES, 'serve'], {
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PARLEY_DATA_DIR: dataDir, PORT: '0' },
      timeout: 60_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

/** A small tmpfs (read-only, or nearly full): needs mount privileges, which a CI runner may lack. */
async function mountTmpfs(options: string): Promise<string | null> {
  const target = mkdtempSync(path.join(tmpdir(), 'parley-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', target]);
    return target;
  } catch {
    rmSync(target, { recursive: true, force: true });
    return null;
  }
}

describe('embedded mode on a data folder it cannot write', () => {
  const mounts: string[] = [];
  let readOnly: string | null = null;
  let full: string | null = null;

  beforeAll(async () => {
    readOnly = await mountTmpfs('ro,size=1m');
    full = await mountTmpfs('size=256k');
    for (const mount of [readOnly, full]) if (mount) mounts.push(mount);
    if (!readOnly || !full) console.log('mounting a tmpfs is not permitted here: skipping the read-only and full-disk cases');
  });

  afterAll(async () => {
    for (const mount of mounts) {
      await run('umount', [mount]).catch(() => {});
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('refuses a data folder whose path runs through a file, naming the folder and the reason', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-file-'));
    try {
      writeFileSync(path.join(dir, 'plain-file'), 'not a folder');
      const dataDir = path.join(dir, 'plain-file', 'data');
      const { code, stderr } = await serveOn(dataDir);
      expect(code).toBe(1);
      expect(stderr).toBe(`parley: serve: The data folder ${dataDir} cannot be used: a part of the path is a file, not a folder. Parley keeps its embedded database there and must be able to write to it. Free some space, fix its permissions, or point PARLEY_DATA_DIR at a writable folder. Nothing was changed.\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a read-only data folder with a clear message', async ({ skip }) => {
    if (!readOnly) return skip();
    const dataDir = path.join(readOnly, 'data');
    const { code, stderr } = await serveOn(dataDir);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`^parley: serve: The data folder ${dataDir} cannot be used: it cannot be created\\.`));
  }, 90_000);

  it('refuses a data folder on a full disk before the store is touched', async ({ skip }) => {
    if (!full) return skip();
    const dataDir = path.join(full, 'data');
    const { code, stderr } = await serveOn(dataDir);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot be used: the disk is full \(0 MB free, Parley needs at least 64 MB\)\. .*Nothing was changed\.\n$/);
    // No half-written store (and no lock) is left behind.
    expect(readdirSync(dataDir)).toEqual([]);
  }, 90_000);
});
