import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send, textOf } from '../support/client.ts';
import { RetryExecutionDocument } from '../support/documents.ts';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

// A restart in the middle of a compaction (docs/compaction.md, "When it happens"): the summary and
// its part are written in one statement, so a server stopped while the summary's model call is in
// flight leaves nothing of it; the interrupted turn, retried on the new server, compacts once and
// completes, and every message stays. The agent is on the demo model; its summaries are written by
// a compatible endpoint (the fake provider) whose first answer never comes.

// Generous: the first compaction loads the o200k tokenizer (the summariser is no demo model), slow on a busy machine.
const TURN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
/** A turn of 10 words sent, 12 answered (`You said: "…"`): 22 of the demo model's tokens. */
const message = (word: string) => `${word} and then some more words to count it now`;

describeEachBackend('a restart in the middle of a compaction', (backend) => {
  let provider: FakeProvider;
  let dataDir: string | null = null;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    provider = await startFakeProvider({ defaultBehaviour: { kind: 'reply', chunks: ['The earlier turns, summarised.'] } });
  });

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    await provider?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing and compacts once: the interrupted turn, retried, compacts and completes', async () => {
    provider.enqueue({ kind: 'hang' });
    const env: Record<string, string> = { PARLEY_PROVIDERS: JSON.stringify({ fake: { baseURL: provider.url } }) };
    if (backend === 'pglite') {
      dataDir = mkdtempSync(join(tmpdir(), 'parley-compaction-restart-'));
      env.PARLEY_DATA_DIR = dataDir;
    }
    const first = await startTestServer({ backend, env, dropSchemaOnStop: false });
    servers.push(first);
    const { token, agentId } = await setUpAgent(first, {
      project: 'Restart',
      contextWindowTokens: 200,
      compaction: { keptTurns: 2, model: 'fake:summariser' },
    });
    const threadId = await newThread(first, token, agentId);

    // Seven turns (154 words with the replies) stay under the threshold (160); the eighth passes it
    // and asks the fake provider for a summary, which does not come.
    const sent = WORDS.map(message);
    for (const text of sent.slice(0, -1)) {
      await send(first, token, threadId, text);
      await settledConversation(first, token, threadId, { timeoutMs: TURN_TIMEOUT_MS });
    }
    expect(provider.requests).toHaveLength(0);
    await send(first, token, threadId, sent.at(-1)!);
    await provider.waitForRequests(1, TURN_TIMEOUT_MS);
    await first.stop();

    const second = await startTestServer({ backend, env: first.env });
    servers.push(second);
    const interrupted = await settledConversation(second, token, threadId, { outcome: 'ANY' });
    const failed = messagesOf(interrupted).at(-1)!;
    expect(failed).toMatchObject({ role: 'ASSISTANT', outcome: 'INTERRUPTED' });
    // Nothing of the compaction was written: no part, no event.
    const compactionsOf = (messages: ReturnType<typeof messagesOf>) => messages.flatMap((entry) => entry.parts.filter((part) => part.__typename === 'CompactionPart'));
    expect(compactionsOf(messagesOf(interrupted))).toEqual([]);
    const prisma = second.parley.db.prisma;
    const rawThreadId = Buffer.from(threadId, 'base64').toString().replace('Thread:', '');
    const compactedEvents = async () =>
      (await prisma.threadEvent.findMany({ where: { threadId: rawThreadId } })).filter((event) => (event.payload as { type: string }).type === 'ThreadCompacted');
    expect(await compactedEvents()).toHaveLength(0);

    // Retried, the turn compacts once (the fake provider answers now) and completes.
    const retried = (await requestData(second, RetryExecutionDocument, { executionId: failed.executionId! }, token)).retryExecution;
    expect(retried.__typename).toBe('MessageQueued');
    const settled = messagesOf(await settledConversation(second, token, threadId));
    expect(textOf(settled.at(-1))).toBe(`You said: "${sent.at(-1)}"`);
    expect(compactionsOf(settled)).toEqual([expect.objectContaining({ summary: 'The earlier turns, summarised.', model: 'fake:summariser', undone: false })]);
    expect(await compactedEvents()).toHaveLength(1);
    expect(provider.requests).toHaveLength(2);
    // What the summary replaced reached its model, and every message sent stays in the thread.
    const summarised = JSON.stringify(provider.requests[1]!.body.messages);
    expect(summarised).toContain(sent[0]);
    expect(settled.filter((entry) => entry.role === 'USER').map(textOf)).toEqual(expect.arrayContaining(sent));
    expect(new Set(settled.filter((entry) => entry.role === 'USER').map(textOf))).toEqual(new Set(sent));

    // The next turn sees summary + recent turns, and no second compaction happens for it.
    await send(second, token, threadId, '/history');
    const history = textOf(messagesOf(await settledConversation(second, token, threadId)).at(-1));
    expect(history).toMatch(/^History: \[summary\] The earlier turns, summarised\. \| /);
    expect(provider.requests).toHaveLength(2);
  }, TEST_TIMEOUT_MS);
});
