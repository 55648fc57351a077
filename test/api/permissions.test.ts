import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import {
  AddProjectMemberDocument,
  RemoveProjectMemberDocument,
  RevokeApiTokenDocument,
  AgentDocument,
  CancelExecutionDocument,
  ConversationDocument,
  CreateAgentDocument,
  CreateProjectDocument,
  CreateThreadDocument,
  CreateUserDocument,
  DisableUserDocument,
  EditQueuedMessageDocument,
  EnableUserDocument,
  SetBudgetDocument,
  RemoveBudgetDocument,
  SetModelPriceDocument,
  NodeDocument,
  ProjectDocument,
  QueueDocument,
  RemoveQueuedMessageDocument,
  ReorderQueuedMessageDocument,
  RegenerateMessageDocument,
  RenameThreadDocument,
  ImportThreadDocument,
  CompactThreadDocument,
  UncompactThreadDocument,
  ShareThreadDocument,
  RevokeShareLinkDocument,
  DeleteThreadDocument,
  EditMessageDocument,
  SwitchBranchDocument,
  ResolveSuspensionDocument,
  AddToolServerDocument,
  UpdateToolServerDocument,
  RemoveToolServerDocument,
  RefreshToolServerDocument,
  RetryExecutionDocument,
  schemaMutations,
  SendMessageDocument,
  SteerQueuedMessageDocument,
  ThreadDocument,
  UpdateAgentDocument,
  ViewerDocument,
} from '../support/documents.ts';
import { expectTypename } from '../support/client.ts';
import { follow, refusedSubscription } from '../support/follower.ts';
import { typenames } from '../support/run-events.ts';
import { databaseState, request, requestData, startTestServer, type Backend, type GraphQLResponse, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

interface Actor {
  userId: string;
  token: string;
}

/** The owner's world: project P with an owner (ADMIN), a member, a viewer, and an outsider. */
interface World {
  server: TestServer;
  owner: Actor;
  member: Actor;
  viewer: Actor;
  outsider: Actor;
  projectId: string;
  agentId: string;
  /** The owner's TEST thread, with one completed exchange. */
  threadId: string;
  messageIds: string[];
  executionId: string;
}

async function buildWorld(backend: Backend): Promise<World> {
  const server = await startTestServer({ backend });
  const [owner, member, viewer, outsider] = await Promise.all([
    server.createUser({ email: `owner-${randomUUID().slice(0, 8)}@example.test` }),
    server.createUser({ email: `member-${randomUUID().slice(0, 8)}@example.test` }),
    server.createUser({ email: `viewer-${randomUUID().slice(0, 8)}@example.test` }),
    server.createUser({ email: `outsider-${randomUUID().slice(0, 8)}@example.test` }),
  ]);
  const project = expectTypename(
    (await requestData(server, CreateProjectDocument, { name: 'P' }, owner.token)).createProject,
    'Project',
  );
  expect(project.viewerRole).toBe('ADMIN');
  for (const [actor, role] of [
    [member, 'MEMBER'],
    [viewer, 'VIEWER'],
  ] as const) {
    const added = await requestData(
      server,
      AddProjectMemberDocument,
      { projectId: project.id, user: actor.userId, role },
      owner.token,
    );
    expect(added.addProjectMember.__typename).toBe('Project');
  }
  const agent = expectTypename(
    (
      await requestData(
        server,
        CreateAgentDocument,
        { projectId: project.id, name: 'Helper', model: 'demo:default' },
        owner.token,
      )
    ).createAgent,
    'Agent',
  );
  const thread = expectTypename(
    (await requestData(server, CreateThreadDocument, { agentId: agent.id, title: 'private' }, owner.token))
      .createThread,
    'Thread',
  );
  expect(thread.kind).toBe('TEST');
  const sent = await requestData(server, SendMessageDocument, { threadId: thread.id, text: 'secret hello' }, owner.token);
  expectTypename(sent.sendMessage, 'MessageQueued');
  // Let the run finish, so the thread is quiet while the others try their luck.
  const conversation = await settledConversation(server, owner.token, thread.id);
  // Its ExecutionFinished was committed with its end.
  expect(await server.parley.db.prisma.threadEvent.count({ where: { threadId: decodeRaw(thread.id), type: 'ExecutionFinished' } })).toBe(1);
  expect(conversation.messages.edges.map((edge) => edge.node.role).join()).toBe('USER,ASSISTANT');
  const executionId = conversation.messages.edges[1]!.node.executionId!;
  expect(executionId).toBeTruthy();
  return {
    server,
    owner,
    member,
    viewer,
    outsider,
    projectId: project.id,
    agentId: agent.id,
    threadId: thread.id,
    messageIds: conversation.messages.edges.map((edge) => edge.node.id),
    executionId,
  };
}

function codes(result: GraphQLResponse<unknown>): (string | undefined)[] {
  return (result.errors ?? []).map((error) => error.extensions?.code);
}

/** A query that failed as a whole with one GraphQL error of `code`, and revealed nothing. */
function expectQueryError(result: GraphQLResponse<unknown>, code: string) {
  expect(codes(result), JSON.stringify(result)).toEqual([code]);
  expect(result.data ?? null).toBeNull();
}


/** What the owner sees of their thread. */
async function ownerView(world: World) {
  const { server, owner, threadId } = world;
  const [conversation, queue, thread] = await Promise.all([
    requestData(server, ConversationDocument, { threadId }, owner.token),
    requestData(server, QueueDocument, { threadId }, owner.token),
    requestData(server, ThreadDocument, { id: threadId }, owner.token),
  ]);
  return { conversation, queue, thread };
}


describe('permissions (pglite)', () => {
  let world: World;

  beforeAll(async () => {
    world = await buildWorld('pglite');
  });

  afterAll(async () => {
    await world?.server.stop();
  });

  it('the owner sees their thread and everything in it', async () => {
    const { server, owner, threadId } = world;
    const view = await ownerView(world);
    expect(view.thread.thread).toMatchObject({ id: threadId, kind: 'TEST', title: 'private' });
    expect(view.conversation.conversation.messages.edges).toHaveLength(2);
    const node = await requestData(server, NodeDocument, { id: threadId }, owner.token);
    expect(node.node).toEqual({ id: threadId, __typename: 'Thread' });
    for (const id of [...world.messageIds, world.executionId]) {
      const seen = await requestData(server, NodeDocument, { id }, owner.token);
      expect(seen.node.id).toBe(id);
    }
  });

  describe.each(['member', 'viewer', 'outsider'] as const)('another user (%s) and the owner’s TEST thread', (who) => {
    it('gets NOT_FOUND from every query, by global id and by raw id', async () => {
      const { server, threadId } = world;
      const { token } = world[who];
      const rawId = decodeRaw(threadId);
      expect(encodeId('Thread', rawId)).toBe(threadId);
      for (const id of [threadId, rawId]) {
        expectQueryError(await request(server, ThreadDocument, { id }, token), 'NOT_FOUND');
        expectQueryError(await request(server, ConversationDocument, { threadId: id }, token), 'NOT_FOUND');
        expectQueryError(await request(server, QueueDocument, { threadId: id }, token), 'NOT_FOUND');
      }
      expectQueryError(await request(server, NodeDocument, { id: threadId }, token), 'NOT_FOUND');
      // Nor does anything inside the thread leak through node(id).
      for (const id of [...world.messageIds, world.executionId]) {
        expectQueryError(await request(server, NodeDocument, { id }, token), 'NOT_FOUND');
      }
    });

    it('gets a NotFoundError from sendMessage, retryExecution and cancelExecution, and nothing changes', async () => {
      const { server, threadId } = world;
      const before = { db: await databaseState(server), view: await ownerView(world) };

      for (const id of [threadId, decodeRaw(threadId)]) {
        const result = await requestData(
          server,
          SendMessageDocument,
          { threadId: id, text: `sneaky message from ${who}`, idempotencyKey: `k-${who}` },
          world[who].token,
        );
        expect(result.sendMessage).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
      }
      // Nor can they act on the thread's executions.
      for (const id of [world.executionId, decodeRaw(world.executionId)]) {
        const retried = await requestData(server, RetryExecutionDocument, { executionId: id }, world[who].token);
        expect(retried.retryExecution).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
        const cancelled = await requestData(server, CancelExecutionDocument, { executionId: id }, world[who].token);
        expect(cancelled.cancelExecution).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
      }

      expect(await databaseState(server)).toEqual(before.db);
      expect(await ownerView(world)).toEqual(before.view);
    });

    it('gets NOT_FOUND from the runEvents subscription, with and without a cursor', async () => {
      const { server, threadId } = world;
      for (const after of [null, '0']) {
        const errors = await refusedSubscription(server, world[who].token, threadId, after);
        expect(errors.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
        expect(JSON.stringify(errors)).not.toContain('secret hello');
      }
    });
  });

  it('an outsider gets NOT_FOUND for the project, its agent, and createThread on that agent; nothing changes', async () => {
    const { server, outsider, agentId, projectId } = world;
    const before = await databaseState(server);

    expectQueryError(await request(server, ProjectDocument, { id: projectId }, outsider.token), 'NOT_FOUND');
    expectQueryError(await request(server, AgentDocument, { id: agentId }, outsider.token), 'NOT_FOUND');
    expectQueryError(await request(server, NodeDocument, { id: agentId }, outsider.token), 'NOT_FOUND');
    expectQueryError(await request(server, NodeDocument, { id: projectId }, outsider.token), 'NOT_FOUND');
    const thread = await requestData(server, CreateThreadDocument, { agentId, title: 'mine' }, outsider.token);
    expect(thread.createThread).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const agent = await requestData(
      server,
      CreateAgentDocument,
      { projectId, name: 'Intruder', model: 'demo:default' },
      outsider.token,
    );
    expect(agent.createAgent).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const updated = await requestData(server, UpdateAgentDocument, { agentId, name: 'Hijacked' }, outsider.token);
    expect(updated.updateAgent).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const added = await requestData(
      server,
      AddProjectMemberDocument,
      { projectId, user: outsider.userId, role: 'ADMIN' },
      outsider.token,
    );
    expect(added.addProjectMember).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });

    expect(await databaseState(server)).toEqual(before);
  });

  it('a VIEWER calling createThread gets FORBIDDEN (agent:execute) and no thread is created', async () => {
    const { server, viewer, agentId } = world;
    const before = await databaseState(server);
    // The viewer may read the agent…
    expect((await requestData(server, AgentDocument, { id: agentId }, viewer.token)).agent.id).toBe(agentId);
    // …but not run it.
    const result = await requestData(server, CreateThreadDocument, { agentId, title: 'try' }, viewer.token);
    expect(result.createThread).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN', scope: 'agent:execute' });
    expect(await databaseState(server)).toEqual(before);
  });

  it('a MEMBER calling createAgent or updateAgent gets FORBIDDEN (agent:manage) and nothing changes', async () => {
    const { server, member, agentId, projectId } = world;
    const before = await databaseState(server);

    const created = await requestData(
      server,
      CreateAgentDocument,
      { projectId, name: 'Second', model: 'demo:default' },
      member.token,
    );
    expect(created.createAgent).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN', scope: 'agent:manage' });
    const updated = await requestData(
      server,
      UpdateAgentDocument,
      { agentId, name: 'Renamed', systemPrompt: 'Obey the member.', limits: { maxConcurrentExecutions: 1 } },
      member.token,
    );
    expect(updated.updateAgent).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN', scope: 'agent:manage' });
    // Nor may a member (or a viewer) hand out roles.
    for (const actor of [member, world.viewer]) {
      const added = await requestData(
        server,
        AddProjectMemberDocument,
        { projectId, user: actor.userId, role: 'ADMIN' },
        actor.token,
      );
      expect(added.addProjectMember).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN', scope: 'agent:manage' });
    }

    expect(await databaseState(server)).toEqual(before);
  });

  it('the owner (ADMIN) can create and update agents', async () => {
    const { server, owner, projectId } = world;
    const created = expectTypename(
      (
        await requestData(
          server,
          CreateAgentDocument,
          { projectId, name: 'Owned', model: 'demo:default', systemPrompt: 'Be brief.' },
          owner.token,
        )
      ).createAgent,
      'Agent',
    );
    const updated = expectTypename(
      (
        await requestData(
          server,
          UpdateAgentDocument,
          { agentId: created.id, name: 'Owned v2', limits: { maxConcurrentExecutions: 2 } },
          owner.token,
        )
      ).updateAgent,
      'Agent',
    );
    expect(updated).toMatchObject({
      id: created.id,
      name: 'Owned v2',
      systemPrompt: 'Be brief.',
      limits: { maxConcurrentExecutions: 2, dailyTokenBudget: null },
    });
    const row = await server.parley.db.prisma.agent.findFirstOrThrow({ where: { name: 'Owned v2' } });
    expect(row.maxConcurrentExecutions).toBe(2);
  });

  it('a MEMBER can run the agent in a TEST thread of their own, which the ADMIN cannot see', async () => {
    const { server, owner, member, agentId } = world;
    const thread = expectTypename(
      (await requestData(server, CreateThreadDocument, { agentId, title: 'member’s' }, member.token)).createThread,
      'Thread',
    );
    expect((await requestData(server, ThreadDocument, { id: thread.id }, member.token)).thread.id).toBe(thread.id);
    expectQueryError(await request(server, ThreadDocument, { id: thread.id }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, QueueDocument, { threadId: thread.id }, owner.token), 'NOT_FOUND');
    const sent = await requestData(server, SendMessageDocument, { threadId: thread.id, text: 'x' }, owner.token);
    expect(sent.sendMessage).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await server.parley.db.prisma.threadEvent.count({ where: { threadId: decodeRaw(thread.id) } })).toBe(0);
  });

  it('an id of another type of object is NOT_FOUND, wherever it is passed', async () => {
    const { server, owner, agentId, projectId, threadId, executionId } = world;
    const agentUuid = decodeRaw(agentId);
    const threadUuid = decodeRaw(threadId);
    // The owner may see all of these objects, just not under the wrong type.
    expectQueryError(await request(server, ThreadDocument, { id: agentId }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, ThreadDocument, { id: projectId }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, AgentDocument, { id: threadId }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, ProjectDocument, { id: agentId }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, ConversationDocument, { threadId: executionId }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, QueueDocument, { threadId: agentId }, owner.token), 'NOT_FOUND');
    // A node id whose type does not match the object it names.
    expectQueryError(await request(server, NodeDocument, { id: encodeId('Thread', agentUuid) }, owner.token), 'NOT_FOUND');
    expectQueryError(await request(server, NodeDocument, { id: encodeId('Agent', threadUuid) }, owner.token), 'NOT_FOUND');
    expectQueryError(
      await request(server, NodeDocument, { id: encodeId('Execution', threadUuid) }, owner.token),
      'NOT_FOUND',
    );
    expectQueryError(
      await request(server, NodeDocument, { id: Buffer.from(`Nonsense:${threadUuid}`).toString('base64') }, owner.token),
      'NOT_FOUND',
    );
    // Another user's (the owner's) User node.
    expectQueryError(await request(server, NodeDocument, { id: encodeId('User', owner.userId) }, world.member.token), 'NOT_FOUND');

    const before = await databaseState(server);
    const sent = await requestData(server, SendMessageDocument, { threadId: agentId, text: 'hi' }, owner.token);
    expect(sent.sendMessage).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const thread = await requestData(server, CreateThreadDocument, { agentId: threadId }, owner.token);
    expect(thread.createThread).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const agent = await requestData(server, CreateAgentDocument, { projectId: agentId, name: 'n', model: 'demo:default' }, owner.token);
    expect(agent.createAgent).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    const updated = await requestData(server, UpdateAgentDocument, { agentId: projectId, name: 'n' }, owner.token);
    expect(updated.updateAgent).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await databaseState(server)).toEqual(before);
    expect((await refusedSubscription(server, owner.token, agentId)).map((e) => e.extensions?.code)).toEqual([
      'NOT_FOUND',
    ]);
  });

  describe.each([
    { label: 'no token', token: null },
    { label: 'an unknown token', token: 'pky_thisTokenWasNeverIssuedToAnyoneAtAll' },
    { label: 'a malformed token', token: 'not a token' },
  ])('with $label', ({ token }) => {
    it('every query gets UNAUTHENTICATED', async () => {
      const { server, threadId, agentId, projectId } = world;
      expectQueryError(await request(server, ViewerDocument, {}, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, NodeDocument, { id: threadId }, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, ProjectDocument, { id: projectId }, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, AgentDocument, { id: agentId }, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, ThreadDocument, { id: threadId }, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, ConversationDocument, { threadId }, token), 'UNAUTHENTICATED');
      expectQueryError(await request(server, QueueDocument, { threadId }, token), 'UNAUTHENTICATED');
    });

    it('every mutation gets UNAUTHENTICATED and changes nothing', async () => {
      const { server, threadId, agentId, projectId, owner } = world;
      const before = await databaseState(server);
      const anyQueueId = encodeId('QueueItem', randomUUID());
      const attempts: Record<string, () => Promise<GraphQLResponse<unknown>>> = {
        createProject: () => request(server, CreateProjectDocument, { name: 'anon' }, token),
        addProjectMember: () =>
          request(server, AddProjectMemberDocument, { projectId, user: owner.userId, role: 'VIEWER' }, token),
        removeProjectMember: () => request(server, RemoveProjectMemberDocument, { projectId, user: owner.userId }, token),
        revokeApiToken: () => request(server, RevokeApiTokenDocument, { id: randomUUID() }, token),
        createUser: () => request(server, CreateUserDocument, { email: 'anon@example.test' }, token),
        disableUser: () => request(server, DisableUserDocument, { userId: encodeId('User', owner.userId) }, token),
        enableUser: () => request(server, EnableUserDocument, { userId: encodeId('User', owner.userId) }, token),
        setModelPrice: () => request(server, SetModelPriceDocument, { model: 'demo:default', inputPerMillion: '1', outputPerMillion: '1' }, token),
        setBudget: () => request(server, SetBudgetDocument, { projectId, perUser: true, period: 'DAY', amount: '1' }, token),
        removeBudget: () => request(server, RemoveBudgetDocument, { budgetId: randomUUID() }, token),
        createAgent: () =>
          request(server, CreateAgentDocument, { projectId, name: 'anon', model: 'demo:default' }, token),
        updateAgent: () => request(server, UpdateAgentDocument, { agentId, name: 'anon' }, token),
        createThread: () => request(server, CreateThreadDocument, { agentId }, token),
        sendMessage: () => request(server, SendMessageDocument, { threadId, text: 'anon' }, token),
        retryExecution: () =>
          request(server, RetryExecutionDocument, { executionId: world.executionId }, token),
        cancelExecution: () =>
          request(server, CancelExecutionDocument, { executionId: world.executionId }, token),
        editQueuedMessage: () =>
          request(server, EditQueuedMessageDocument, { queueId: anyQueueId, text: 'anon' }, token),
        removeQueuedMessage: () => request(server, RemoveQueuedMessageDocument, { queueId: anyQueueId }, token),
        reorderQueuedMessage: () =>
          request(
            server,
            ReorderQueuedMessageDocument,
            { queueId: anyQueueId, targetQueueId: anyQueueId, expectedQueueIds: [anyQueueId] },
            token,
          ),
        steerQueuedMessage: () =>
          request(
            server,
            SteerQueuedMessageDocument,
            { queueId: anyQueueId, executionId: world.executionId },
            token,
          ),
        resolveSuspension: () =>
          request(
            server,
            ResolveSuspensionDocument,
            { id: encodeId('Suspension', randomUUID()), decision: 'APPROVE' },
            token,
          ),
        editMessage: () => request(server, EditMessageDocument, { messageId: encodeId('Message', randomUUID()), text: 'anon' }, token),
        regenerateMessage: () => request(server, RegenerateMessageDocument, { messageId: encodeId('Message', randomUUID()) }, token),
        switchBranch: () => request(server, SwitchBranchDocument, { messageId: encodeId('Message', randomUUID()) }, token),
        renameThread: () => request(server, RenameThreadDocument, { threadId, title: 'anon' }, token),
        importThread: () => request(server, ImportThreadDocument, { agentId, content: '{}' }, token),
        compactThread: () => request(server, CompactThreadDocument, { threadId }, token),
        uncompactThread: () => request(server, UncompactThreadDocument, { threadId }, token),
        deleteThread: () => request(server, DeleteThreadDocument, { threadId }, token),
        shareThread: () => request(server, ShareThreadDocument, { threadId, throughMessageId: encodeId('Message', randomUUID()) }, token),
        revokeShareLink: () => request(server, RevokeShareLinkDocument, { id: encodeId('ShareLink', randomUUID()) }, token),
        addToolServer: () => request(server, AddToolServerDocument, { projectId, name: 'anon', url: 'https://8.8.8.8/' }, token),
        updateToolServer: () => request(server, UpdateToolServerDocument, { toolServerId: encodeId('ToolServer', randomUUID()), name: 'anon' }, token),
        removeToolServer: () => request(server, RemoveToolServerDocument, { toolServerId: encodeId('ToolServer', randomUUID()) }, token),
        refreshToolServer: () => request(server, RefreshToolServerDocument, { toolServerId: encodeId('ToolServer', randomUUID()) }, token),
      };
      // Every mutation the schema has is tried.
      expect(Object.keys(attempts).sort(), 'a mutation is missing here: add it to `attempts`').toEqual(schemaMutations());
      for (const [name, attempt] of Object.entries(attempts)) {
        const result = await attempt();
        expect(codes(result), name).toEqual(['UNAUTHENTICATED']);
        expect(result.data ?? null, name).toBeNull();
      }
      expect(await databaseState(server)).toEqual(before);
    });

    it('the runEvents subscription gets UNAUTHENTICATED, or its socket is refused (4403) for a wrong token', async () => {
      const errors = await refusedSubscription(world.server, token, world.threadId);
      if (token === null) expect(errors.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
      else expect(errors).toEqual([{ socketClosed: expect.objectContaining({ code: 4403 }) }]);
    });
  });
});

