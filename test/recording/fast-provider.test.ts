import { afterAll, beforeAll, expect, it } from 'vitest';
import { replyTexts, type RunEvent } from '../support/run-events.ts';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.ts';
import { follow } from '../support/follower.ts';
import { send } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A fast model (thousands of chunks a second, through the real OpenAI package) must still stream
// to an ordinary reader: deltas are joined at the publisher, so the reader's buffer bound is not
// what decides whether it sees any live text.
const CHUNKS = Array.from({ length: 20_000 }, (_, index) => `w${index + 1} `);
const REPLY = CHUNKS.join('');

let fake: FakeProvider;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeProvider({ defaultBehaviour: { kind: 'reply', chunks: CHUNKS } });
  server = await startTestServer({ env: { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: fake.url } });
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

it('a reader of a 20,000-chunk reply streamed at full speed receives it live, in joined deltas, not as one final snapshot', async () => {
  const { token, agentId } = await setUpAgent(server, { project: 'Fast', name: 'Fast model', model: 'openai:gpt-test', tools: [] });
  const threadId = await newThread(server, token, agentId);
  const follower = follow(server, token, threadId);
  await send(server, token, threadId, 'write a lot');
  // 20,000 chunks take a few seconds on a quiet machine and several times that on a loaded one.
  const events: RunEvent[] = await follower.waitUntil((seen) => seen.some((event) => event.__typename === 'ExecutionFinished'), 100_000);
  await follower.close();

  expect([...replyTexts(events).values()].join('')).toBe(REPLY);
  const deltas = events.filter((event): event is Extract<RunEvent, { __typename: 'TextDelta' }> => event.__typename === 'TextDelta');
  const summary = JSON.stringify({ deltas: deltas.length, snapshots: events.filter((event) => event.__typename === 'MessageSnapshot').length });
  // Live throughout: most of the text arrived as deltas, in many of them…
  expect(deltas.reduce((sum, delta) => sum + delta.text.length, 0), summary).toBeGreaterThan(REPLY.length * 0.9);
  expect(deltas.length, summary).toBeGreaterThan(10);
  // …each joining many chunks.
  expect(deltas.length, summary).toBeLessThan(CHUNKS.length / 10);
}, 120_000);
