import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { cancel, conversation, execution, messagesOf, queue, send, textOf } from '../support/client.ts';
import type { Follower } from '../support/follower.ts';
import { finishedOf, ofKind, replyTexts, startedFrom } from '../support/run-events.ts';
import { addMember, followNewThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { activeExecutionOf, settledConversation } from '../support/waits.ts';

const COUNTING_30 = `Counting: ${Array.from({ length: 120 }, (_, index) => index + 1).join(' ')}`;

describeEachBackend('Stop', (backend) => {
  let server: TestServer;
  let token: string;
  let otherToken: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    let projectId: string;
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Stop' }));
    // A member of the same project, who still cannot see (or stop) this user's test turns.
    otherToken = (await addMember(server, projectId)).token;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const openThread = () => followNewThread(server, token, agentId);
  const sendText = async (follower: Follower, text: string) => (await send(server, token, follower.threadId, text)).queueId;
  const stop = (executionId: string, as: string = token) => cancel(server, as, executionId);
  const conversationOf = (threadId: string) => conversation(server, token, threadId);
  const statusOf = async (executionId: string) => (await execution(server, token, executionId)).status;

  it('ends a running execution as CANCELLED at once and keeps the text it had streamed', async () => {
    const follower = await openThread();
    const run = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30')));
    const executionId = run.executionId!;
    await follower.waitUntil((all) => (replyTexts(all).get(executionId) ?? '').startsWith('Counting: 1'));

    const requestedAt = Date.now();
    expect(await stop(executionId)).toEqual({ __typename: 'CancelRequested', cancelRequested: true, executionId });
    const finished = await follower.waitFor(finishedOf(executionId));
    // Far sooner than the 30 s the reply would have taken.
    expect(Date.now() - requestedAt).toBeLessThan(10_000);
    expect(finished.status).toBe('CANCELLED');
    expect(await statusOf(executionId)).toBe('CANCELLED');

    const state = await settledConversation(server, token, follower.threadId, { outcome: 'ANY' });
    const messages = messagesOf(state);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    // After a reload the reply still reads as stopped, not as a reply that simply ended there.
    expect(messages.map((message) => message.outcome)).toEqual(['CANCELLED', 'CANCELLED']);
    const kept = textOf(messages[1]);
    expect(kept.startsWith('Counting: 1')).toBe(true);
    expect(kept.length).toBeLessThan(COUNTING_30.length);
    expect(COUNTING_30.startsWith(kept)).toBe(true);
    // What the client showed live is what was recorded.
    expect(COUNTING_30.startsWith(replyTexts(follower.events).get(executionId)!)).toBe(true);
    await follower.close();
  });

  it('leaves pending messages in place; the next one starts after the cancellation', async () => {
    const follower = await openThread();
    const run = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30 stopped')));
    const first = await sendText(follower, 'first after');
    const second = await sendText(follower, 'second after');

    expect(await stop(run.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    const cancelled = await follower.waitFor(finishedOf(run.executionId!));
    expect(cancelled.status).toBe('CANCELLED');
    const next = await follower.waitFor(startedFrom(first));
    const last = await follower.waitFor(startedFrom(second));
    expect((await follower.waitFor(finishedOf(last.executionId!))).status).toBe('COMPLETED');

    const events = follower.events;
    expect(events.indexOf(cancelled)).toBeLessThan(events.indexOf(next));
    expect(events.indexOf(next)).toBeLessThan(events.indexOf(last));
    expect(next.acceptedText).toBe('first after');
    expect((await follower.waitFor(finishedOf(next.executionId!))).status).toBe('COMPLETED');
    const users = messagesOf(await conversationOf(follower.threadId)).filter((message) => message.role === 'USER');
    expect(users.map(textOf)).toEqual(['/slow 30 stopped', 'first after', 'second after']);
    expect((await queue(server, token, follower.threadId)).items).toEqual([]);
    await follower.close();
  });

  it('a Stop racing admission ends the execution; it never stays RUNNING', async () => {
    const follower = await openThread();
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      let executionId: string;
      const text = round % 3 === 2 ? `quick ${round}` : `/slow 30 race ${round}`;
      const queueId = await sendText(follower, text);
      if (round % 3 === 1) {
        // As soon as a reloading client could see it: the conversation's active execution.
        executionId = await activeExecutionOf(server, token, follower.threadId);
      } else {
        // As soon as ExecutionStarted arrives.
        executionId = (await follower.waitFor(startedFrom(queueId))).executionId!;
      }
      const result = await stop(executionId);
      const finished = await follower.waitFor(finishedOf(executionId));
      if (text.startsWith('/slow')) {
        expect(result).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true, executionId });
        expect(finished.status).toBe('CANCELLED');
      } else {
        // A plain reply may win the race: then the Stop finds it ended.
        expect(['CancelRequested', 'ConflictError']).toContain(result.__typename);
        expect(['CANCELLED', 'COMPLETED']).toContain(finished.status);
        if (result.__typename === 'ConflictError') expect(finished.status).toBe('COMPLETED');
      }
      outcomes.push(finished.status);
      expect(await statusOf(executionId)).toBe(finished.status);
      await settledConversation(server, token, follower.threadId, { outcome: 'ANY' });
    }
    expect(outcomes).toHaveLength(6);
    // The thread still works afterwards.
    const after = await follower.waitFor(startedFrom(await sendText(follower, 'still here')));
    expect((await follower.waitFor(finishedOf(after.executionId!))).status).toBe('COMPLETED');
    await follower.close();
  });

  it('a Stop of an execution that already ended never touches a later one', async () => {
    const follower = await openThread();
    const a = await follower.waitFor(startedFrom(await sendText(follower, 'run A')));
    expect((await follower.waitFor(finishedOf(a.executionId!))).status).toBe('COMPLETED');
    const b = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30')));
    const bId = b.executionId!;

    expect(await stop(a.executionId!)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    expect(await statusOf(a.executionId!)).toBe('COMPLETED');
    expect(await statusOf(bId)).toBe('RUNNING');
    expect((await conversationOf(follower.threadId)).activeExecutionId).toBe(bId);
    // No Stop was recorded for B.
    const recorded = await server.parley.db.prisma.execution.findUniqueOrThrow({
      where: { id: decodeId('executionId', bId, 'Execution') },
    });
    expect(recorded.cancelRequestedAt).toBeNull();
    // B keeps streaming: more text arrives after the refused Stop.
    const seen = (replyTexts(follower.events).get(bId) ?? '').length;
    await follower.waitUntil((all) => (replyTexts(all).get(bId) ?? '').length > seen);
    expect(ofKind(follower.events, 'ExecutionFinished').map((event) => event.executionId)).toEqual([a.executionId]);

    expect(await stop(bId)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    expect((await follower.waitFor(finishedOf(bId))).status).toBe('CANCELLED');
    await follower.close();
  });

  it('refuses a Stop by another user and a malformed or unknown id, changing nothing', async () => {
    const follower = await openThread();
    const run = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30 mine')));
    const executionId = run.executionId!;

    expect(await stop(executionId, otherToken)).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await stop('not-an-id')).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });
    expect(await stop(encodeId('Execution', '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      __typename: 'NotFoundError',
    });
    expect(await statusOf(executionId)).toBe('RUNNING');
    expect((await conversationOf(follower.threadId)).activeExecutionId).toBe(executionId);
    expect(ofKind(follower.events, 'ExecutionFinished')).toEqual([]);

    expect(await stop(executionId)).toMatchObject({ __typename: 'CancelRequested' });
    expect((await follower.waitFor(finishedOf(executionId))).status).toBe('CANCELLED');
    await follower.close();
  });

  it('a double Stop is a request or a conflict, never another error; a late one is a conflict', async () => {
    const follower = await openThread();
    for (let round = 0; round < 2; round++) {
      const run = await follower.waitFor(startedFrom(await sendText(follower, `/slow 30 twice ${round}`)));
      const executionId = run.executionId!;
      const both = await Promise.all([stop(executionId), stop(executionId)]);
      for (const result of both) expect(['CancelRequested', 'ConflictError']).toContain(result.__typename);
      expect(both.map((result) => result.__typename)).toContain('CancelRequested');
      const third = await stop(executionId);
      expect(['CancelRequested', 'ConflictError']).toContain(third.__typename);
      expect((await follower.waitFor(finishedOf(executionId))).status).toBe('CANCELLED');
      expect(await stop(executionId)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    }
    expect(ofKind(follower.events, 'ExecutionFinished').map((event) => event.status)).toEqual(['CANCELLED', 'CANCELLED']);
    await follower.close();
  });

  it('stops an execution waiting for approval through its checkpoint; pending messages then run', async () => {
    const follower = await openThread();
    const run = await follower.waitFor(startedFrom(await sendText(follower, '/approve deploy')));
    await follower.waitUntil(() => ofKind(follower.events, 'SuspensionOpened').length === 1);
    const pending = await sendText(follower, 'after approval');
    expect((await queue(server, token, follower.threadId)).items).toHaveLength(1);

    expect(await stop(run.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    expect((await follower.waitFor(finishedOf(run.executionId!))).status).toBe('CANCELLED');
    expect(ofKind(follower.events, 'SuspensionResolved')).toHaveLength(1);
    const next = await follower.waitFor(startedFrom(pending));
    expect((await follower.waitFor(finishedOf(next.executionId!))).status).toBe('COMPLETED');
    const state = await conversationOf(follower.threadId);
    expect(state.activeExecutionId).toBeNull();
    expect(await stop(run.executionId!)).toMatchObject({ __typename: 'ConflictError' });
    await follower.close();
  });
});
