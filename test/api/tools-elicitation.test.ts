import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { cancel, conversation, execution, messagesOf, send } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { PERSON_FORM, startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { is } from '../support/run-events.ts';
import { addMember, newThread, setUpAgent } from '../support/scenario.ts';
import { startInstancePair, startTestServer, type InstancePair, type TestServer } from '../support/server.ts';
import { ENDED, executionReaching } from '../support/waits.ts';

type Data = Record<string, any>;

/** A GraphQL request with a document of its own; the whole body, errors included. */
async function gqlBody(server: { url: string }, query: string, variables: Record<string, unknown>, token: string): Promise<{ data?: Data; errors?: unknown[] }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Data; errors?: unknown[] };
}

async function gql(server: { url: string }, query: string, variables: Record<string, unknown>, token: string): Promise<Data> {
  const body = await gqlBody(server, query, variables, token);
  if (body.errors?.length || !body.data) throw new Error(`GraphQL request failed: ${JSON.stringify(body)}`);
  return body.data;
}

const ADD = `mutation($projectId: ID!, $name: String!, $url: String!, $timeoutMs: Int) {
  addToolServer(projectId: $projectId, name: $name, url: $url, timeoutMs: $timeoutMs) { __typename ... on ToolServer { status } ... on Error { message } }
}`;
const UPDATE_AGENT = `mutation($agentId: ID!, $tools: [String!], $toolApprovals: [ToolApprovalInput!]) {
  updateAgent(agentId: $agentId, tools: $tools, toolApprovals: $toolApprovals) { __typename ... on Error { message } }
}`;
const RESPOND = `mutation($id: ID!, $elicitation: ElicitationResponseInput) {
  resolveSuspension(id: $id, elicitation: $elicitation) {
    __typename
    ... on SuspensionResolved { suspensionId resolution }
    ... on Error { message }
  }
}`;
const OPEN_CARDS = `query($threadId: ID!) { conversation(threadId: $threadId) { eventCursor openSuspensions { id kind status toolCallId toolName payload requestedSchema } } }`;

interface World {
  server: TestServer;
  token: string;
  agentId: string;
  projectId: string;
}

/** How long the `quick` server's calls may take: long enough to see the card open, short enough to wait out. */
const QUICK_TIMEOUT_MS = 3_000;

/**
 * A project whose agent may use the test MCP server's tools without approval, as `work/…` and as
 * `quick/…` (the same server with a short call timeout).
 */
async function world(server: TestServer, mcp: TestMcpServer): Promise<World> {
  const set = await setUpAgent(server, { project: 'Elicitation' });
  const { encodeId } = await import('../../src/schema/ids.ts');
  const projectId = encodeId('Project', set.projectId);
  for (const [name, timeoutMs] of [['work', null], ['quick', QUICK_TIMEOUT_MS]] as const) {
    const added = (await gql(server, ADD, { projectId, name, url: mcp.url, timeoutMs }, set.token)).addToolServer;
    expect(added).toMatchObject({ __typename: 'ToolServer', status: 'CONNECTED' });
  }
  const toolApprovals = [{ tool: 'work/*', approval: 'NEVER' }, { tool: 'quick/*', approval: 'NEVER' }];
  const given = await gql(server, UPDATE_AGENT, { agentId: encodeId('Agent', set.agentId), tools: ['work/*', 'quick/*'], toolApprovals }, set.token);
  expect(given.updateAgent.__typename).toBe('Agent');
  return { server, token: set.token, agentId: set.agentId, projectId: set.projectId };
}

function respond(at: World, suspensionId: string, elicitation: Record<string, unknown>, token = at.token) {
  return gql(at.server, RESPOND, { id: suspensionId, elicitation }, token).then((data) => data.resolveSuspension);
}

async function toolCall(at: World, threadId: string) {
  const reply = messagesOf(await conversation(at.server, at.token, threadId)).find((message) => message.role === 'ASSISTANT');
  return reply?.parts.find((part) => part.__typename === 'ToolCallPart') as Data | undefined;
}

