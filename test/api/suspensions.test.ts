import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { cancel, conversation, execution, messagesOf, queue, send, textOf } from '../support/client.ts';
import { ResolveSuspensionDocument, SendMessageDocument } from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import { finishedOf, is, ofKind, replyTexts, startedWith } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { activeExecutionOf } from '../support/waits.ts';

const SUSPENDED = is('ExecutionUpdated', (event) => event.status === 'SUSPENDED');

describeEachBackend('suspensions', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let projectId: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Suspensions' }));
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
  });

  async function resolve(id: string, resolution: { decision?: 'APPROVE' | 'DENY'; answer?: string }, as = token) {
    return (await requestData(server, ResolveSuspensionDocument, { id, ...resolution }, as)).resolveSuspension;
  }

  /** Sends `text`: queued, or the answer to an open question card. */
  async function sendMessage(threadId: string, text: string) {
    return (await requestData(server, SendMessageDocument, { threadId, text }, token)).sendMessage;
  }

  /** A fresh thread, followed from its start, with `text` sent and its suspension opened. */
  async function suspendedThread(text: string) {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    followers.push(follower);
    await send(server, token, threadId, text);
    const opened = await follower.waitFor(is('SuspensionOpened'));
    await follower.waitFor(SUSPENDED);
    const executionId = opened.executionId!;
    return { threadId, follower, opened, executionId };
  }

  it('approve: the execution suspends, then resumes in the same reply and completes', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/approve deploy the release');
    expect(opened).toMatchObject({ kind: 'APPROVAL', payload: { action: 'deploy the release' } });

    // Suspended, not finished: the card is open, the execution still active.
    expect(ofKind(follower.events, 'ExecutionFinished')).toEqual([]);
    expect(ofKind(follower.events, 'ToolCallEvent').map((event) => event.state)).toContain('AWAITING_APPROVAL');
    const before = await conversation(server, token, threadId);
    expect(before.activeExecutionId).toBe(executionId);
    expect(before.openSuspensions).toEqual([
      expect.objectContaining({ id: opened.suspensionId, kind: 'APPROVAL', status: 'OPEN', executionId, toolName: 'approve_action' }),
    ]);
    expect((await execution(server, token, executionId)).status).toBe('SUSPENDED');

    const resolved = await resolve(opened.suspensionId, { decision: 'APPROVE' });
    expect(resolved).toMatchObject({ __typename: 'SuspensionResolved', suspensionId: opened.suspensionId, executionId });

    const finished = await follower.waitFor(finishedOf(executionId));
    expect(finished.status).toBe('COMPLETED');
    const events = follower.events;
    expect(ofKind(events, 'ExecutionStarted')).toHaveLength(1);
    expect(ofKind(events, 'SuspensionResolved')).toEqual([
      expect.objectContaining({ suspensionId: opened.suspensionId, resolution: { decision: 'APPROVE' } }),
    ]);
    expect(replyTexts(follower.events).get(executionId)).toBe('Approved: deploy the release');

    const after = await conversation(server, token, threadId);
    expect(after.activeExecutionId).toBeNull();
    expect(after.openSuspensions).toEqual([]);
    const messages = messagesOf(after);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    const reply = messages[1]!;
    expect(reply.executionId).toBe(executionId);
    expect(textOf(reply)).toBe('Approved: deploy the release');
    const calls = reply.parts.filter((part) => part.__typename === 'ToolCallPart');
    expect(calls).toEqual([
      expect.objectContaining({ toolCallId: opened.toolCallId, toolName: 'approve_action', state: 'SUCCEEDED' }),
    ]);
    expect((await execution(server, token, executionId)).status).toBe('COMPLETED');
  });

  it('deny: the execution goes on without the action', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/approve drop the table');
    expect(await resolve(opened.suspensionId, { decision: 'DENY' })).toMatchObject({ __typename: 'SuspensionResolved' });
    expect((await follower.waitFor(finishedOf(executionId))).status).toBe('COMPLETED');
    expect(replyTexts(follower.events).get(executionId)).toBe('Not approved: drop the table');
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages).toHaveLength(2);
    expect(textOf(messages[1])).toBe('Not approved: drop the table');
    const call = messages[1]!.parts.find((part) => part.__typename === 'ToolCallPart');
    expect(call).toMatchObject({ toolName: 'approve_action', state: 'DENIED' });
  });

  it('ask: a question card is answered through resolveSuspension', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/ask What colour?');
    expect(opened).toMatchObject({ kind: 'QUESTION', payload: { question: 'What colour?' } });
    expect((await conversation(server, token, threadId)).openSuspensions).toEqual([
      expect.objectContaining({ kind: 'QUESTION', toolName: 'ask_user' }),
    ]);
    expect(await resolve(opened.suspensionId, { answer: 'blue' })).toMatchObject({ __typename: 'SuspensionResolved' });
    expect((await follower.waitFor(finishedOf(executionId))).status).toBe('COMPLETED');
    expect(replyTexts(follower.events).get(executionId)).toBe('You answered: "blue"');
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(textOf(messages[1])).toBe('You answered: "blue"');
    expect(messages[1]!.parts.find((part) => part.__typename === 'ToolCallPart')).toMatchObject({
      toolName: 'ask_user',
      state: 'SUCCEEDED',
    });
  });

  it('ask: a typed message answers the open question instead of queueing', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/ask Which day?');
    const answered = await sendMessage(threadId, 'Tuesday');
    expect(answered).toMatchObject({ __typename: 'SuspensionResolved', suspensionId: opened.suspensionId, executionId });
    // Nothing was queued: the queue stays empty and the answer never starts a run of its own.
    expect((await queue(server, token, threadId)).items).toEqual([]);
    expect((await follower.waitFor(finishedOf(executionId))).status).toBe('COMPLETED');
    const events = follower.events;
    expect(ofKind(events, 'ExecutionStarted')).toHaveLength(1);
    expect(ofKind(events, 'MessageQueued').map((event) => event.text)).toEqual(['/ask Which day?']);
    expect(replyTexts(follower.events).get(executionId)).toBe('You answered: "Tuesday"');
    expect((await queue(server, token, threadId)).items).toEqual([]);
    const after = await conversation(server, token, threadId);
    expect(after.openSuspensions).toEqual([]);
    expect(messagesOf(after).filter((message) => message.role === 'USER')).toHaveLength(1);
  });

  it('a message sent while suspended waits and runs after the resumed execution finishes', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/approve ship it');
    await send(server, token, threadId, 'after the approval');
    // It waits: the suspended execution blocks the queue.
    expect((await queue(server, token, threadId)).items.map((item) => item.text)).toEqual(['after the approval']);
    const waiting = await conversation(server, token, threadId);
    expect(waiting.activeExecutionId).toBe(executionId);
    expect(ofKind(follower.events, 'ExecutionStarted')).toHaveLength(1);

    await resolve(opened.suspensionId, { decision: 'APPROVE' });
    const next = await follower.waitFor(startedWith('after the approval'));
    const done = await follower.waitFor(finishedOf(next.executionId!));
    expect(done.status).toBe('COMPLETED');
    const events = follower.events;
    const firstFinished = events.findIndex(finishedOf(executionId));
    expect(firstFinished).toBeGreaterThan(-1);
    expect(events.indexOf(next)).toBeGreaterThan(firstFinished);
    expect(events.find(finishedOf(executionId))!.status).toBe('COMPLETED');
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((message) => [message.role, textOf(message)])).toEqual([
      ['USER', '/approve ship it'],
      ['ASSISTANT', 'Approved: ship it'],
      ['USER', 'after the approval'],
      ['ASSISTANT', 'You said: "after the approval"'],
    ]);
  });

  it('a second resolution is a ConflictError; racing ones resume the execution once', async () => {
    const { follower, opened, executionId } = await suspendedThread('/approve twice');
    const first = await resolve(opened.suspensionId, { decision: 'APPROVE' });
    expect(first.__typename).toBe('SuspensionResolved');
    const again = await resolve(opened.suspensionId, { decision: 'DENY' });
    expect(again).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    await follower.waitFor(finishedOf(executionId));
    expect(replyTexts(follower.events).get(executionId)).toBe('Approved: twice');

    const race = await suspendedThread('/approve race');
    const outcomes = await Promise.all([
      resolve(race.opened.suspensionId, { decision: 'APPROVE' }),
      resolve(race.opened.suspensionId, { decision: 'DENY' }),
    ]);
    expect(outcomes.map((outcome) => outcome.__typename).sort()).toEqual(['ConflictError', 'SuspensionResolved']);
    await race.follower.waitFor(finishedOf(race.executionId));
    const winner = outcomes[0]!.__typename === 'SuspensionResolved' ? 'Approved' : 'Not approved';
    expect(replyTexts(race.follower.events).get(race.executionId)).toBe(`${winner}: race`);
    expect(ofKind(race.follower.events, 'SuspensionResolved')).toHaveLength(1);
    expect(ofKind(race.follower.events, 'ExecutionFinished')).toHaveLength(1);
  });

  it('another user cannot resolve the card (NotFoundError), even as a project member', async () => {
    const { threadId, opened, follower, executionId } = await suspendedThread('/approve mine only');
    const other = await server.createUser();
    await server.parley.services.directory.addMember(null, { projectId, user: other.userId, role: 'admin' });
    const foreign = await resolve(opened.suspensionId, { decision: 'APPROVE' }, other.token);
    expect(foreign).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const stranger = await server.createUser();
    expect(await resolve(opened.suspensionId, { decision: 'APPROVE' }, stranger.token)).toMatchObject({
      __typename: 'NotFoundError',
    });
    const still = await conversation(server, token, threadId);
    expect(still.openSuspensions.map((suspension) => suspension.id)).toEqual([opened.suspensionId]);
    expect((await execution(server, token, executionId)).status).toBe('SUSPENDED');
    await resolve(opened.suspensionId, { decision: 'DENY' });
    await follower.waitFor(finishedOf(executionId));
  });

  it('the wrong kind of resolution is an InvalidInputError and changes nothing', async () => {
    const { threadId, opened, follower, executionId } = await suspendedThread('/approve the right way');
    const cursorBefore = (await conversation(server, token, threadId)).eventCursor;
    expect(await resolve(opened.suspensionId, { answer: 'yes please' })).toMatchObject({
      __typename: 'InvalidInputError',
      field: 'decision',
    });
    expect(await resolve(opened.suspensionId, {})).toMatchObject({ __typename: 'InvalidInputError' });
    const unchanged = await conversation(server, token, threadId);
    expect(unchanged.eventCursor).toBe(cursorBefore);
    expect(unchanged.openSuspensions.map((suspension) => suspension.status)).toEqual(['OPEN']);
    expect((await execution(server, token, executionId)).status).toBe('SUSPENDED');
    await resolve(opened.suspensionId, { decision: 'APPROVE' });
    await follower.waitFor(finishedOf(executionId));
    expect(replyTexts(follower.events).get(executionId)).toBe('Approved: the right way');

    const question = await suspendedThread('/ask Empty?');
    expect(await resolve(question.opened.suspensionId, { decision: 'APPROVE' })).toMatchObject({
      __typename: 'InvalidInputError',
      field: 'answer',
    });
    expect(await resolve(question.opened.suspensionId, { answer: '   ' })).toMatchObject({
      __typename: 'InvalidInputError',
      field: 'answer',
    });
    expect((await execution(server, token, question.executionId)).status).toBe('SUSPENDED');
    await resolve(question.opened.suspensionId, { answer: 'not empty' });
    await question.follower.waitFor(finishedOf(question.executionId));
    expect(replyTexts(question.follower.events).get(question.executionId)).toBe('You answered: "not empty"');
  });

  it('a Stop that lands while the execution is opening its card ends it: CANCELLED, no card left open', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const threadId = await newThread(server, token, agentId);
      const follower = follow(server, token, threadId);
      followers.push(follower);
      await send(server, token, threadId, `/approve stopped early ${attempt}`);
      // Stop as soon as the execution exists: while it runs towards its approval card.
      const executionId = await activeExecutionOf(server, token, threadId);
      const stop = await cancel(server, token, executionId);
      expect(stop).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      // A Stop that was accepted ends the execution, whether it landed before or after the card opened.
      expect((await follower.waitFor(finishedOf(executionId), 5_000)).status).toBe('CANCELLED');
      const after = await conversation(server, token, threadId);
      expect(after.activeExecutionId).toBeNull();
      expect(after.openSuspensions, 'no card of a cancelled execution stays open').toEqual([]);
      expect((await execution(server, token, executionId)).status).toBe('CANCELLED');
    }
  });

  it('Stop of a suspended execution cancels it through its checkpoint; the next message then runs', async () => {
    const { threadId, follower, opened, executionId } = await suspendedThread('/approve never mind');
    await send(server, token, threadId, 'next one');
    const stop = await cancel(server, token, executionId);
    expect(stop).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    expect((await follower.waitFor(finishedOf(executionId))).status).toBe('CANCELLED');
    expect(follower.events.find(is('SuspensionResolved'))).toMatchObject({
      suspensionId: opened.suspensionId,
      resolution: { cancelled: true },
    });
    const next = await follower.waitFor(startedWith('next one'));
    expect((await follower.waitFor(finishedOf(next.executionId!))).status).toBe('COMPLETED');
    expect((await execution(server, token, executionId)).status).toBe('CANCELLED');
    const after = await conversation(server, token, threadId);
    expect(after.openSuspensions).toEqual([]);
    expect(after.activeExecutionId).toBeNull();
    // The card can no longer be resolved, and a late Stop does not touch anything.
    expect(await resolve(opened.suspensionId, { decision: 'APPROVE' })).toMatchObject({ __typename: 'ConflictError' });
    expect(await cancel(server, token, executionId)).toMatchObject({
      __typename: 'ConflictError',
    });
    expect(messagesOf(after).map((message) => message.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(textOf(messagesOf(after)[3])).toBe('You said: "next one"');
  });
});

