import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { send } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { ENDED, executionReaching } from '../support/waits.ts';

// The demo model cannot monopolise the server: a run streaming its chunks as fast as it can leaves
// the event loop free for every other request, all along the reply.

// Enough for the reply to outlast many slices of the loop; /tokens allows more, but on a loaded
// machine a longer reply only makes the suite slower, not the check stronger.
const CHUNKS = 50_000;

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

// On the embedded database only: PGlite runs on the same event loop as the server, the harder case;
// what the demo model yields does not depend on the backend.
describe('The demo model shares the event loop', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ token, agentId } = await setUpAgent(server, { project: 'Demo stream' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it(`/tokens ${CHUNKS} streams while /health keeps answering throughout`, async () => {
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, `/tokens ${CHUNKS}`);
    // The run is watched in the instance's memory: polling the database would compete with the run's own writes.
    const id = decodeId('threadId', threadId, 'Thread');
    const run = () => server.parley.execution.running.all().find((entry) => entry.threadId === id);
    const executionId = encodeId('Execution', (await eventually(run, 120_000, 'the run to start')).executionId);
    // How far the reply had come each time /health answered: in reply characters, not in
    // milliseconds, so a busy machine (which slows the run and /health alike) cannot change it.
    const replyLength = () =>
      (run()?.snapshot().parts ?? []).reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
    const progressAtAnswers: number[] = [0];
    const deadline = Date.now() + 180_000;
    while (run() && Date.now() < deadline) {
      await health(new URL('/health', server.url));
      if (run()) progressAtAnswers.push(replyLength());
    }
    expect((await executionReaching(server, token, executionId, ENDED, 30_000)).status).toBe('COMPLETED');
    // /tokens n streams "t1 " … "tn ".
    const fullLength = Array.from({ length: CHUNKS }, (_, index) => `t${index + 1} `).join('').length;
    progressAtAnswers.push(fullLength);
    // A run that kept the event loop would answer /health only before it started or after it ended:
    // one gap of the whole reply. Sharing it, /health answers all along, each while only a small
    // part of the reply streamed.
    const largestGap = Math.max(...progressAtAnswers.slice(1).map((progress, index) => progress - progressAtAnswers[index]!));
    const summary = JSON.stringify({ answers: progressAtAnswers.length - 2, largestGap, fullLength });
    expect(progressAtAnswers.length - 2, summary).toBeGreaterThan(20);
    expect(largestGap, summary).toBeLessThan(fullLength / 10);
  }, 240_000);
});