describeEachBackend('elicitation: a tool server asks the user during a call', (backend) => {
  let mcp: TestMcpServer;
  let at: World;
  const followers: Follower[] = [];

  beforeAll(async () => {
    mcp = await startMcpServer();
    const server = await startTestServer({ backend, env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' } });
    at = await world(server, mcp);
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await at?.server.stop();
    await mcp?.stop();
  });

  async function ask(form = '', server = 'work') {
    const threadId = await newThread(at.server, at.token, at.agentId);
    const follower = follow(at.server, at.token, threadId);
    followers.push(follower);
    await send(at.server, at.token, threadId, `/tool ${server}/ask {${form ? `"form":"${form}"` : ''}}`);
    return { threadId, follower };
  }

  async function opened(form = '') {
    const started = await ask(form);
    const card = await started.follower.waitFor(is('SuspensionOpened', (event) => event.kind === 'ELICITATION'));
    return { ...started, card };
  }

  it('opens a card with the server’s message and form; a wrong answer changes nothing; the answer goes back and the call goes on', async () => {
    const { threadId, follower, card } = await opened();
    const called = await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'CALLED'));
    expect(card).toMatchObject({ toolCallId: called.toolCallId, payload: { server: 'work', tool: 'ask', message: 'Who are you?', requestedSchema: PERSON_FORM, fields: Object.keys(PERSON_FORM.properties) } });
    const open = (await gql(at.server, OPEN_CARDS, { threadId }, at.token)).conversation.openSuspensions;
    expect(open).toEqual([expect.objectContaining({ id: card.suspensionId, kind: 'ELICITATION', status: 'OPEN', toolName: 'work/ask', requestedSchema: PERSON_FORM })]);
    // The run waits in the call, not suspended.
    expect((await execution(at.server, at.token, card.executionId!)).status).toBe('RUNNING');

    for (const [content, why] of [
      [{ name: 'A' }, /name must be at least 2 characters/],
      [{ email: 'a@b.c' }, /name is required/],
      [{ name: 'Ada', age: 3.5 }, /age must be a whole number/],
      [{ name: 'Ada', color: 'blue' }, /color must be one of: red, green/],
      [{ name: 'Ada', email: 'nope' }, /email must be a valid email/],
      [{ name: 'Ada', shoe: 42 }, /shoe is not a field of this form/],
    ] as const) {
      const refused = await respond(at, card.suspensionId, { action: 'ACCEPT', content });
      expect(refused.__typename).toBe('InvalidInputError');
      expect(refused.message).toMatch(why);
    }
    expect((await gql(at.server, OPEN_CARDS, { threadId }, at.token)).conversation.openSuspensions).toHaveLength(1);

    const content = { name: 'Ada', email: 'ada@example.com', age: 36, subscribe: true, color: 'green' };
    const answered = await respond(at, card.suspensionId, { action: 'ACCEPT', content });
    expect(answered).toMatchObject({ __typename: 'SuspensionResolved', resolution: { action: 'accept', content } });
    const done = await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'SUCCEEDED'));
    expect(done.toolCallId).toBe(called.toolCallId);
    await follower.waitFor(is('ExecutionFinished'));
    expect(mcp.elicited.at(-1)).toEqual({ action: 'accept', content });
    expect((await gql(at.server, OPEN_CARDS, { threadId }, at.token)).conversation.openSuspensions).toEqual([]);

    const again = await respond(at, card.suspensionId, { action: 'DECLINE' });
    expect(again).toMatchObject({ __typename: 'ConflictError', message: expect.stringMatching(/already resolved/) });
  });

  it.each([
    ['DECLINE', { action: 'decline' }],
    ['CANCEL', { action: 'cancel' }],
  ])('%s goes back to the server, and the call goes on', async (action, sent) => {
    const { follower, card } = await opened();
    const resolved = await respond(at, card.suspensionId, { action });
    expect(resolved).toMatchObject({ __typename: 'SuspensionResolved', resolution: sent });
    await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'SUCCEEDED'));
    expect(mcp.elicited.at(-1)).toEqual(sent);
  });

  it('survives a reload: a new subscription and the conversation show the card, and answering it works', async () => {
    const { threadId, follower, card } = await opened();
    await follower.close();
    const reloaded = (await gql(at.server, OPEN_CARDS, { threadId }, at.token)).conversation;
    expect(reloaded.openSuspensions).toEqual([expect.objectContaining({ id: card.suspensionId, kind: 'ELICITATION' })]);
    const again = follow(at.server, at.token, threadId, reloaded.eventCursor);
    followers.push(again);
    await respond(at, card.suspensionId, { action: 'ACCEPT', content: { name: 'Grace' } });
    await again.waitFor(is('SuspensionResolved', (event) => event.suspensionId === card.suspensionId));
    await again.waitFor(is('ToolCallEvent', (event) => event.state === 'SUCCEEDED'));
    expect(mcp.elicited.at(-1)).toEqual({ action: 'accept', content: { name: 'Grace' } });
  });

  it('Stop closes the card, the server’s question is cancelled, and an answer after it is refused', async () => {
    const { threadId, follower, card } = await opened();
    await cancel(at.server, at.token, card.executionId!);
    const closed = await follower.waitFor(is('SuspensionResolved', (event) => event.suspensionId === card.suspensionId));
    expect(closed.resolution).toMatchObject({ action: 'cancel', closed: 'STOPPED' });
    expect((await follower.waitFor(is('ExecutionFinished'))).status).toBe('CANCELLED');
    expect((await toolCall(at, threadId))?.state).toBe('CANCELLED');
    const late = await respond(at, card.suspensionId, { action: 'ACCEPT', content: { name: 'Late' } });
    expect(late).toMatchObject({ __typename: 'ConflictError', message: expect.stringMatching(/already cancelled/) });
  });

  it('the call’s timeout closes the card, the call fails saying so, and the server’s question is cancelled', async () => {
    const { threadId, follower } = await ask('', 'quick');
    const card = await follower.waitFor(is('SuspensionOpened', (event) => event.kind === 'ELICITATION'));
    const closed = await follower.waitFor(is('SuspensionResolved', (event) => event.suspensionId === card.suspensionId), QUICK_TIMEOUT_MS + 15_000);
    expect(closed.resolution).toMatchObject({ action: 'cancel', closed: 'CALL_ENDED' });
    const failed = await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'FAILED'));
    expect(failed.error).toMatch(/did not answer within 3000 ms/);
    await follower.waitFor(is('ExecutionFinished'));
    expect((await toolCall(at, threadId))?.state).toBe('FAILED');
  });

  it.each([
    ['url', /URL-mode/],
    ['nested', /Invalid elicitation request/],
  ])('refuses a %s elicitation with invalid params, opening no card', async (form, why) => {
    const { threadId, follower } = await ask(form);
    await follower.waitFor(is('ExecutionFinished'));
    expect(follower.events.some(is('SuspensionOpened'))).toBe(false);
    expect(mcp.elicited.at(-1)).toEqual({ error: expect.stringMatching(/-32602/) });
    expect((mcp.elicited.at(-1) as { error: string }).error).toMatch(why);
    expect((await toolCall(at, threadId))?.state).toBe('FAILED');
  });

  it('is answerable only by the run’s user: another member is refused, a stranger does not find it', async () => {
    const { card, threadId } = await opened();
    const member = await addMember(at.server, at.projectId);
    const stranger = await at.server.createUser();
    expect(await respond(at, card.suspensionId, { action: 'DECLINE' }, stranger.token)).toMatchObject({ __typename: 'NotFoundError' });
    const byMember = await respond(at, card.suspensionId, { action: 'DECLINE' }, member.token);
    expect(['NotFoundError', 'ForbiddenError']).toContain(byMember.__typename);
    expect((await gql(at.server, OPEN_CARDS, { threadId }, at.token)).conversation.openSuspensions).toHaveLength(1);
    await respond(at, card.suspensionId, { action: 'CANCEL' });
  });
});

