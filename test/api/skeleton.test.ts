import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send } from '../support/client.ts';
import { ViewerDocument } from '../support/documents.ts';
import { follow } from '../support/follower.ts';
import { is, replyTexts, typenames } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';

describeEachBackend('the walking skeleton', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    const user = await server.createUser();
    const viewer = await requestData(server, ViewerDocument, {}, user.token);
    expect(viewer.viewer.projects).toEqual([]);
    ({ token, agentId } = await setUpAgent(server, { project: 'Skeleton', user }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('streams a reply to a subscriber on another connection and records the conversation', async () => {
    const threadId = await newThread(server, token, agentId, 'hello');

    // As a client does: read the conversation, then follow from its cursor, so nothing can be missed
    // however long the subscription takes to be set up.
    const before = await conversation(server, token, threadId);
    const follower = follow(server, token, threadId, before.eventCursor);

    const sent = await send(server, token, threadId, 'Hello, Parley');
    expect(sent.threadId).toBe(threadId);

    await follower.waitFor(is('ExecutionFinished'));
    await follower.close();
    const events = follower.events;

    const kinds = typenames(events);
    expect(kinds[0]).toBe('MessageQueued');
    expect(kinds).toContain('ExecutionStarted');
    expect(kinds.at(-1)).toBe('ExecutionFinished');
    const started = events.find(is('ExecutionStarted'))!;
    expect(started.acceptedText).toBe('Hello, Parley');
    expect(started.threadId).toBe(threadId);
    // Deltas if the subscription was up in time, else the replayed snapshot: the same text either way.
    const texts = replyTexts(events);
    expect(texts.size).toBe(1);
    const streamed = [...texts.values()][0];
    expect(streamed).toBe('You said: "Hello, Parley"');
    const finished = events.at(-1)!;
    if (finished.__typename !== 'ExecutionFinished') throw new Error('unreachable');
    expect(finished.status).toBe('COMPLETED');
    expect(finished.executionId).toBe(started.executionId);
    // Cursors strictly identify positions: no two events share one.
    const cursors = events.map((event) => event.cursor);
    expect(new Set(cursors).size).toBe(cursors.length);

    const after = await conversation(server, token, threadId);
    expect(after.activeExecutionId).toBeNull();
    const messages = messagesOf(after);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: 'Hello, Parley' }]);
    const replyText = messages[1]!.parts.flatMap((part) => (part.__typename === 'TextPart' ? [part.text] : []));
    expect(replyText.join('')).toBe(streamed);
    expect(messages[1]!.executionId).toBe(started.executionId);
    expect(Number(after.eventCursor)).toBeGreaterThanOrEqual(3);
  });
});

it('stop() called twice, or again after it ended, resolves each time (one shutdown)', async () => {
  const server = await startTestServer();
  await Promise.all([server.app.stop(), server.app.stop()]);
  await server.app.stop();
  await expect(fetch(server.url)).rejects.toThrow();
});
