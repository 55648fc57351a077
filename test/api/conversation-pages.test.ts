import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, expectTypename, messagesOf, send, textOf } from '../support/client.ts';
import { ConversationPageDocument, EditMessageDocument, SwitchBranchDocument } from '../support/documents.ts';
import { finishedOf, startedFrom } from '../support/run-events.ts';
import { followNewThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';

/**
 * `conversation.messages` pages the active path: the last messages are read back from the active
 * leaf only as far as the page reaches, every other page is cut from the whole path; either way a
 * page holds the path's messages and no other branch's, in order, as one read of the whole path would.
 */
describeEachBackend('conversation pages of a long, branched thread', (backend) => {
  let server: TestServer;
  let token: string;
  let threadId: string;
  /** The active path, first to last, as one read of it all gives it. */
  let whole: string[];
  /** A message on the branch that is not active. */
  let offPath: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    let agentId: string;
    ({ token, agentId } = await setUpAgent(server, { project: 'Pages' }));
    const follower = await followNewThread(server, token, agentId);
    threadId = follower.threadId;
    const turn = async (text: string) => {
      const { queueId } = await send(server, token, threadId, text);
      const started = await follower.waitFor(startedFrom(queueId));
      await follower.waitFor(finishedOf(started.executionId!));
    };
    for (let i = 1; i <= 15; i++) await turn(`m${i}`);
    const long = messagesOf(await conversation(server, token, threadId));
    // An edit of the third question makes a short branch active; switching back makes the long one active again.
    const edited = expectTypename(
      (await requestData(server, EditMessageDocument, { messageId: long[4]!.id, text: 'edited' }, token)).editMessage,
      'MessageQueued',
    );
    await follower.waitFor(finishedOf((await follower.waitFor(startedFrom(edited.queueId))).executionId!));
    const short = messagesOf(await conversation(server, token, threadId));
    expect(short.map(textOf).slice(-2)).toEqual(['edited', 'You said: "edited"']);
    offPath = short.at(-1)!.id;
    expectTypename((await requestData(server, SwitchBranchDocument, { messageId: long.at(-1)!.id }, token)).switchBranch, 'Conversation');
    whole = messagesOf(await conversation(server, token, threadId)).map((message) => message.id);
    expect(whole).toEqual(long.map((message) => message.id));
    await follower.close();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  const page = async (args: { first?: number; after?: string; last?: number; before?: string }) =>
    (await requestData(server, ConversationPageDocument, { threadId, ...args }, token)).conversation.messages;
  const ids = (connection: Awaited<ReturnType<typeof page>>) => connection.edges.map((edge) => edge.node.id);

  it('gives the last messages of the path, and the ones before them by cursor, back to the first', async () => {
    const latest = await page({ last: 7 });
    expect(ids(latest)).toEqual(whole.slice(-7));
    expect(latest.pageInfo.hasPreviousPage).toBe(true);
    const older = await page({ last: 7, before: latest.pageInfo.startCursor! });
    expect(ids(older)).toEqual(whole.slice(-14, -7));
    const collected = [...ids(older), ...ids(latest)];
    let cursor = older.pageInfo.startCursor!;
    for (;;) {
      const next = await page({ last: 7, before: cursor });
      collected.unshift(...ids(next));
      if (!next.pageInfo.hasPreviousPage) break;
      cursor = next.pageInfo.startCursor!;
    }
    expect(collected).toEqual(whole);
    expect(collected).not.toContain(offPath);
  });

  it('gives the first messages of the path, and the ones after them by cursor, down to the leaf', async () => {
    const collected: string[] = [];
    let after: string | undefined;
    for (;;) {
      const next = await page({ first: 8, ...(after ? { after } : {}) });
      collected.push(...ids(next));
      if (!next.pageInfo.hasNextPage) break;
      after = next.pageInfo.endCursor!;
    }
    expect(collected).toEqual(whole);
  });

  it('answers a page longer than the path with the whole path', async () => {
    expect(ids(await page({ last: 200 }))).toEqual(whole);
    expect(ids(await page({ first: 200 }))).toEqual(whole);
  });
});
