import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send, textOf } from '../support/client.ts';
import { CompactThreadDocument, ConversationContextDocument, RetryExecutionDocument, UncompactThreadDocument, UpdateAgentContextDocument } from '../support/documents.ts';
import { addMember, newThread, setUpAgent } from '../support/scenario.ts';
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

  it('compacts by hand and back: compactThread, then uncompactThread sends the originals again', async () => {
    const handAgent = await setUpAgent(server, { project: 'By hand', compaction: { keptTurns: 2 } });
    const as = handAgent.token;
    const threadId = await newThread(server, as, handAgent.agentId);
    const compactNow = () => requestData(server, CompactThreadDocument, { threadId }, as).then((data) => data.compactThread);
    const uncompactNow = () => requestData(server, UncompactThreadDocument, { threadId }, as).then((data) => data.uncompactThread);
    const send1 = async (text: string) => {
      await send(server, as, threadId, text);
      return textOf(messagesOf(await settledConversation(server, as, threadId)).at(-1));
    };
    expect(await uncompactNow()).toMatchObject({ __typename: 'ConflictError' });
    for (const word of ['one', 'two']) await send1(word);
    expect(await compactNow()).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('Nothing to compact') });
    for (const word of ['three', 'four']) await send1(word);

    const compacted = await compactNow();
    expect(compacted).toMatchObject({ __typename: 'Conversation', context: { compactedThrough: expect.any(String) } });
    expect(await send1('/history')).toBe('History: [summary] Summary: one; two | three | four');
    expect(await uncompactNow()).toMatchObject({ __typename: 'Conversation', context: { compactedThrough: null } });
    expect(await send1('/history')).toBe('History: one | two | three | four | /history');

    // Another user's thread is not found; a window smaller than the kept turns is refused; neither changes anything.
    const outsider = await addMember(server, handAgent.projectId, { role: 'viewer' });
    expect((await requestData(server, CompactThreadDocument, { threadId }, outsider.token)).compactThread.__typename).toBe('NotFoundError');
    await requestData(server, UpdateAgentContextDocument, { agentId: handAgent.agentId, contextWindowTokens: 3 }, as);
    expect(await compactNow()).toMatchObject({ __typename: 'InvalidInputError', field: 'threadId' });
    expect(messagesOf(await conversation(server, as, threadId)).flatMap((message) => message.parts.filter((part) => part.__typename === 'CompactionPart'))).toHaveLength(1);
  });

  it('recovers a CONTEXT_LENGTH failure with "Summarise and retry": compactThread, then retryExecution', async () => {
    // Nothing is compacted automatically while every turn is a kept one.
    const setUp = await setUpAgent(server, { project: 'Retry', contextWindowTokens: 112, compaction: { keptTurns: 100 } });
    const as = setUp.token;
    const threadId = await newThread(server, as, setUp.agentId);
    const turn = async (text: string) => {
      await send(server, as, threadId, text);
      return messagesOf(await settledConversation(server, as, threadId, { outcome: 'ANY' })).at(-1)!;
    };
    // Four turns of 22 words (10 sent, 12 answered) and a message of 30: 118 words, past the window of 112.
    const long = (first: string, words: number) => [first, ...Array.from({ length: words - 1 }, (_, index) => `w${index}`)].join(' ');
    for (const word of ['one', 'two', 'three', 'four']) expect((await turn(long(word, 10))).outcome).toBe('COMPLETED');
    const failed = await turn(long('five', 30));
    expect(failed.parts.find((part) => part.__typename === 'ErrorPart')).toMatchObject({ reason: 'CONTEXT_LENGTH' });
    const retry = () => requestData(server, RetryExecutionDocument, { executionId: failed.executionId! }, as).then((data) => data.retryExecution);
    expect(await retry()).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('compactThread') });

    await requestData(server, UpdateAgentContextDocument, { agentId: setUp.agentId, compaction: { keptTurns: 1 } }, as);
    expect((await requestData(server, CompactThreadDocument, { threadId }, as)).compactThread.__typename).toBe('Conversation');
    expect(await retry()).toMatchObject({ __typename: 'MessageQueued' });
    const retried = messagesOf(await settledConversation(server, as, threadId)).at(-1)!;
    expect(textOf(retried)).toBe(`You said: "${long('five', 30)}"`);
  });
});
