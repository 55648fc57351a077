import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typenames } from '../support/client-rules.ts';
import {
  ConversationDocument,
  CreateThreadDocument,
  RetryExecutionDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import { eventually, requestData, startTestServer, subscribe, wsClient, type TestServer } from '../support/server.ts';

describe('retryExecution', () => {
  let server: TestServer;
  let token: string;
  let otherToken: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_RETRY_MAX_ATTEMPTS: '1' } });
    const user = await server.createUser();
    token = user.token;
    const other = await server.createUser();
    otherToken = other.token;
    const directory = server.parley.directory;
    const project = await directory.createProject(await directory.findUser(user.userId), { name: 'Retry' });
    await directory.addMember(null, { projectId: project.id, user: other.userId, role: 'member' });
    agentId = (await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default' })).id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function failedTurn(text: string) {
    const created = await requestData(server, CreateThreadDocument, { agentId }, token);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;
    const client = wsClient(server, token);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
    await requestData(server, SendMessageDocument, { threadId, text }, token);
    const events = await subscription.waitFor((all) => typenames(all).includes('ExecutionFinished'));
    const finished = events.at(-1)!.runEvents as { executionId: string; status: string };
    return { threadId, executionId: finished.executionId, status: finished.status, subscription, client };
  }

  async function eventCount(threadId: string) {
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    return Number(conversation.eventCursor);
  }

  it('re-queues the input of a retryable failure, once, and it runs again', async () => {
    const { threadId, executionId, status, subscription, client } = await failedTurn('/fail provider_internal');
    expect(status).toBe('FAILED');
    const first = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(first.retryExecution).toMatchObject({ __typename: 'MessageQueued', text: '/fail provider_internal' });
    const again = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(again.retryExecution).toEqual(first.retryExecution);
    // The retried turn runs (and fails again, deterministically): two turns in the conversation.
    await subscription.waitFor((all) => typenames(all).filter((name) => name === 'ExecutionFinished').length === 2);
    subscription.close();
    await client.dispose();
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    expect(conversation.messages.edges.map((edge) => edge.node.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    // Asking again after the retry ran still answers with that retry, never a second one.
    const late = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(late.retryExecution).toEqual(first.retryExecution);
    expect(conversation.messages.edges).toHaveLength(4);
  });

  it('refuses a failure a retry cannot fix, a completed run, another user’s turn and bad ids, changing nothing', async () => {
    const fatal = await failedTurn('/fail authentication');
    fatal.subscription.close();
    await fatal.client.dispose();
    const before = await eventCount(fatal.threadId);
    const refused = await requestData(server, RetryExecutionDocument, { executionId: fatal.executionId }, token);
    expect(refused.retryExecution).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    expect((refused.retryExecution as { message: string }).message).toContain('AUTHENTICATION');

    const done = await failedTurn('all good');
    done.subscription.close();
    await done.client.dispose();
    expect(done.status).toBe('COMPLETED');
    const completed = await requestData(server, RetryExecutionDocument, { executionId: done.executionId }, token);
    expect(completed.retryExecution).toMatchObject({ __typename: 'ConflictError' });

    const retryable = await failedTurn('/fail rate_limit');
    retryable.subscription.close();
    await retryable.client.dispose();
    const foreign = await requestData(server, RetryExecutionDocument, { executionId: retryable.executionId }, otherToken);
    expect(foreign.retryExecution).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const malformed = await requestData(server, RetryExecutionDocument, { executionId: 'nope' }, token);
    expect(malformed.retryExecution).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });

    expect(await eventCount(fatal.threadId)).toBe(before);
    expect(await server.parley.db.prisma.queueItem.count()).toBe(0);
  });

  it('refuses to retry a turn older than the thread’s latest', async () => {
    const { threadId, executionId, subscription, client } = await failedTurn('/fail transport');
    await requestData(server, SendMessageDocument, { threadId, text: 'next' }, token);
    await subscription.waitFor((all) => typenames(all).filter((name) => name === 'ExecutionFinished').length === 2);
    subscription.close();
    await client.dispose();
    const stale = await requestData(server, RetryExecutionDocument, { executionId }, token);
    expect(stale.retryExecution).toMatchObject({ __typename: 'ConflictError' });
    await eventually(async () => (await server.parley.db.prisma.queueItem.count()) === 0);
  });
});