describeEachBackend('elicitation across a restart of Parley', (backend) => {
  let dataDir: string | null = null;
  let mcp: TestMcpServer;
  const servers: TestServer[] = [];

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    await mcp?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails the waiting call clearly and closes its card saying why; nothing hangs', async () => {
    mcp = await startMcpServer();
    const env: Record<string, string> = { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' };
    if (backend === 'pglite') {
      dataDir = mkdtempSync(join(tmpdir(), 'parley-elicit-'));
      env.PARLEY_DATA_DIR = dataDir;
    }
    const first = await startTestServer({ backend, env, dropSchemaOnStop: false });
    servers.push(first);
    const at = await world(first, mcp);
    const threadId = await newThread(first, at.token, at.agentId);
    const follower = follow(first, at.token, threadId);
    await send(first, at.token, threadId, '/tool work/ask {}');
    const card = await follower.waitFor(is('SuspensionOpened', (event) => event.kind === 'ELICITATION'));
    const closed = follower.waitFor(is('SuspensionResolved'));
    await first.stop();
    expect((await closed).resolution).toMatchObject({ action: 'cancel', closed: 'RESTARTED', message: expect.stringMatching(/Parley restarted/) });
    await follower.close();

    const second = await startTestServer({ backend, env: first.env });
    servers.push(second);
    const after = { ...at, server: second };
    expect((await gql(second, OPEN_CARDS, { threadId }, at.token)).conversation.openSuspensions).toEqual([]);
    expect((await executionReaching(second, at.token, card.executionId!, ENDED)).status).toBe('INTERRUPTED');
    expect(['INTERRUPTED', 'FAILED', 'CANCELLED']).toContain((await toolCall(after, threadId))?.state);
    const late = await respond(after, card.suspensionId, { action: 'CANCEL' });
    expect(late.__typename).toBe('ConflictError');
  });
});

