import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation, messagesOf, send, textOf, type Part } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { is, ofKind, replyTexts, type EventOf } from '../support/run-events.ts';
import { newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type DelegationPart = Extract<Part, { __typename: 'DelegationPart' }>;

describe('delegation to a child execution', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    ({ token, agentId } = await setUpAgent(server, { project: 'Delegation' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function run(text: string) {
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, text);
    const reply = messagesOf(await conversation(server, token, threadId))[1]!;
    const card = reply.parts.find((part): part is DelegationPart => part.__typename === 'DelegationPart');
    return { events, reply, card, threadId };
  }

  it('records the child’s reply on its card and the parent goes on with it', async () => {
    const { events, reply, card } = await run('/delegate hello child');
    expect(card).toBeDefined();
    expect(card!.text).toBe('You said: "hello child"');
    expect(card!.truncated).toBe(false);
    expect(card!.error).toBeNull();
    expect(textOf(reply)).toBe('The delegate replied: "You said: "hello child""');

    const started = events.find(is('ExecutionStarted'))!;
    const finished = events.at(-1)!;
    expect(finished).toMatchObject({ __typename: 'ExecutionFinished', status: 'COMPLETED', executionId: started.executionId });
    const childUpdate = events.find(is('ExecutionUpdated'));
    expect(childUpdate).toMatchObject({ status: 'COMPLETED', executionId: card!.childExecutionId });
    // What the client shows live for the child equals what its card records.
    expect(replyTexts(events).get(card!.childExecutionId)).toBe(card!.text);
    // Every event of the child names the reply it belongs in; the parent's own events name none.
    const ofExecution = (id: string) => events.filter((event) => 'executionId' in event && event.executionId === id);
    expect(ofExecution(card!.childExecutionId).length).toBeGreaterThan(0);
    for (const event of ofExecution(card!.childExecutionId)) {
      expect(event, event.__typename).toMatchObject({ parentExecutionId: started.executionId });
    }
    for (const event of ofExecution(started.executionId)) expect(event, event.__typename).toMatchObject({ parentExecutionId: null });
  });

  it('shows a child failure on its card and as one ErrorEvent of the child; the parent decides to go on', async () => {
    const { events, reply, card } = await run('/delegate /fail context_length');
    expect(card!.error).toMatchObject({ reason: 'CONTEXT_LENGTH', retryable: false, messageKey: 'error.context_length' });
    const errorEvents = events.filter(is('ErrorEvent'));
    expect(errorEvents).toHaveLength(1);
    expect(errorEvents[0]).toMatchObject({ executionId: card!.childExecutionId, reason: 'CONTEXT_LENGTH' });
    expect(reply.parts.filter((part) => part.__typename === 'ErrorPart')).toHaveLength(0);
    expect(textOf(reply)).toBe(`The delegate failed: ${card!.error!.message}`);
    expect(events.at(-1)!).toMatchObject({ __typename: 'ExecutionFinished', status: 'COMPLETED' });
  });

  it('names the parent on the child’s live deltas, so a client puts them on the card in the right reply', async () => {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    try {
      // A first turn seen to its end: the subscription is live before the delegated run streams.
      await send(server, token, threadId, 'first');
      await follower.waitFor(is('ExecutionFinished'));
      await send(server, token, threadId, '/delegate /tokens 40');
      const events = await follower.waitUntil((all) => ofKind(all, 'ExecutionFinished').length === 2);
      const parentId = events.filter(is('ExecutionStarted'))[1]!.executionId;
      const childDeltas = events.filter(
        (event): event is EventOf<'TextDelta'> => is('TextDelta')(event) && event.executionId !== parentId,
      );
      expect(childDeltas.length).toBeGreaterThan(0);
      expect(new Set(childDeltas.map((delta) => delta.parentExecutionId))).toEqual(new Set([parentId]));
    } finally {
      await follower.close();
    }
  });

  it('caps the recorded child text at 4,000 characters', async () => {
    const { card } = await run('/delegate /tokens 3000');
    expect(card!.text).toHaveLength(4000);
    expect(card!.truncated).toBe(true);
    expect(card!.text.startsWith('t1 t2 t3 ')).toBe(true);
  });
});