/** The uuid inside a global id. */
function decodeRaw(globalId: string): string {
  return Buffer.from(globalId, 'base64').toString('utf8').split(':')[1]!;
}

describeEachBackend('runEvents permissions', (backend) => {
  let world: World;

  beforeAll(async () => {
    world = await buildWorld(backend);
  });

  afterAll(async () => {
    await world?.server.stop();
  });

  it('only the owner can follow the TEST thread; the others get NOT_FOUND and see none of its events', async () => {
    const { server, owner, threadId } = world;
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, owner.token);

    for (const who of ['member', 'viewer', 'outsider'] as const) {
      const errors = await refusedSubscription(server, world[who].token, threadId, '0');
      expect(errors.map((error) => error.extensions?.code), who).toEqual(['NOT_FOUND']);
    }
    const anonymous = await refusedSubscription(server, null, threadId);
    expect(anonymous.map((error) => error.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    // A wrong token does not get as far as a subscription: its socket is refused at connection_init.
    const wrongToken = await refusedSubscription(server, 'pky_unknownTokenForTheSubscriptionCheck', threadId);
    expect(wrongToken).toEqual([{ socketClosed: expect.objectContaining({ code: 4403 }) }]);

    // The owner's own subscription replays the thread from the start.
    const follower = follow(server, owner.token, threadId);
    try {
      const events = await follower.waitUntil((all) => all.some((event) => event.cursor === conversation.eventCursor));
      expect(events[0]).toMatchObject({ __typename: 'MessageQueued', text: 'secret hello' });
      expect(typenames(events)).toContain('ExecutionFinished');
    } finally {
      await follower.close();
    }
  });
});
