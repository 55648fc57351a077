import { get } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { send } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// The demo model cannot monopolise the server: a run streaming 100,000 chunks as fast as it can
// leaves the event loop free for every other request.

// A connection of its own per probe: PGlite runs in this process, and its settlement of the long reply
// may hold the event loop for longer than the keep-alive timeout, which would reset a reused socket
// under a request already sent (a client's race, not what this test measures).
function health(url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve());
      response.once('error', reject);
    });
    request.once('error', reject);
  });
}

describeEachBackend('The demo model shares the event loop', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Demo stream' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('/tokens 100000 streams while /health answers within 100 ms throughout', async () => {
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, '/tokens 100000');
    // The run is watched in the instance's memory: polling the database would compete with the run's own writes.
    const id = decodeId('threadId', threadId, 'Thread');
    const running = () => server.parley.running.all().some((run) => run.threadId === id);
    await eventually(running, 120_000, 'the run to start');
    const latencies: number[] = [];
    // The server runs in this process: how long its event loop was kept from other work, besides what /health took.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const deadline = Date.now() + 180_000;
    while (running() && Date.now() < deadline) {
      const startedAt = performance.now();
      await health(new URL('/health', server.url));
      latencies.push(performance.now() - startedAt);
    }
    const ended = async () => {
      const { status } = await server.parley.db.prisma.execution.findFirstOrThrow({ where: { threadId: id } });
      return status !== 'RUNNING' && status;
    };
    expect(await eventually(ended, 30_000, 'the run’s end recorded')).toBe('COMPLETED');
    loopDelay.disable();
    const sorted = [...latencies].sort((a, b) => a - b);
    const summary = {
      samples: sorted.length,
      healthP50: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      healthP95: Math.round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
      loopDelayP95: Math.round(loopDelay.percentile(95) / 1e6),
    };
    // Many samples while the run streamed, so the bound held throughout, not at one lucky moment; the
    // median of /health and the event loop's p95 take the 100 ms bound (the tail of /health is the
    // machine's: other processes share its cores).
    expect(summary.samples, JSON.stringify(summary)).toBeGreaterThan(20);
    expect(summary.healthP50, JSON.stringify(summary)).toBeLessThan(100);
    expect(summary.loopDelayP95, JSON.stringify(summary)).toBeLessThan(100);
  }, 240_000);
});