describe('elicitation form checks', () => {
  it('keeps a multiple choice’s picks once each, within its bounds', async () => {
    const { checkedContent } = await import('../../src/domain/elicitation-form.ts');
    const schema = { type: 'object' as const, properties: { tags: { type: 'array' as const, minItems: 1, maxItems: 2, items: { enum: ['a', 'b', 'c'] } } } };
    expect(checkedContent(schema, { tags: ['a', 'a', 'b'] })).toEqual({ tags: ['a', 'b'] });
    expect(() => checkedContent(schema, { tags: ['a', 'b', 'c'] })).toThrow(/at most 2/);
    expect(() => checkedContent(schema, { tags: ['z'] })).toThrow(/list of: a, b, c/);
  });
});

describeWithServices('elicitation with two instances', () => {
  let pair: InstancePair;
  let mcp: TestMcpServer;

  afterAll(async () => {
    await pair?.stop();
    await mcp?.stop();
  });

  it('an answer given to the other instance reaches the one whose call waits', async () => {
    mcp = await startMcpServer();
    pair = await startInstancePair({ PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' });
    const at = await world(pair.first, mcp);
    const threadId = await newThread(pair.first, at.token, at.agentId);
    const follower = follow(pair.first, at.token, threadId);
    await send(pair.first, at.token, threadId, '/tool work/ask {}');
    const card = await follower.waitFor(is('SuspensionOpened', (event) => event.kind === 'ELICITATION'));
    const holder = (await pair.first.parley.db.prisma.execution.findUniqueOrThrow({ where: { id: decodeId('executionId', card.executionId!, 'Execution') } })).ownerInstanceId;
    const other = holder === pair.first.parley.instanceId ? pair.second : pair.first;
    const answered = await respond({ ...at, server: other }, card.suspensionId, { action: 'ACCEPT', content: { name: 'Relay' } });
    expect(answered.__typename).toBe('SuspensionResolved');
    await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'SUCCEEDED'));
    expect(mcp.elicited.at(-1)).toEqual({ action: 'accept', content: { name: 'Relay' } });
    await follower.close();
  });
});
