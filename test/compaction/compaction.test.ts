import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send, textOf } from '../support/client.ts';
import { ConversationContextDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

describeEachBackend('compaction before the call: a thread driven past its window keeps answering', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    // The demo model's tokens are words: a turn `alpha` / `You said: "alpha"` takes 4; the threshold is 32 of 40.
    ({ token, agentId } = await setUpAgent(server, { project: 'Compaction', contextWindowTokens: 40, compaction: { keptTurns: 2 } }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function turn(threadId: string, text: string): Promise<string> {
    await send(server, token, threadId, text);
    const last = messagesOf(await settledConversation(server, token, threadId, { outcome: 'ANY' })).at(-1);
    if (last?.outcome !== 'COMPLETED') throw new Error(`${text}: ${JSON.stringify(last)}`);
    return textOf(last);
  }

  it('summarises the oldest turns before the call: the model gets summary + recent turns, the originals stay readable', async () => {
    const threadId = await newThread(server, token, agentId);
    for (const word of WORDS) expect(await turn(threadId, word)).toBe(`You said: "${word}"`);
    const history = await turn(threadId, '/history');
    expect(history).toMatch(/^History: \[summary\] Summary: alpha; bravo; .* \| [a-z]+ \| juliet$/);
    // Every earlier text reached the model once: in the summary or verbatim.
    const [summary, ...verbatim] = history.replace('History: [summary] Summary: ', '').split(' | ');
    expect([...summary!.split('; '), ...verbatim]).toEqual(WORDS);

    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.filter((message) => message.role === 'USER').map(textOf)).toEqual([...WORDS, '/history']);
    const compactions = messages.flatMap((message) => message.parts.filter((part) => part.__typename === 'CompactionPart'));
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ model: 'demo:default', undone: false, firstMessageId: messages[0]!.id });

    const { context } = (await requestData(server, ConversationContextDocument, { threadId }, token)).conversation;
    expect(context.windowTokens).toBe(40);
    // The /history reply is long: the next call would pass the threshold, and compacts first.
    expect(context.usedTokens).toBeGreaterThan(32);
    expect(context.compactedThrough).toBe((compactions.at(-1) as { throughMessageId: string }).throughMessageId);

    // Each summary's call is usage; each compaction is a durable ThreadCompacted event.
    const prisma = server.parley.db.prisma;
    const thread = { id: Buffer.from(threadId, 'base64').toString().replace('Thread:', '') };
    const events = await prisma.threadEvent.findMany({ where: { threadId: thread.id } });
    const compacted = events.filter((event) => (event.payload as { type: string }).type === 'ThreadCompacted');
    expect(compacted).toHaveLength(compactions.length);
    expect(await prisma.modelCall.count({ where: { threadId: thread.id } })).toBe(WORDS.length + 1 + compactions.length);
  });
});