describeEachBackend('an approval across a server restart', (backend) => {
  let dataDir: string | null = null;
  const servers: TestServer[] = [];

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the checkpoint; approving on the new server completes the same reply', async () => {
    let env: Record<string, string> | undefined;
    if (backend === 'pglite') {
      dataDir = mkdtempSync(join(tmpdir(), 'parley-suspend-'));
      env = { PARLEY_DATA_DIR: dataDir };
    }
    const first = await startTestServer({ backend, env, dropSchemaOnStop: false });
    servers.push(first);
    const { token, agentId } = await setUpAgent(first, { project: 'Restart' });
    const threadId = await newThread(first, token, agentId);
    const follower = follow(first, token, threadId);
    await send(first, token, threadId, '/approve survive a restart');
    const opened = await follower.waitFor(is('SuspensionOpened'));
    await follower.waitFor(SUSPENDED);
    const executionId = opened.executionId!;
    // The reply so far (the card waiting for approval) is recorded before the restart.
    const assistantBefore = messagesOf(await conversation(first, token, threadId)).find((m) => m.role === 'ASSISTANT');
    expect(assistantBefore?.parts).toEqual([
      expect.objectContaining({ __typename: 'ToolCallPart', toolName: 'approve_action', state: 'AWAITING_APPROVAL' }),
    ]);
    await follower.close();
    await first.stop();

    const second = await startTestServer({ backend, env: first.env });
    servers.push(second);
    const reloaded = await conversation(second, token, threadId);
    expect(reloaded.openSuspensions).toEqual([
      expect.objectContaining({ id: opened.suspensionId, kind: 'APPROVAL', status: 'OPEN', executionId }),
    ]);
    expect(reloaded.activeExecutionId).toBe(executionId);
    // A suspended execution is not a dead instance's run: the restart leaves it suspended.
    expect((await execution(second, token, executionId)).status).toBe('SUSPENDED');

    const resumed = follow(second, token, threadId, reloaded.eventCursor);
    const resolved = (
      await requestData(second, ResolveSuspensionDocument, { id: opened.suspensionId, decision: 'APPROVE' }, token)
    ).resolveSuspension;
    expect(resolved.__typename).toBe('SuspensionResolved');
    expect((await resumed.waitFor(finishedOf(executionId))).status).toBe('COMPLETED');
    await resumed.close();

    const messages = messagesOf(await conversation(second, token, threadId));
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(messages[1]!.executionId).toBe(executionId);
    expect(messages[1]!.id).toBe(assistantBefore!.id);
    expect(textOf(messages[1])).toBe('Approved: survive a restart');
    expect(messages[1]!.parts.filter((part) => part.__typename === 'ToolCallPart')).toEqual([
      expect.objectContaining({ toolName: 'approve_action', state: 'SUCCEEDED' }),
    ]);
    expect((await execution(second, token, executionId)).status).toBe('COMPLETED');
  });
});
