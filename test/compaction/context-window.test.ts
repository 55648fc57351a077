import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, expectTypename, messagesOf, send, textOf } from '../support/client.ts';
import { AgentContextDocument, ConversationContextDocument, UpdateAgentContextDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

describeEachBackend('context measured: the agent’s window, Conversation.context, the demo model at its window', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Context' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const updateContext = (variables: { contextWindowTokens?: number | null; compaction?: { atPercent?: number; keptTurns?: number } }) =>
    requestData(server, UpdateAgentContextDocument, { agentId, ...variables }, token).then((data) => data.updateAgent);

  async function turn(threadId: string, text: string, outcome: 'COMPLETED' | 'FAILED' = 'COMPLETED') {
    await send(server, token, threadId, text);
    return messagesOf(await settledConversation(server, token, threadId, { outcome })).at(-1)!;
  }

  it('has no window for the demo model until the agent sets one, and compaction defaults of 80 % and 4 turns', async () => {
    expect((await requestData(server, AgentContextDocument, { id: agentId }, token)).agent).toEqual({
      contextWindowTokens: null,
      compaction: { atPercent: 80, keptTurns: 4, model: null },
    });
    expect(await updateContext({ contextWindowTokens: 1000, compaction: { atPercent: 90, keptTurns: 2 } })).toEqual({
      __typename: 'Agent',
      contextWindowTokens: 1000,
      compaction: { atPercent: 90, keptTurns: 2, model: null },
    });
  });

  it('refuses a window or settings out of range with a typed error and changes nothing', async () => {
    for (const [variables, field] of [
      [{ contextWindowTokens: 0 }, 'contextWindowTokens'],
      [{ contextWindowTokens: -5 }, 'contextWindowTokens'],
      [{ compaction: { atPercent: 101 } }, 'compaction.atPercent'],
      [{ compaction: { keptTurns: 0 } }, 'compaction.keptTurns'],
    ] as const) {
      expect(await updateContext(variables)).toMatchObject({ __typename: 'InvalidInputError', field });
    }
    expect((await requestData(server, AgentContextDocument, { id: agentId }, token)).agent.contextWindowTokens).toBe(1000);
  });

  it('measures the context: the last call’s reported input plus the reply it gave', async () => {
    await updateContext({ contextWindowTokens: 1000 });
    const threadId = await newThread(server, token, agentId);
    await turn(threadId, 'hello there');
    // The demo model's tokens are words: the call took "hello there" (2), its reply `You said: "hello there"` adds 4.
    const { context } = (await requestData(server, ConversationContextDocument, { threadId }, token)).conversation;
    expect(context).toEqual({ usedTokens: 6, windowTokens: 1000, compactedThrough: null });
  });

  it('fails with CONTEXT_LENGTH when what the demo model is sent exceeds the window, as a provider does', async () => {
    await updateContext({ contextWindowTokens: 5 });
    const threadId = await newThread(server, token, agentId);
    const reply = await turn(threadId, 'one two three four five six seven', 'FAILED');
    expect(reply.outcome).toBe('FAILED');
    expect(reply.parts.find((part) => part.__typename === 'ErrorPart')).toMatchObject({ reason: 'CONTEXT_LENGTH' });
    await updateContext({ contextWindowTokens: null });
    expect(textOf(await turn(threadId, '/history'))).toBe('History: one two three four five six seven');
    expectTypename((await conversation(server, token, threadId)).messages.edges[0]!.node.parts[0]!, 'TextPart');
  });
});
