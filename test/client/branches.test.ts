import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParleyClient, textOfParts, type ParleyClient, type ThreadSession, type ThreadState } from '../../packages/client/src/index.ts';
import { describeEachBackend } from '../support/backends.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/session.ts';

const texts = (state: ThreadState) => state.messages.map((message) => textOfParts(message.parts));
/** The path shows exactly these texts and nothing runs. */
const shows = (expected: string[]) => (state: ThreadState) =>
  state.activeExecutionId === null && JSON.stringify(texts(state)) === JSON.stringify(expected) && state.messages.every((m) => m.outcome === 'COMPLETED');

describeEachBackend('the shipped client on branches', (backend) => {
  let server: TestServer;
  let client: ParleyClient;
  let token: string;
  let agentId: string;
  const sessions: ThreadSession[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Client branches' }));
    client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await server?.stop();
  });

  const open = async (threadId: string) => {
    const session = client.thread(threadId);
    sessions.push(session);
    await session.ready();
    return session;
  };

  it('stops then edits in one action, regenerates, switches; a second tab shows the same path and siblings', async () => {
    const threadId = await newThread(server, token, agentId);
    const tab = await open(threadId);
    const other = await open(threadId);
    await tab.send('first');
    await until(tab, shows(['first', 'You said: "first"']));
    await tab.send('/slow 60');
    await until(tab, (state) => state.activeExecutionId !== null);
    const question = tab.getSnapshot().messages[0]!;

    // Without stopping first, the server refuses (and the running turn goes on).
    expect(await tab.editMessage(question.id!, 'changed')).toMatchObject({ __typename: 'ConflictError' });
    const edited = await tab.editMessage(question.id!, 'changed', { stopFirst: true });
    expect(edited).toMatchObject({ __typename: 'MessageQueued' });
    const afterEdit = await until(tab, shows(['changed', 'You said: "changed"']));
    expect(afterEdit.messages[0]!.siblingIds).toEqual([question.id, afterEdit.messages[0]!.id]);
    await until(other, shows(['changed', 'You said: "changed"']));

    const reply = afterEdit.messages[1]!;
    expect(await tab.regenerate(reply.id!)).toMatchObject({ __typename: 'MessageQueued' });
    const regenerated = await until(tab, (state) => shows(['changed', 'You said: "changed"'])(state) && state.messages[1]!.id !== reply.id);
    expect(regenerated.messages[1]!.siblingIds).toEqual([reply.id, regenerated.messages[1]!.id]);

    expect(await tab.switchBranch(question.id!)).toMatchObject({ __typename: 'Conversation' });
    // The first path: its /slow turn was stopped, so it ends with that cancelled reply.
    const back = await until(other, (state) => state.messages[0]?.id === question.id && state.messages.length === 4);
    expect(texts(back).slice(0, 2)).toEqual(['first', 'You said: "first"']);
    expect(back.messages[3]!.outcome).toBe('CANCELLED');
    expect(back.messages[0]!.siblingIds).toHaveLength(2);
  });
});
