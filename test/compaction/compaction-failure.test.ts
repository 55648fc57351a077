import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { messagesOf, send, textOf } from '../support/client.ts';
import { EditMessageDocument } from '../support/documents.ts';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

// When compaction fails (docs/compaction.md): a summary its model refuses fails the turn with the
// model's reason and says it was the summary, the user's message stays, nothing is written and the
// summary is asked for once, not in a loop; the next message, once the model answers, compacts once.
// And compaction follows the active branch: an edit inside the summarised range makes a branch whose
// history is the originals. The agent is on the demo model; its summaries come from a compatible
// endpoint (the fake provider).

// Generous: the first compaction loads the o200k tokenizer (the summariser is no demo model), slow on a busy machine.
const TURN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 240_000;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
/** A turn of 10 words sent, 12 answered (`You said: "…"`): 22 of the demo model's tokens. */
const message = (word: string) => `${word} and then some more words to count it now`;

describeEachBackend('when a compaction fails, and on another branch', (backend) => {
  let provider: FakeProvider;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startFakeProvider({ defaultBehaviour: { kind: 'reply', chunks: ['The earlier turns, summarised.'] } });
    server = await startTestServer({ backend, env: { PARLEY_PROVIDERS: JSON.stringify({ fake: { baseURL: provider.url } }) } });
  });

  afterAll(async () => {
    await server?.stop();
    await provider?.close();
  });

  it('fails the turn with the summary model’s reason, keeps the message, asks once; the next turn compacts once', async () => {
    provider.enqueue({ kind: 'http-error', status: 400, error: { message: 'summary request refused', type: 'invalid_request_error' } });
    const { token, agentId } = await setUpAgent(server, {
      project: 'Failing summary',
      contextWindowTokens: 200,
      compaction: { keptTurns: 2, model: 'fake:summariser' },
    });
    const threadId = await newThread(server, token, agentId);
    // Seven turns stay under the threshold (160 of 200); the eighth passes it and asks for a summary.
    const sent = WORDS.map(message);
    for (const text of sent.slice(0, -1)) {
      await send(server, token, threadId, text);
      await settledConversation(server, token, threadId, { timeoutMs: TURN_TIMEOUT_MS });
    }
    expect(provider.requests).toHaveLength(0);
    await send(server, token, threadId, sent.at(-1)!);
    const failedTurn = messagesOf(await settledConversation(server, token, threadId, { outcome: 'FAILED', timeoutMs: TURN_TIMEOUT_MS }));

    const failed = failedTurn.at(-1)!;
    const error = failed.parts.find((part) => part.__typename === 'ErrorPart');
    expect(error).toMatchObject({ reason: 'INVALID_REQUEST', retryable: false });
    expect(error).toMatchObject({ provider: 'fake', detail: expect.stringContaining('Summarising the thread before the model call failed') });
    expect(failedTurn.filter((entry) => entry.role === 'USER').map(textOf)).toEqual(sent);
    expect(failedTurn.flatMap((entry) => entry.parts.filter((part) => part.__typename === 'CompactionPart'))).toEqual([]);
    expect(provider.requests).toHaveLength(1);

    // The next message (the model answers summaries now) compacts once and is answered.
    await send(server, token, threadId, '/history');
    const settled = messagesOf(await settledConversation(server, token, threadId, { timeoutMs: TURN_TIMEOUT_MS }));
    expect(textOf(settled.at(-1))).toMatch(/^History: \[summary\] The earlier turns, summarised\. \| /);
    expect(settled.flatMap((entry) => entry.parts.filter((part) => part.__typename === 'CompactionPart'))).toHaveLength(1);
    expect(provider.requests).toHaveLength(2);
  }, TEST_TIMEOUT_MS);

  it('an edit inside the summarised range makes a branch whose history is the originals', async () => {
    const { token, agentId } = await setUpAgent(server, {
      project: 'Branch of a compacted thread',
      contextWindowTokens: 200,
      compaction: { keptTurns: 2, model: 'fake:summariser' },
    });
    const threadId = await newThread(server, token, agentId);
    const before = provider.requests.length;
    const sent = WORDS.map(message);
    for (const text of sent) {
      await send(server, token, threadId, text);
      await settledConversation(server, token, threadId, { timeoutMs: TURN_TIMEOUT_MS });
    }
    const compacted = messagesOf(await settledConversation(server, token, threadId));
    expect(compacted.flatMap((entry) => entry.parts.filter((part) => part.__typename === 'CompactionPart'))).toHaveLength(1);
    expect(provider.requests.length - before).toBe(1);

    // The second user message was summarised; its edit branches off after the first turn.
    const second = compacted.filter((entry) => entry.role === 'USER')[1]!;
    const edited = (await requestData(server, EditMessageDocument, { messageId: second.id, text: '/history' }, token)).editMessage;
    expect(edited.__typename).toBe('MessageQueued');
    const branch = messagesOf(await settledConversation(server, token, threadId, { timeoutMs: TURN_TIMEOUT_MS }));
    expect(textOf(branch.at(-1))).toBe(`History: ${sent[0]}`);
    expect(provider.requests.length - before).toBe(1);
  }, TEST_TIMEOUT_MS);
});
