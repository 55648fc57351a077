import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './instances.ts';

const run = promisify(execFile);

// Clusters still running when the test process exits (a hook that timed out) are stopped then.
const running = new Map<string, () => void>();
process.once('exit', () => {
  for (const stop of running.values()) stop();
});

/**
 * A PostgreSQL cluster of the fault suite's own (initdb + pg_ctl in a temp dir, on a free port), so
 * that a test may stop and start it; the machine's shared PostgreSQL is never touched.
 */
export interface PrivateCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: the server ends every session, as an operator's restart does. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and deletes its folder. */
  destroy(): Promise<void>;
}

function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error(`no PostgreSQL under ${root}`);
  return path.join(root, versions[0]!, 'bin');
}

/** initdb and pg_ctl refuse to run as root: as root they run as the postgres user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function postgresIds(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = postgresBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-pg-'));
  const ids = postgresIds();
  chmodSync(dir, 0o700);
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  await run(...asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']));
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pgCtl = (args: string[]) => run(...asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-w', '-t', '60', ...args]));
  const start = async () => {
    await pgCtl(['-o', options, '-l', path.join(dir, 'log'), 'start']);
  };
  await start();
  let up = true;
  running.set(dir, () => {
    try {
      execFileSync(...asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']), { stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await pgCtl(['-m', 'fast', 'stop']);
      up = false;
    },
    async start() {
      await start();
      up = true;
    },
    async destroy() {
      if (up) await pgCtl(['-m', 'immediate', 'stop']).catch(() => {});
      running.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
