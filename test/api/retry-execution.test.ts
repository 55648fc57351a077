import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation, messagesOf, send } from '../support/client.ts';
import { RetryExecutionDocument } from '../support/documents.ts';
import { follow } from '../support/follower.ts';
import { ofKind, type RunEvent } from '../support/run-events.ts';
import { addMember, newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

describe('retryExecution', () => {
  let server: TestServer;
  let token: string;
  let otherToken: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    let projectId: string;
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Retry' }));
    otherToken = (await addMember(server, projectId)).token;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const finishedTurns = (count: number) => (events: RunEvent[]) => ofKind(events, 'ExecutionFinished').length === count;

  /** A thread whose first turn (`text`) has finished; its follower stays open for what comes next. */
  async function failedTurn(text: string) {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    await send(server, token, threadId, text);
    const [finished] = ofKind(await follower.waitUntil(finishedTurns(1)), 'ExecutionFinished');
    return { threadId, executionId: finished!.executionId!, status: finished!.status, follower };
  }

  async function eventCount(threadId: string) {
    return Number((await conversation(server, token, threadId)).eventCursor);
  }

  it('re-queues the input of a retryable failure, once, and it runs again', async () => {
    const { threadId, executionId, status, follower } = await failedTurn('/fail provider_internal');
    expect(status).toBe('FAILED');
    const first = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(first.retryExecution).toMatchObject({ __typename: 'MessageQueued', text: '/fail provider_internal' });
    const again = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(again.retryExecution).toEqual(first.retryExecution);
    // The retried turn runs (and fails again, deterministically): two turns in the conversation.
    await follower.waitUntil(finishedTurns(2));
    await follower.close();
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    // Asking again after the retry ran still answers with that retry, never a second one.
    const late = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(late.retryExecution).toEqual(first.retryExecution);
    expect(messages).toHaveLength(4);
  });

  it('refuses a failure a retry cannot fix, a completed run, another user’s turn and bad ids, changing nothing', async () => {
    const fatal = await failedTurn('/fail authentication');
    await fatal.follower.close();
    const before = await eventCount(fatal.threadId);
    const refused = await requestData(server, RetryExecutionDocument, { executionId: fatal.executionId }, token);
    expect(refused.retryExecution).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    expect((refused.retryExecution as { message: string }).message).toContain('AUTHENTICATION');

    const done = await failedTurn('all good');
    await done.follower.close();
    expect(done.status).toBe('COMPLETED');
    const completed = await requestData(server, RetryExecutionDocument, { executionId: done.executionId }, token);
    expect(completed.retryExecution).toMatchObject({ __typename: 'ConflictError' });

    const retryable = await failedTurn('/fail rate_limit');
    await retryable.follower.close();
    const foreign = await requestData(server, RetryExecutionDocument, { executionId: retryable.executionId }, otherToken);
    expect(foreign.retryExecution).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const malformed = await requestData(server, RetryExecutionDocument, { executionId: 'nope' }, token);
    expect(malformed.retryExecution).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });

    expect(await eventCount(fatal.threadId)).toBe(before);
    expect(await server.parley.db.prisma.queueItem.count()).toBe(0);
  });

  it('refuses to retry a turn older than the thread’s latest', async () => {
    const { threadId, executionId, follower } = await failedTurn('/fail transport');
    await send(server, token, threadId, 'next');
    await follower.waitUntil(finishedTurns(2));
    await follower.close();
    const stale = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(stale.retryExecution).toMatchObject({ __typename: 'ConflictError' });
    await settledConversation(server, token, threadId);
    expect(await server.parley.db.prisma.queueItem.count()).toBe(0);
  });
});
