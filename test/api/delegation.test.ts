import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationQuery } from '../gql/graphql.ts';
import { replyTexts, typenames } from '../support/client-rules.ts';
import {
  ConversationDocument,
  CreateThreadDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import { requestData, startTestServer, subscribe, wsClient, type TestServer } from '../support/server.ts';

type Part = ConversationQuery['conversation']['messages']['edges'][number]['node']['parts'][number];
type DelegationPart = Extract<Part, { __typename: 'DelegationPart' }>;

describe('delegation to a child execution', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    const user = await server.createUser();
    token = user.token;
    const directory = server.parley.directory;
    const project = await directory.createProject(await directory.findUser(user.userId), { name: 'Delegation' });
    agentId = (await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default', tools: ['delegate'] })).id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function run(text: string) {
    const created = await requestData(server, CreateThreadDocument, { agentId }, token);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;
    const client = wsClient(server, token);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
    await requestData(server, SendMessageDocument, { threadId, text }, token);
    const events = await subscription.waitFor((all) => typenames(all).includes('ExecutionFinished'));
    subscription.close();
    await client.dispose();
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    const reply = conversation.messages.edges[1]!.node;
    const card = reply.parts.find((part): part is DelegationPart => part.__typename === 'DelegationPart');
    return { events, reply, card, threadId };
  }

  it('records the child’s reply on its card and the parent goes on with it', async () => {
    const { events, reply, card } = await run('/delegate hello child');
    expect(card).toBeDefined();
    expect(card!.text).toBe('You said: "hello child"');
    expect(card!.truncated).toBe(false);
    expect(card!.error).toBeNull();
    const text = reply.parts.flatMap((part) => (part.__typename === 'TextPart' ? [part.text] : [])).join('');
    expect(text).toBe('The delegate replied: "You said: "hello child""');

    const started = events.find((e) => e.runEvents.__typename === 'ExecutionStarted')!.runEvents as { executionId: string };
    const finished = events.at(-1)!.runEvents;
    expect(finished).toMatchObject({ __typename: 'ExecutionFinished', status: 'COMPLETED', executionId: started.executionId });
    const childUpdate = events.map((e) => e.runEvents).find((e) => e.__typename === 'ExecutionUpdated');
    expect(childUpdate).toMatchObject({ status: 'COMPLETED', executionId: card!.childExecutionId });
    // What the client shows live for the child equals what its card records.
    expect(replyTexts(events).get(card!.childExecutionId)).toBe(card!.text);
  });

  it('shows a child failure on its card and as one ErrorEvent of the child; the parent decides to go on', async () => {
    const { events, reply, card } = await run('/delegate /fail context_length');
    expect(card!.error).toMatchObject({ reason: 'CONTEXT_LENGTH', retryable: false, messageKey: 'error.context_length' });
    const errorEvents = events.map((e) => e.runEvents).filter((e) => e.__typename === 'ErrorEvent');
    expect(errorEvents).toHaveLength(1);
    expect(errorEvents[0]).toMatchObject({ executionId: card!.childExecutionId, reason: 'CONTEXT_LENGTH' });
    expect(reply.parts.filter((part) => part.__typename === 'ErrorPart')).toHaveLength(0);
    const text = reply.parts.flatMap((part) => (part.__typename === 'TextPart' ? [part.text] : [])).join('');
    expect(text).toBe(`The delegate failed: ${card!.error!.message}`);
    expect(events.at(-1)!.runEvents).toMatchObject({ __typename: 'ExecutionFinished', status: 'COMPLETED' });
  });

  it('caps the recorded child text at 4,000 characters', async () => {
    const { card } = await run('/delegate /tokens 3000');
    expect(card!.text).toHaveLength(4000);
    expect(card!.truncated).toBe(true);
    expect(card!.text.startsWith('t1 t2 t3 ')).toBe(true);
  });
});
