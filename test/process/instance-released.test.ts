import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';

/**
 * A stopped instance keeps nothing alive: nothing global (a process-wide observer, a listener on
 * the process) holds it, its embedded database included. A process that opens instances one after
 * another (the test suite, `parley` commands) would otherwise keep every one of them — about 200 MB
 * each with PGlite.
 */

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function released(target: WeakRef<object>): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    // A WeakRef's target stays alive until the job that made or read it ends: collect between turns.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    if (target.deref() === undefined) return true;
  }
  return false;
}

it('is collected once stopped: nothing of it outlives its stop', async () => {
  let server: Awaited<ReturnType<typeof startTestServer>> | null = await startTestServer({ backend: 'pglite' });
  const instance = new WeakRef(server.parley);
  const database = new WeakRef(server.parley.db);
  await server.stop();
  server = null;
  expect(await released(instance)).toBe(true);
  expect(await released(database)).toBe(true);
});
