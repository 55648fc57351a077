import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventsSubscription } from '../gql/graphql.ts';
import { describeEachBackend } from '../support/backends.ts';
import { replyTexts } from '../support/client-rules.ts';
import {
  CancelExecutionDocument,
  ConversationDocument,
  CreateThreadDocument,
  ExecutionDocument,
  QueueDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import {
  eventually,
  request,
  requestData,
  startTestServer,
  subscribe,
  wsClient,
  type Subscription,
  type TestServer,
} from '../support/server.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';

type RunEvent = RunEventsSubscription['runEvents'];
type Of<K extends RunEvent['__typename']> = Extract<RunEvent, { __typename: K }>;

function ofType<K extends RunEvent['__typename']>(events: RunEvent[], kind: K): Of<K>[] {
  return events.filter((event): event is Of<K> => event.__typename === kind);
}

const COUNTING_30 = `Counting: ${Array.from({ length: 120 }, (_, index) => index + 1).join(' ')}`;

describeEachBackend('Stop', (backend) => {
  let server: TestServer;
  let token: string;
  let otherToken: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    const user = await server.createUser();
    token = user.token;
    const other = await server.createUser();
    otherToken = other.token;
    const directory = server.parley.directory;
    const project = await directory.createProject(await directory.findUser(user.userId), { name: 'Stop' });
    // A member of the same project, who still cannot see (or stop) this user's test turns.
    await directory.addMember(null, { projectId: project.id, user: other.userId, role: 'member' });
    agentId = (
      await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default', tools: ['approve_action'] })
    ).id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  interface ThreadSession {
    threadId: string;
    subscription: Subscription<RunEventsSubscription>;
    events(): RunEvent[];
    send(text: string): Promise<string>;
    started(queueId: string): Promise<Of<'ExecutionStarted'>>;
    finished(executionId: string): Promise<Of<'ExecutionFinished'>>;
    close(): Promise<void>;
  }

  async function openThread(): Promise<ThreadSession> {
    const created = await requestData(server, CreateThreadDocument, { agentId }, token);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;
    const client: Client = wsClient(server, token);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
    const events = () => subscription.events.map((event) => event.runEvents);
    const startedFor = (queueId: string) =>
      ofType(events(), 'ExecutionStarted').find((event) => event.startedQueueId === queueId);
    const finishedFor = (executionId: string) =>
      ofType(events(), 'ExecutionFinished').find((event) => event.executionId === executionId);
    return {
      threadId,
      subscription,
      events,
      async send(text) {
        const sent = await requestData(server, SendMessageDocument, { threadId, text }, token);
        if (sent.sendMessage.__typename !== 'MessageQueued') throw new Error(JSON.stringify(sent));
        return sent.sendMessage.queueId;
      },
      async started(queueId) {
        await subscription.waitFor(() => startedFor(queueId) !== undefined);
        return startedFor(queueId)!;
      },
      async finished(executionId) {
        await subscription.waitFor(() => finishedFor(executionId) !== undefined);
        return finishedFor(executionId)!;
      },
      async close() {
        subscription.close();
        await client.dispose();
      },
    };
  }

  const cancel = async (executionId: string, as: string = token) => {
    const result = await request(server, CancelExecutionDocument, { executionId }, as);
    return result.data?.cancelExecution ?? { __typename: 'GraphQLErrors' as const, errors: result.errors };
  };
  const conversationOf = async (threadId: string) =>
    (await requestData(server, ConversationDocument, { threadId }, token)).conversation;
  const statusOf = async (executionId: string) => {
    const { node } = await requestData(server, ExecutionDocument, { id: executionId }, token);
    if (node.__typename !== 'Execution') throw new Error(JSON.stringify(node));
    return node.status;
  };
  const textOf = (parts: { __typename: string; text?: string }[]) =>
    parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');

  it('ends a running execution as CANCELLED at once and keeps the text it had streamed', async () => {
    const session = await openThread();
    const run = await session.started(await session.send('/slow 30'));
    const executionId = run.executionId!;
    await session.subscription.waitFor((all) => (replyTexts(all as never).get(executionId) ?? '').startsWith('Counting: 1'));

    const requestedAt = Date.now();
    expect(await cancel(executionId)).toEqual({ __typename: 'CancelRequested', cancelRequested: true, executionId });
    const finished = await session.finished(executionId);
    // Far sooner than the 30 s the reply would have taken.
    expect(Date.now() - requestedAt).toBeLessThan(10_000);
    expect(finished.status).toBe('CANCELLED');
    expect(await statusOf(executionId)).toBe('CANCELLED');

    const conversation = await eventually(async () => {
      const current = await conversationOf(session.threadId);
      return current.activeExecutionId === null && current;
    });
    const messages = conversation.messages.edges.map((edge) => edge.node);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    const kept = textOf(messages[1]!.parts);
    expect(kept.startsWith('Counting: 1')).toBe(true);
    expect(kept.length).toBeLessThan(COUNTING_30.length);
    expect(COUNTING_30.startsWith(kept)).toBe(true);
    // What the client showed live is what was recorded.
    expect(COUNTING_30.startsWith(replyTexts(session.subscription.events as never).get(executionId)!)).toBe(true);
    await session.close();
  });

  it('leaves pending messages in place; the next one starts after the cancellation', async () => {
    const session = await openThread();
    const run = await session.started(await session.send('/slow 30 stopped'));
    const first = await session.send('first after');
    const second = await session.send('second after');

    expect(await cancel(run.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    const cancelled = await session.finished(run.executionId!);
    expect(cancelled.status).toBe('CANCELLED');
    const next = await session.started(first);
    const last = await session.started(second);
    expect((await session.finished(last.executionId!)).status).toBe('COMPLETED');

    const events = session.events();
    expect(events.indexOf(cancelled)).toBeLessThan(events.indexOf(next));
    expect(events.indexOf(next)).toBeLessThan(events.indexOf(last));
    expect(next.acceptedText).toBe('first after');
    expect((await session.finished(next.executionId!)).status).toBe('COMPLETED');
    const conversation = await conversationOf(session.threadId);
    const users = conversation.messages.edges.filter((edge) => edge.node.role === 'USER');
    expect(users.map((edge) => textOf(edge.node.parts))).toEqual(['/slow 30 stopped', 'first after', 'second after']);
    expect((await requestData(server, QueueDocument, { threadId: session.threadId }, token)).queue.items).toEqual([]);
    await session.close();
  });

  it('a Stop racing admission ends the execution; it never stays RUNNING', async () => {
    const session = await openThread();
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      let executionId: string;
      const text = round % 3 === 2 ? `quick ${round}` : `/slow 30 race ${round}`;
      const queueId = await session.send(text);
      if (round % 3 === 1) {
        // As soon as a reloading client could see it: the conversation's active execution.
        executionId = await eventually(async () => (await conversationOf(session.threadId)).activeExecutionId);
      } else {
        // As soon as ExecutionStarted arrives.
        executionId = (await session.started(queueId)).executionId!;
      }
      const result = await cancel(executionId);
      const finished = await session.finished(executionId);
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
      await eventually(async () => (await conversationOf(session.threadId)).activeExecutionId === null);
    }
    expect(outcomes).toHaveLength(6);
    // The thread still works afterwards.
    const after = await session.started(await session.send('still here'));
    expect((await session.finished(after.executionId!)).status).toBe('COMPLETED');
    await session.close();
  });

  it('a Stop of an execution that already ended never touches a later one', async () => {
    const session = await openThread();
    const a = await session.started(await session.send('run A'));
    expect((await session.finished(a.executionId!)).status).toBe('COMPLETED');
    const b = await session.started(await session.send('/slow 30'));
    const bId = b.executionId!;

    expect(await cancel(a.executionId!)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    expect(await statusOf(a.executionId!)).toBe('COMPLETED');
    expect(await statusOf(bId)).toBe('RUNNING');
    expect((await conversationOf(session.threadId)).activeExecutionId).toBe(bId);
    // No Stop was recorded for B.
    const recorded = await server.parley.db.prisma.execution.findUniqueOrThrow({
      where: { id: decodeId('executionId', bId, 'Execution') },
    });
    expect(recorded.cancelRequestedAt).toBeNull();
    // B keeps streaming: more text arrives after the refused Stop.
    const seen = (replyTexts(session.subscription.events as never).get(bId) ?? '').length;
    await session.subscription.waitFor((all) => (replyTexts(all as never).get(bId) ?? '').length > seen);
    expect(ofType(session.events(), 'ExecutionFinished').map((event) => event.executionId)).toEqual([a.executionId]);

    expect(await cancel(bId)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    expect((await session.finished(bId)).status).toBe('CANCELLED');
    await session.close();
  });

  it('refuses a Stop by another user and a malformed or unknown id, changing nothing', async () => {
    const session = await openThread();
    const run = await session.started(await session.send('/slow 30 mine'));
    const executionId = run.executionId!;

    expect(await cancel(executionId, otherToken)).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await cancel('not-an-id')).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });
    expect(await cancel(encodeId('Execution', '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      __typename: 'NotFoundError',
    });
    expect(await statusOf(executionId)).toBe('RUNNING');
    expect((await conversationOf(session.threadId)).activeExecutionId).toBe(executionId);
    expect(ofType(session.events(), 'ExecutionFinished')).toEqual([]);

    expect(await cancel(executionId)).toMatchObject({ __typename: 'CancelRequested' });
    expect((await session.finished(executionId)).status).toBe('CANCELLED');
    await session.close();
  });

  it('a double Stop is a request or a conflict, never another error; a late one is a conflict', async () => {
    const session = await openThread();
    for (let round = 0; round < 2; round++) {
      const run = await session.started(await session.send(`/slow 30 twice ${round}`));
      const executionId = run.executionId!;
      const both = await Promise.all([cancel(executionId), cancel(executionId)]);
      for (const result of both) expect(['CancelRequested', 'ConflictError']).toContain(result.__typename);
      expect(both.map((result) => result.__typename)).toContain('CancelRequested');
      const third = await cancel(executionId);
      expect(['CancelRequested', 'ConflictError']).toContain(third.__typename);
      expect((await session.finished(executionId)).status).toBe('CANCELLED');
      expect(await cancel(executionId)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
    }
    expect(ofType(session.events(), 'ExecutionFinished').map((event) => event.status)).toEqual(['CANCELLED', 'CANCELLED']);
    await session.close();
  });

  it('stops an execution waiting for approval through its checkpoint; pending messages then run', async () => {
    const session = await openThread();
    const run = await session.started(await session.send('/approve deploy'));
    await session.subscription.waitFor(() => ofType(session.events(), 'SuspensionOpened').length === 1);
    const pending = await session.send('after approval');
    expect((await requestData(server, QueueDocument, { threadId: session.threadId }, token)).queue.items).toHaveLength(1);

    expect(await cancel(run.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
    expect((await session.finished(run.executionId!)).status).toBe('CANCELLED');
    expect(ofType(session.events(), 'SuspensionResolved')).toHaveLength(1);
    const next = await session.started(pending);
    expect((await session.finished(next.executionId!)).status).toBe('COMPLETED');
    const conversation = await conversationOf(session.threadId);
    expect(conversation.activeExecutionId).toBeNull();
    expect(await cancel(run.executionId!)).toMatchObject({ __typename: 'ConflictError' });
    await session.close();
  });
});
