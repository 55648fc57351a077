import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { sendWithFiles } from '../support/attachments.ts';
import { send } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { databaseState, startTestServer, type TestServer } from '../support/server.ts';
import { activeExecutionOf, settledConversation } from '../support/waits.ts';

// Stored data has bounds per thread and per user: past them a mutation answers LimitExceededError
// naming the setting and its limit, and nothing is stored.

const LIMIT_FIELDS = '... on LimitExceededError { message code setting limit } ... on Error { message code }';

async function graphql(server: TestServer, token: string, query: string, variables: Record<string, unknown>) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown[] };
}

describeEachBackend('Bounded data per thread and per user', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({
      backend,
      env: { PARLEY_MAX_QUEUED_PER_THREAD: '3', PARLEY_MAX_THREADS_PER_USER: '3', PARLEY_MAX_ATTACHMENT_BYTES_PER_USER: '100' },
    });
    ({ token, agentId } = await setUpAgent(server, { project: 'Bounds' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const refusedSetting = async (setting: string) =>
    (await server.parley.metrics.registry.getSingleMetric('parley_limit_refusals_total')!.get()).values.find(
      (value) => value.labels.setting === setting,
    )?.value ?? 0;

  it('a full queue refuses the next message with LimitExceededError and stores nothing', async () => {
    const threadId = await newThread(server, token, agentId);
    await send(server, token, threadId, '/slow 120 running');
    await activeExecutionOf(server, token, threadId, 60_000);
    for (let index = 0; index < 3; index += 1) await send(server, token, threadId, `/slow 120 pending ${index}`);
    const sendQuery = `mutation($threadId: ID!, $text: String!) { sendMessage(threadId: $threadId, text: $text) { __typename ${LIMIT_FIELDS} } }`;
    const before = await databaseState(server);
    const { data } = await graphql(server, token, sendQuery, { threadId, text: 'one too many' });
    expect(data?.sendMessage).toEqual({
      __typename: 'LimitExceededError',
      code: 'LIMIT_EXCEEDED',
      setting: 'PARLEY_MAX_QUEUED_PER_THREAD',
      limit: 3,
      message: 'this thread has 3 messages queued; the limit is 3 (PARLEY_MAX_QUEUED_PER_THREAD).',
    });
    expect(await databaseState(server)).toEqual(before);
    expect(await refusedSetting('PARLEY_MAX_QUEUED_PER_THREAD')).toBe(1);
  });

  it('attachments past the user’s stored bytes are refused, nothing stored', async () => {
    const threadId = await newThread(server, token, agentId);
    const first = await sendWithFiles(server, token, { threadId, text: 'first file' }, [{ name: 'a.txt', type: 'text/plain', content: 'x'.repeat(60) }]);
    expect(first.data?.sendMessage.__typename).toBe('MessageQueued');
    // The first message's turn runs meanwhile: the state to compare is the one after it.
    await settledConversation(server, token, threadId, { timeoutMs: 60_000 });
    const before = await databaseState(server);
    const second = await sendWithFiles(server, token, { threadId, text: 'second file' }, [{ name: 'b.txt', type: 'text/plain', content: 'y'.repeat(60) }]);
    expect(second.data?.sendMessage).toMatchObject({ __typename: 'LimitExceededError', code: 'LIMIT_EXCEEDED' });
    expect(second.data?.sendMessage.message).toBe(
      'your attachments take 60 bytes and these files 60 more; the limit is 100 (PARLEY_MAX_ATTACHMENT_BYTES_PER_USER).',
    );
    expect(await databaseState(server)).toEqual(before);
  });

  it('a user with PARLEY_MAX_THREADS_PER_USER threads cannot create another', async () => {
    // The two tests above made two threads.
    await newThread(server, token, agentId);
    const before = await databaseState(server);
    const createQuery = `mutation($agentId: ID!) { createThread(agentId: $agentId) { __typename ${LIMIT_FIELDS} } }`;
    const { data } = await graphql(server, token, createQuery, { agentId });
    expect(data?.createThread).toMatchObject({ __typename: 'LimitExceededError', setting: 'PARLEY_MAX_THREADS_PER_USER', limit: 3 });
    expect(await databaseState(server)).toEqual(before);
  });
});
