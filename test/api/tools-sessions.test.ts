import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { messagesOf, send, textOf } from '../support/client.ts';
import { startMcpServer, type McpServerOptions, type TestMcpServer } from '../support/mcp-server.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

/** A GraphQL request with a document of its own (the operations here are this suite's). */
async function gql<T = Record<string, any>>(server: TestServer, query: string, variables: Record<string, unknown>, token: string): Promise<T> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors?.length || !body.data) throw new Error(`GraphQL request failed: ${JSON.stringify(body)}`);
  return body.data;
}

const ADD = `mutation($projectId: ID!, $name: String!, $url: String!) {
  addToolServer(projectId: $projectId, name: $name, url: $url) { __typename ... on ToolServer { status } ... on Error { message } }
}`;
const PROJECT = `query($id: ID!) { node(id: $id) { ... on Project { toolServers { name status lastError reconnects lastReconnectAt } } } }`;
const UPDATE_AGENT = `mutation($agentId: ID!, $tools: [String!], $toolApprovals: [ToolApprovalInput!]) {
  updateAgent(agentId: $agentId, tools: $tools, toolApprovals: $toolApprovals) { __typename ... on Error { message } }
}`;

/** Tool servers as users run them, each restarted (on the same port) between two calls. */
const KINDS: { name: string; options: McpServerOptions; stateful: boolean }[] = [
  { name: 'spec', options: { lostSession: 404 }, stateful: true },
  { name: 'everything', options: { lostSession: 400 }, stateful: true },
  { name: 'sdk', options: {}, stateful: true },
  { name: 'stateless', options: { stateless: true }, stateful: false },
];

describeEachBackend('tool servers that restart', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let projectNodeId: string;
  const mcps = new Map<string, TestMcpServer>();

  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1', PARLEY_METRICS: 'true' } });
    const set = await setUpAgent(server, { project: 'Restarts' });
    token = set.token;
    const { encodeId } = await import('../../src/schema/ids.ts');
    projectNodeId = encodeId('Project', set.projectId);
    const others: { name: string; options: McpServerOptions }[] = [
      { name: 'shared', options: { lostSession: 404 } },
      { name: 'forgetful', options: { lostSession: 404 } },
    ];
    for (const kind of [...KINDS, ...others]) {
      const mcp = await startMcpServer(kind.options);
      mcps.set(kind.name, mcp);
      const added = (await gql(server, ADD, { projectId: projectNodeId, name: kind.name, url: mcp.url }, token)).addToolServer;
      expect(added).toMatchObject({ __typename: 'ToolServer', status: 'CONNECTED' });
    }
    const tools = [...mcps.keys()].map((name) => `${name}/*`);
    const given = await gql(server, UPDATE_AGENT, { agentId: encodeId('Agent', set.agentId), tools, toolApprovals: tools.map((tool) => ({ tool, approval: 'NEVER' })) }, token);
    expect(given.updateAgent.__typename).toBe('Agent');
    agentId = set.agentId;
  });

  afterAll(async () => {
    await server?.stop();
    await Promise.all([...mcps.values()].map((mcp) => mcp.stop()));
  });

  async function restart(name: string, options: McpServerOptions): Promise<TestMcpServer> {
    const old = mcps.get(name)!;
    await old.stop();
    const restarted = await startMcpServer({ ...options, port: old.port });
    mcps.set(name, restarted);
    return restarted;
  }

  /** The thread's replies once it settles after `text`. */
  async function ask(threadId: string, text: string): Promise<string[]> {
    await send(server, token, threadId, text);
    const settled = await settledConversation(server, token, threadId);
    return messagesOf(settled).filter((message) => message.role === 'ASSISTANT').map(textOf);
  }

  async function statusOf(name: string) {
    const listed = (await gql(server, PROJECT, { id: projectNodeId }, token)).node.toolServers as { name: string }[];
    return listed.find((entry) => entry.name === name) as Record<string, unknown>;
  }

  it.each(KINDS)('$name: the call after a restart runs once on a new session', async ({ name, options, stateful }) => {
    const threadId = await newThread(server, token, agentId);
    expect(await ask(threadId, `/tool ${name}/echo {"text":"before"}`)).toEqual([`Tool ${name}/echo returned: echo: before`]);
    const restarted = await restart(name, options);

    const replies = await ask(threadId, `/tool ${name}/echo {"text":"after"}`);
    expect(replies.at(-1)).toBe(`Tool ${name}/echo returned: echo: after`);
    expect(restarted.calls.get('echo')).toBe(1);
    if (options.lostSession) expect(restarted.refused.length).toBeGreaterThanOrEqual(1);
    const status = await statusOf(name);
    expect(status).toMatchObject({ status: 'CONNECTED', lastError: null, reconnects: stateful ? 1 : 0 });
    expect(status.lastReconnectAt === null).toBe(!stateful);

    // The new session is the one used from now on: no more reconnects.
    expect((await ask(threadId, `/tool ${name}/echo {"text":"later"}`)).at(-1)).toBe(`Tool ${name}/echo returned: echo: later`);
    expect(restarted.calls.get('echo')).toBe(2);
    expect(await statusOf(name)).toMatchObject({ reconnects: stateful ? 1 : 0 });
    const metrics = await (await fetch(new URL('/metrics', server.url))).text();
    if (stateful) expect(metrics).toMatch(new RegExp(`parley_tool_server_reconnects_total\\{server="${name}"\\} 1\\n`));
    else expect(metrics).not.toContain(`parley_tool_server_reconnects_total{server="${name}"}`);
  });

  it('calls that meet the same lost session together share one new session', async () => {
    const threads = await Promise.all([1, 2, 3].map(() => newThread(server, token, agentId)));
    await Promise.all(threads.map((threadId, index) => ask(threadId, `/tool shared/echo {"text":"before ${index}"}`)));
    const restarted = await restart('shared', { lostSession: 404 });

    const replies = await Promise.all(threads.map((threadId, index) => ask(threadId, `/tool shared/echo {"text":"after ${index}"}`)));
    expect(replies.map((texts) => texts.at(-1))).toEqual([0, 1, 2].map((index) => `Tool shared/echo returned: echo: after ${index}`));
    expect(restarted.calls.get('echo')).toBe(3);
    expect(await statusOf('shared')).toMatchObject({ status: 'CONNECTED', reconnects: 1 });
  });

  it('a new session that is refused too is the call’s error, tried once, and the call never runs', async () => {
    const threadId = await newThread(server, token, agentId);
    expect(await ask(threadId, '/tool forgetful/echo {"text":"before"}')).toEqual(['Tool forgetful/echo returned: echo: before']);
    const restarted = await restart('forgetful', { lostSession: 404, forgetSessions: true });

    const replies = await ask(threadId, '/tool forgetful/echo {"text":"after"}');
    // (The new session's refusal makes Parley try the older HTTP+SSE transport as well, which this server refuses too.)
    expect(replies.at(-1)).toMatch(/^Tool forgetful\/echo failed: forgetful: the tool server (answered HTTP 404|is unreachable)/);
    expect(restarted.calls.get('echo')).toBeUndefined();
    // The lost session's call, then the new session's first request after `initialize`: no loop.
    expect(restarted.refused.length).toBe(2);
    expect(await statusOf('forgetful')).toMatchObject({ status: 'UNAVAILABLE', lastError: expect.any(String), reconnects: 0 });
  });
});
