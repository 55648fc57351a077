import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConversationDocument,
  CreateThreadDocument,
  RunEventsDocument,
  SendMessageDocument,
  ViewerDocument,
} from '../support/documents.ts';
import { describeEachBackend } from '../support/backends.ts';
import { replyTexts } from '../support/client-rules.ts';
import {
  requestData,
  startTestServer,
  subscribe,
  wsClient,
  type TestServer,
} from '../support/server.ts';

describeEachBackend('the walking skeleton', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token } = await server.createUser());
    const viewer = await requestData(server, ViewerDocument, {}, token);
    expect(viewer.viewer.projects).toEqual([]);
    const { user } = { user: viewer.viewer };
    const project = await server.parley.directory.createProject(
      await server.parley.directory.findUser(user.email),
      { name: 'Skeleton' },
    );
    const agent = await server.parley.directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default' });
    agentId = agent.id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('streams a reply to a subscriber on another connection and records the conversation', async () => {
    const created = await requestData(server, CreateThreadDocument, { agentId, title: 'hello' }, token);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;

    // As a client does: read the conversation, then follow from its cursor, so nothing can be missed
    // however long the subscription takes to be set up.
    const before = await requestData(server, ConversationDocument, { threadId }, token);
    const client = wsClient(server, token);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: before.conversation.eventCursor });

    const sent = await requestData(server, SendMessageDocument, { threadId, text: 'Hello, Parley' }, token);
    if (sent.sendMessage.__typename !== 'MessageQueued') throw new Error(JSON.stringify(sent));
    expect(sent.sendMessage.threadId).toBe(threadId);

    const events = await subscription.waitFor((all) =>
      all.some((event) => event.runEvents.__typename === 'ExecutionFinished'),
    );
    subscription.close();
    await client.dispose();

    const kinds = events.map((event) => event.runEvents.__typename);
    expect(kinds[0]).toBe('MessageQueued');
    expect(kinds).toContain('ExecutionStarted');
    expect(kinds.at(-1)).toBe('ExecutionFinished');
    const started = events.find((event) => event.runEvents.__typename === 'ExecutionStarted')!.runEvents;
    if (started.__typename !== 'ExecutionStarted') throw new Error('unreachable');
    expect(started.acceptedText).toBe('Hello, Parley');
    expect(started.threadId).toBe(threadId);
    // Deltas if the subscription was up in time, else the replayed snapshot: the same text either way.
    const texts = replyTexts(events);
    expect(texts.size).toBe(1);
    const streamed = [...texts.values()][0];
    expect(streamed).toBe('You said: "Hello, Parley"');
    const finished = events.at(-1)!.runEvents;
    if (finished.__typename !== 'ExecutionFinished') throw new Error('unreachable');
    expect(finished.status).toBe('COMPLETED');
    expect(finished.executionId).toBe(started.executionId);
    // Cursors strictly identify positions: no two events share one.
    const cursors = events.map((event) => (event.runEvents as { cursor: string }).cursor);
    expect(new Set(cursors).size).toBe(cursors.length);

    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    expect(conversation.activeExecutionId).toBeNull();
    const messages = conversation.messages.edges.map((edge) => edge.node);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: 'Hello, Parley' }]);
    const replyText = messages[1]!.parts.flatMap((part) => (part.__typename === 'TextPart' ? [part.text] : []));
    expect(replyText.join('')).toBe(streamed);
    expect(messages[1]!.executionId).toBe(started.executionId);
    expect(Number(conversation.eventCursor)).toBeGreaterThanOrEqual(3);
  });
});
