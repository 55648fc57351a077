import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, stopAllChildren } from '../support/instances.ts';
import { eventually } from '../support/server.ts';
import { STDIO_SERVER_ARGS, STDIO_SERVER_COMMAND } from '../support/stdio-command.ts';

// A declared stdio tool server is a child of its Parley instance: it must not outlive it, whether
// the instance stops (SIGTERM: the module closes the client, which ends the child) or is killed
// (SIGKILL: nothing of Parley runs, the child sees its stdin end).

/** Running, not merely a zombie: an orphan that ended waits for PID 1 to reap it, which may never come here. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('stdio tool server processes', { timeout: 240_000 }, () => {
  let folder: string;
  let file: string;
  let pids: string;
  const serve = () => startInstance({ PARLEY_LOG_LEVEL: 'silent', PARLEY_DATA_DIR: join(folder, 'data'), PARLEY_TOOL_SERVERS_FILE: file }, { timeoutMs: 180_000 });
  const started = () => (readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number));

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-stdio-children-'));
    file = join(folder, 'tool-servers.json');
    pids = join(folder, 'pids');
    writeFileSync(pids, '');
    writeFileSync(
      file,
      JSON.stringify({ servers: { local: { command: STDIO_SERVER_COMMAND, args: STDIO_SERVER_ARGS, env: { STDIO_TEST_PIDS: pids }, projects: ['*'] } } }),
    );
  });

  afterAll(async () => {
    await stopAllChildren();
    for (const pid of started()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  it('end with their instance: at a graceful stop and when it is killed with SIGKILL', async () => {
    const first = await serve();
    const [child] = await eventually(() => started().length === 1 && started(), 60_000, 'the first child');
    expect(alive(child!)).toBe(true);
    await first.stop();
    // The module ends the child as the instance stops (stdin closed, then SIGTERM, then SIGKILL, a
    // couple of seconds apart); on a loaded machine the last step may land just after the instance exits.
    await eventually(() => !alive(child!), 15_000, 'the child of the stopped instance to end');

    const second = await serve();
    const next = await eventually(() => started().length === 2 && started()[1], 60_000, 'the second child');
    expect(alive(next!)).toBe(true);
    await second.kill();
    await eventually(() => !alive(next!), 15_000, 'the child of the killed instance to end');
  });

  it('a bad file stops `parley serve` before it opens anything, naming the file and the problem', async () => {
    const bad = join(folder, 'bad.json');
    writeFileSync(bad, JSON.stringify({ servers: { local: { command: 'x', projects: ['*'], shell: true } } }));
    const refused = startInstance({ PARLEY_LOG_LEVEL: 'silent', PARLEY_DATA_DIR: join(folder, 'never'), PARLEY_TOOL_SERVERS_FILE: bad });
    await expect(refused).rejects.toThrow(`PARLEY_TOOL_SERVERS_FILE: ${bad}: servers.local: `);
    await expect(refused).rejects.toThrow('shell');
  });
});
