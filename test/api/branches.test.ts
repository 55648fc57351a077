import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendWithFiles } from '../support/attachments.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { cancel, conversation, expectTypename, messagesOf, queue, send, textOf, type Message } from '../support/client.ts';
import {
  AgentThreadsDocument,
  DeleteThreadDocument,
  EditMessageDocument,
  RegenerateMessageDocument,
  RenameThreadDocument,
  SendMessageDocument,
  SwitchBranchDocument,
} from '../support/documents.ts';
import { follow } from '../support/follower.ts';
import { is, ofKind } from '../support/run-events.ts';
import { addMember, newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, requestData, startInstancePair, startTestServer, type InstancePair, type TestServer } from '../support/server.ts';
import { activeExecutionOf, settledConversation } from '../support/waits.ts';

describeEachBackend('branches: edit, regenerate, switch; rename and delete threads', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let projectId: string;

  beforeAll(async () => {
    // One run per user at a time: a second thread's turns wait in its queue while the first runs.
    server = await startTestServer({ backend, env: { PARLEY_MAX_CONCURRENT_RUNS_PER_USER: '1' } });
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Branches' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** The active path as texts, `role:text`. */
  async function path(threadId: string, as = token): Promise<string[]> {
    return messagesOf(await conversation(server, as, threadId)).map((message) => `${message.role === 'USER' ? 'U' : 'A'}:${textOf(message)}`);
  }

  async function messages(threadId: string): Promise<Message[]> {
    return messagesOf(await conversation(server, token, threadId));
  }

  /** Waits for the thread to settle, and expects it to end on a reply. */
  async function expectSettledOnReply(threadId: string): Promise<void> {
    expect(messagesOf(await settledConversation(server, token, threadId)).at(-1)?.role).toBe('ASSISTANT');
  }

  async function turn(threadId: string, text: string): Promise<void> {
    await send(server, token, threadId, text);
    await expectSettledOnReply(threadId);
  }

  const edit = (messageId: string, text: string, threadId?: string, as = token) =>
    requestData(server, EditMessageDocument, { messageId, text, threadId }, as).then((data) => data.editMessage);
  const regenerate = (messageId: string, threadId?: string, as = token) =>
    requestData(server, RegenerateMessageDocument, { messageId, threadId }, as).then((data) => data.regenerateMessage);
  const switchTo = (messageId: string, threadId?: string, as = token) =>
    requestData(server, SwitchBranchDocument, { messageId, threadId }, as).then((data) => data.switchBranch);

  it('edits and regenerates twice each, and switches back and forth; the model sees the active path only', async () => {
    const threadId = await newThread(server, token, agentId);
    await turn(threadId, 'a');
    await turn(threadId, 'b');
    await turn(threadId, '/history');
    expect(await path(threadId)).toEqual(['U:a', 'A:You said: "a"', 'U:b', 'A:You said: "b"', 'U:/history', 'A:History: a | b']);
    const b = (await messages(threadId))[2]!;

    expect(await edit(b.id, 'b2', threadId)).toMatchObject({ __typename: 'MessageQueued', text: 'b2' });
    await expectSettledOnReply(threadId);
    const b2 = (await messages(threadId))[2]!;
    expect(await path(threadId)).toEqual(['U:a', 'A:You said: "a"', 'U:b2', 'A:You said: "b2"']);
    expect(b2.parentId).toBe(b.parentId);
    expect(b2.siblingIds).toEqual([b.id, b2.id]);

    expectTypename(await edit(b2.id, 'b3'), 'MessageQueued');
    await expectSettledOnReply(threadId);
    await turn(threadId, '/history');
    expect(await path(threadId)).toEqual(['U:a', 'A:You said: "a"', 'U:b3', 'A:You said: "b3"', 'U:/history', 'A:History: a | b3']);
    const b3 = (await messages(threadId))[2]!;
    expect(b3.siblingIds).toEqual([b.id, b2.id, b3.id]);

    const firstReply = (await messages(threadId))[5]!;
    expectTypename(await regenerate(firstReply.id, threadId), 'MessageQueued');
    await expectSettledOnReply(threadId);
    const secondReply = (await messages(threadId))[5]!;
    expectTypename(await regenerate(secondReply.id), 'MessageQueued');
    await expectSettledOnReply(threadId);
    const replies = await messages(threadId);
    expect(replies).toHaveLength(6);
    expect(textOf(replies[5])).toBe('History: a | b3');
    expect(replies[5]!.siblingIds).toHaveLength(3);
    expect(replies[5]!.siblingIds.slice(0, 2)).toEqual([firstReply.id, secondReply.id]);
    // The user message was asked again, not sent again.
    expect(replies[4]!.siblingIds).toEqual([replies[4]!.id]);

    // Back to the first b: down to the leaf last active under it, the first /history's reply.
    const back = expectTypename(await switchTo(b.id, threadId), 'Conversation');
    expect(back.messages.edges.map((edge) => edge.node.id)).toEqual((await messages(threadId)).map((message) => message.id));
    expect(await path(threadId)).toEqual(['U:a', 'A:You said: "a"', 'U:b', 'A:You said: "b"', 'U:/history', 'A:History: a | b']);
    // Forth to b3: its last active leaf is the newest regeneration; then to the first of the three replies.
    expectTypename(await switchTo(b3.id), 'Conversation');
    expect((await messages(threadId)).at(-1)!.id).toBe(replies[5]!.id);
    expectTypename(await switchTo(firstReply.id), 'Conversation');
    expect((await messages(threadId)).at(-1)!.id).toBe(firstReply.id);
    // A turn on a switched-to branch follows it: the model sees that branch only.
    await switchTo(b.id);
    await turn(threadId, '/history');
    expect((await path(threadId)).at(-1)).toBe('A:History: a | b | /history');
  });

  it('refuses an edit of a reply, a regeneration of a user message, another thread’s or user’s message, and a running thread, changing nothing', async () => {
    const threadId = await newThread(server, token, agentId);
    await turn(threadId, 'one');
    const [question, answer] = await messages(threadId);
    const otherThread = await newThread(server, token, agentId);
    const before = await conversation(server, token, threadId);

    expect(await edit(answer!.id, 'no')).toMatchObject({ __typename: 'InvalidInputError', field: 'messageId' });
    expect(await regenerate(question!.id)).toMatchObject({ __typename: 'InvalidInputError', field: 'messageId' });
    expect(await edit(question!.id, 'no', otherThread)).toMatchObject({ __typename: 'InvalidInputError', field: 'messageId' });
    expect(await regenerate(answer!.id, otherThread)).toMatchObject({ __typename: 'InvalidInputError', field: 'messageId' });
    expect(await switchTo(answer!.id, otherThread)).toMatchObject({ __typename: 'InvalidInputError', field: 'messageId' });
    expect(await edit(question!.id, '   ')).toMatchObject({ __typename: 'InvalidInputError', field: 'text' });

    const stranger = (await setUpAgent(server, { project: 'Elsewhere' })).token;
    const member = (await addMember(server, projectId)).token;
    for (const as of [stranger, member]) {
      expect(await edit(question!.id, 'no', undefined, as)).toMatchObject({ __typename: 'NotFoundError' });
      expect(await regenerate(answer!.id, undefined, as)).toMatchObject({ __typename: 'NotFoundError' });
      expect(await switchTo(question!.id, undefined, as)).toMatchObject({ __typename: 'NotFoundError' });
      expect((await requestData(server, DeleteThreadDocument, { threadId }, as)).deleteThread).toMatchObject({ __typename: 'NotFoundError' });
      expect((await requestData(server, RenameThreadDocument, { threadId, title: 'x' }, as)).renameThread).toMatchObject({
        __typename: 'NotFoundError',
      });
    }
    expect(await conversation(server, token, threadId)).toEqual(before);

    // While a turn runs: stop first.
    const follower = follow(server, token, threadId);
    await send(server, token, threadId, '/slow 60');
    const started = await follower.waitFor(is('ExecutionStarted', (event) => event.acceptedText === '/slow 60'));
    const running = await conversation(server, token, threadId);
    const conflicts = [
      await edit(question!.id, 'no'),
      await regenerate(answer!.id),
      await switchTo(question!.id),
      (await requestData(server, DeleteThreadDocument, { threadId }, token)).deleteThread,
    ];
    for (const conflict of conflicts) {
      expect(conflict).toMatchObject({ __typename: 'ConflictError' });
      expect((conflict as { message: string }).message).toMatch(/stop it first/);
    }
    expect((await conversation(server, token, threadId)).eventCursor).toBe(running.eventCursor);
    expectTypename(await cancel(server, token, started.executionId), 'CancelRequested');
    await follower.waitFor(is('ExecutionFinished', started.executionId));
    await follower.close();
  });

  it('keeps pending queue items through an edit and a switch: the edited turn runs first, then they run on the new path', async () => {
    const busy = await newThread(server, token, agentId);
    const threadId = await newThread(server, token, agentId);
    await turn(threadId, 'a');
    const [a] = await messages(threadId);
    // The user's one run slot is taken by the other thread, so this thread's turns stay queued.
    const busyFollower = follow(server, token, busy);
    await send(server, token, busy, '/slow 60');
    const slow = await busyFollower.waitFor(is('ExecutionStarted'));
    await send(server, token, threadId, 'x');
    await send(server, token, threadId, '/history');
    expectTypename(await edit(a!.id, 'a2'), 'MessageQueued');
    expect((await queue(server, token, threadId)).items.map((item) => item.text)).toEqual(['a2', 'x', '/history']);
    expect(await path(threadId)).toEqual([]);
    // A switch meanwhile moves the path, not the queue: the edited turn still runs first, as an edit.
    expectTypename(await switchTo(a!.id), 'Conversation');
    expect(await path(threadId)).toEqual(['U:a', 'A:You said: "a"']);
    expect((await queue(server, token, threadId)).items.map((item) => item.text)).toEqual(['a2', 'x', '/history']);

    expectTypename(await cancel(server, token, slow.executionId), 'CancelRequested');
    await busyFollower.close();
    await expectSettledOnReply(threadId);
    expect(await path(threadId)).toEqual(['U:a2', 'A:You said: "a2"', 'U:x', 'A:You said: "x"', 'U:/history', 'A:History: a2 | x']);
  });

  it('brings two subscribers to the same path with BranchSwitched, and a reload shows it', async () => {
    const threadId = await newThread(server, token, agentId);
    await turn(threadId, 'first');
    const [first] = await messages(threadId);
    expectTypename(await edit(first!.id, 'second'), 'MessageQueued');
    await expectSettledOnReply(threadId);
    const cursor = (await conversation(server, token, threadId)).eventCursor;
    const tabs = [follow(server, token, threadId, cursor), follow(server, token, threadId, cursor)];
    try {
      expectTypename(await switchTo(first!.id), 'Conversation');
      const seen = await Promise.all(tabs.map((tab) => tab.waitFor(is('BranchSwitched'))));
      expect(seen[0]).toEqual(seen[1]);
      const reloaded = await messages(threadId);
      expect(seen[0]!.leafMessageId).toBe(reloaded.at(-1)!.id);
      expect(reloaded.map(textOf)).toEqual(['first', 'You said: "first"']);
    } finally {
      await Promise.all(tabs.map((tab) => tab.close()));
    }
  });

  it('renames a thread and lists threads by last activity, newest first', async () => {
    const older = await newThread(server, token, agentId);
    const newer = await newThread(server, token, agentId);
    await turn(newer, 'hello');
    await turn(older, 'later');
    const renamed = await requestData(server, RenameThreadDocument, { threadId: older, title: '  Renamed  ' }, token);
    expect(renamed.renameThread).toMatchObject({ __typename: 'Thread', id: older, title: 'Renamed' });
    expect((await requestData(server, RenameThreadDocument, { threadId: older, title: ' ' }, token)).renameThread).toMatchObject({
      __typename: 'InvalidInputError',
      field: 'title',
    });
    const listed = (await requestData(server, AgentThreadsDocument, { id: agentId }, token)).agent.threads.edges.map((edge) => edge.node);
    const ids = listed.map((thread) => thread.id);
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(newer));
    const times = listed.map((thread) => Date.parse(thread.lastActivityAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('deletes a thread with every row and file of it, and ends its live subscription with not-found', async () => {
    const threadId = await newThread(server, token, agentId);
    const upload = await sendWithFiles(server, token, { threadId, text: 'with a file' }, [{ name: 'note.txt', type: 'text/plain', content: 'hello' }]);
    expect(upload.data?.sendMessage).toMatchObject({ __typename: 'MessageQueued' });
    await expectSettledOnReply(threadId);
    await send(server, token, threadId, '/ask Your name?');
    await eventually(async () => (await conversation(server, token, threadId)).openSuspensions.length === 1, 30_000);
    await requestData(server, SendMessageDocument, { threadId, text: 'Ada' }, token);
    await expectSettledOnReply(threadId);
    const attachment = messagesOf(await conversation(server, token, threadId))[0]!.parts.find((part) => part.__typename === 'AttachmentPart');
    const downloadPath = attachment?.__typename === 'AttachmentPart' ? attachment.downloadPath : '';
    const download = () => fetch(new URL(downloadPath, server.url), { headers: { authorization: `Bearer ${token}` } }).then((response) => response.status);
    expect(await download()).toBe(200);

    const prisma = server.parley.db.prisma;
    const rowId = (globalId: string) => Buffer.from(globalId, 'base64').toString('utf8').split(':')[1]!;
    const rows = async (id = rowId(threadId)) => ({
      thread: await prisma.thread.count({ where: { id } }),
      messages: await prisma.message.count({ where: { threadId: id } }),
      events: await prisma.threadEvent.count({ where: { threadId: id } }),
      executions: await prisma.execution.count({ where: { threadId: id } }),
      queueItems: await prisma.queueItem.count({ where: { threadId: id } }),
      suspensions: await prisma.suspension.count({ where: { threadId: id } }),
      files: await prisma.attachment.count({ where: { OR: [{ message: { threadId: id } }, { queueItem: { threadId: id } }] } }),
    });
    const before = await rows();
    expect(before).toMatchObject({ thread: 1, suspensions: 1 });
    expect(before.files).toBe(1);
    const fileCount = await prisma.attachment.count();

    const subscriber = follow(server, token, threadId, (await conversation(server, token, threadId)).eventCursor);
    // A queued item too: deferred behind another thread's run, it is pending when the thread goes.
    const busy = await newThread(server, token, agentId);
    await send(server, token, busy, '/slow 60');
    await activeExecutionOf(server, token, busy);
    await send(server, token, threadId, 'pending');
    await subscriber.waitFor(is('MessageQueued', (event) => event.text === 'pending'));
    expect((await rows()).queueItems).toBe(1);

    const deleted = await requestData(server, DeleteThreadDocument, { threadId }, token);
    expect(deleted.deleteThread).toMatchObject({ __typename: 'ThreadDeleted', threadId });
    await eventually(() => subscriber.errors.length > 0, 10_000, 'the subscription to end');
    expect(JSON.stringify(subscriber.errors)).toContain('NOT_FOUND');
    await subscriber.close();
    expect(await rows()).toEqual({ thread: 0, messages: 0, events: 0, executions: 0, queueItems: 0, suspensions: 0, files: 0 });
    expect(await prisma.attachment.count()).toBe(fileCount - 1);
    expect(await download()).toBe(404);
    expect((await requestData(server, DeleteThreadDocument, { threadId }, token)).deleteThread).toMatchObject({ __typename: 'NotFoundError' });

    const busyRun = (await conversation(server, token, busy)).activeExecutionId!;
    expectTypename(await cancel(server, token, busyRun), 'CancelRequested');
    await settledConversation(server, token, busy, { outcome: 'CANCELLED' });
  });
});

// Two instances share a PostgreSQL database and a Redis (an embedded PGlite has one instance).
describeWithServices('branches across two instances', () => {
  let pair: InstancePair;

  beforeAll(async () => {
    pair = await startInstancePair();
  });

  afterAll(async () => {
    await pair?.stop();
  });

  it('an edit, and a deletion, on one instance reach a subscriber of the other', async () => {
    const { first, second } = pair;
    const { token, agentId } = await setUpAgent(first, { project: 'Two instances' });
    const threadId = await newThread(first, token, agentId);
    await send(first, token, threadId, 'original');
    await settledConversation(first, token, threadId);
    const [original] = messagesOf(await conversation(first, token, threadId));
    const cursor = (await conversation(second, token, threadId)).eventCursor;
    const watcher = follow(second, token, threadId, cursor);
    try {
      const edited = await requestData(first, EditMessageDocument, { messageId: original!.id, text: 'edited' }, token);
      expectTypename(edited.editMessage, 'MessageQueued');
      const switched = await watcher.waitFor(is('BranchSwitched'));
      expect(switched.leafMessageId).toBeNull();
      await watcher.waitUntil((events) => ofKind(events, 'ExecutionFinished').length === 1, 30_000);
      const onSecond = messagesOf(await conversation(second, token, threadId));
      expect(onSecond.map(textOf)).toEqual(['edited', 'You said: "edited"']);
      expect(onSecond[0]!.siblingIds).toEqual([original!.id, onSecond[0]!.id]);
      // A deletion on the first instance ends the second's subscriber with not-found.
      const deleted = await requestData(first, DeleteThreadDocument, { threadId }, token);
      expect(deleted.deleteThread).toMatchObject({ __typename: 'ThreadDeleted' });
      await eventually(() => watcher.errors.length > 0, 10_000, 'the other instance’s subscription to end');
      expect(JSON.stringify(watcher.errors)).toContain('NOT_FOUND');
    } finally {
      await watcher.close();
    }
  });
});
