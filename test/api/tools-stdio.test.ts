import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send, textOf } from '../support/client.ts';
import { ResolveSuspensionDocument } from '../support/documents.ts';
import { STDIO_SERVER_ARGS, STDIO_SERVER_COMMAND } from '../support/stdio-command.ts';
import { follow, type Follower } from '../support/follower.ts';
import { finishedOf, is } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, requestData, startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 's3cret-stdio-env-value-never-shown';
/** In Parley's own environment only: a declared server must not see it unless the file says inheritEnv. */
const PARENT_ONLY = 'PARLEY_STDIO_TEST_PARENT_ONLY';
/** Where the suite's children write their pids (set by the suite that checks they all end). */
let pidsFile: string | undefined;

/** Every child started so far that is still running. */
function liveChildren(): number[] {
  if (!pidsFile) return [];
  let text = '';
  try {
    text = readFileSync(pidsFile, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map(Number).filter(processAlive);
}

/** The declaration of the test server, run by this Node with tsx as the project's tests run. */
function declaration(projects: string[], extra: Record<string, unknown> = {}) {
  return {
    command: STDIO_SERVER_COMMAND,
    args: STDIO_SERVER_ARGS,
    env: { STDIO_TEST_SECRET: SECRET, ...(pidsFile ? { STDIO_TEST_PIDS: pidsFile } : {}) },
    projects,
    ...extra,
  };
}

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

const SERVER_FIELDS = 'id name url transport operatorDeclared status lastError headerNames timeoutMs tools { name description annotations { readOnlyHint } }';
const PROJECT = `query($id: ID!) { node(id: $id) { ... on Project { toolServers { ${SERVER_FIELDS} } } } }`;
const ADD = `mutation($projectId: ID!, $name: String!, $url: String!) {
  addToolServer(projectId: $projectId, name: $name, url: $url) { __typename ... on Error { message } }
}`;
const UPDATE = `mutation($id: ID!, $url: String, $name: String) {
  updateToolServer(toolServerId: $id, url: $url, name: $name) { __typename ... on Error { message } }
}`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;
const REMOVE = `mutation($id: ID!) { removeToolServer(toolServerId: $id) { __typename ... on Error { message } } }`;
const REFRESH = `mutation($id: ID!) { refreshToolServer(toolServerId: $id) { __typename ... on ToolServer { ${SERVER_FIELDS} } ... on Error { message } } }`;
const UPDATE_AGENT = `mutation($agentId: ID!, $tools: [String!], $toolApprovals: [ToolApprovalInput!]) {
  updateAgent(agentId: $agentId, tools: $tools, toolApprovals: $toolApprovals) { __typename ... on Error { message } }
}`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describeEachBackend('stdio tool servers the operator declares', (backend) => {
  let server: TestServer;
  let folder: string;
  let file: string;
  let token: string;
  let agentId: string;
  let projectId: string;
  let ids: typeof import('../../src/schema/ids.ts');
  const followers: Follower[] = [];

  beforeAll(async () => {
    ids = await import('../../src/schema/ids.ts');
    folder = mkdtempSync(join(tmpdir(), 'parley-stdio-'));
    file = join(folder, 'tool-servers.json');
    pidsFile = join(folder, 'pids');
    writeFileSync(file, JSON.stringify({ servers: { stdio: declaration(['Stdio allowed']), gone: declaration(['*']) } }));
    process.env[PARENT_ONLY] = 'visible-to-parley-only';
    server = await startTestServer({ backend, env: { PARLEY_TOOL_SERVERS_FILE: file, PARLEY_TOOL_TIMEOUT_MS: '20000' } });
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Stdio allowed' }));
  });

  afterAll(async () => {
    delete process.env[PARENT_ONLY];
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
    for (const pid of liveChildren()) process.kill(pid, 'SIGKILL');
    pidsFile = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  const projectNode = () => ids.encodeId('Project', projectId);
  const listed = async (id = projectNode(), as = token) => (await gql(server, PROJECT, { id }, as)).node.toolServers as any[];
  const stdioRow = () => server.parley.db.prisma.toolServer.findFirstOrThrow({ where: { name: 'stdio', transport: 'STDIO' } });

  async function run(text: string, threadId?: string) {
    const thread = threadId ?? (await newThread(server, token, agentId));
    const follower = follow(server, token, thread);
    followers.push(follower);
    await send(server, token, thread, text);
    return { threadId: thread, follower };
  }

  async function reply(threadId: string, index = 1) {
    return messagesOf(await conversation(server, token, threadId)).filter((message) => message.role === 'ASSISTANT')[index - 1];
  }

  it('appears in the projects it names, connected with its tools listed; the env values never show', async () => {
    await eventually(async () => (await listed()).some((entry) => entry.name === 'stdio' && entry.status === 'CONNECTED'), 30_000);
    const servers = await listed();
    expect(servers.map((entry) => entry.name)).toEqual(['gone', 'stdio']);
    const stdio = servers.find((entry) => entry.name === 'stdio');
    expect(stdio).toMatchObject({
      transport: 'STDIO',
      operatorDeclared: true,
      url: `stdio:${STDIO_SERVER_COMMAND}`,
      status: 'CONNECTED',
      lastError: null,
      headerNames: [],
    });
    expect(stdio.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['stdio/crash', 'stdio/echo', 'stdio/env', 'stdio/fail', 'stdio/pid']);
    expect(JSON.stringify(servers)).not.toContain(SECRET);
    expect(JSON.stringify(servers)).not.toContain('stdio-mcp-server.mjs');

    // A project the file does not name sees only the "*" one, and may not give its agents the other's tools.
    const other = await setUpAgent(server, { project: 'Elsewhere' });
    const seen = await listed(ids.encodeId('Project', other.projectId), other.token);
    expect(seen.map((entry) => entry.name)).toEqual(['gone']);
    const refused = await gql(server, UPDATE_AGENT, { agentId: ids.encodeId('Agent', other.agentId), tools: ['stdio/echo'] }, other.token);
    expect(refused.updateAgent).toMatchObject({ __typename: 'InvalidInputError', message: expect.stringContaining('stdio/echo') });
  });

  it('agents call its tools through /tool with the usual approval: NEVER runs at once, ALWAYS asks', async () => {
    const given = await gql(
      server,
      UPDATE_AGENT,
      { agentId: ids.encodeId('Agent', agentId), tools: ['stdio/*'], toolApprovals: [{ tool: 'stdio/*', approval: 'NEVER' }, { tool: 'stdio/pid', approval: 'ALWAYS' }] },
      token,
    );
    expect(given.updateAgent.__typename).toBe('Agent');

    const echo = await run('/tool stdio/echo {"text":"over stdio"}');
    expect((await echo.follower.waitFor(is('ExecutionFinished'))).status).toBe('COMPLETED');
    const echoed = await reply(echo.threadId);
    expect(textOf(echoed)).toBe('Tool stdio/echo returned: stdio echo: over stdio');
    expect(echoed!.parts.find((part) => part.__typename === 'ToolCallPart')).toMatchObject({ toolName: 'stdio/echo', state: 'SUCCEEDED' });

    const failed = await run('/tool stdio/fail {}');
    await failed.follower.waitFor(is('ExecutionFinished'));
    expect(textOf(await reply(failed.threadId))).toBe('Tool stdio/fail failed: the stdio tool said no');

    const asked = await run('/tool stdio/pid {}');
    const opened = await asked.follower.waitFor(is('SuspensionOpened'));
    expect(opened.payload).toMatchObject({ server: 'stdio', tool: 'pid', description: 'Answers the process id of this server.' });
    const approved = await requestData(server, ResolveSuspensionDocument, { id: opened.suspensionId, decision: 'APPROVE' }, token);
    expect(approved.resolveSuspension.__typename).toBe('SuspensionResolved');
    await asked.follower.waitFor(finishedOf(opened.executionId!));
    const pid = Number(/returned: (\d+)$/.exec(textOf(await reply(asked.threadId)))?.[1]);
    expect(liveChildren()).toContain(pid);
  });

  it('parley doctor’s probe starts each declared server afresh and reports it like an HTTP one', async () => {
    const probed = await server.parley.services.tools.probeAll();
    expect(probed.map(({ name, projectId, transport, state }) => ({ name, projectId, transport, status: state.status, tools: state.tools.length }))).toEqual([
      { name: 'gone', projectId: null, transport: 'STDIO', status: 'CONNECTED', tools: 5 },
      { name: 'stdio', projectId: null, transport: 'STDIO', status: 'CONNECTED', tools: 5 },
    ]);
  });

  it('the child gets the declared env and folder, not Parley’s environment', async () => {
    const { threadId, follower } = await run('/tool stdio/env {}');
    await follower.waitFor(is('ExecutionFinished'));
    const text = textOf(await reply(threadId));
    const seen = JSON.parse(text.replace(/^Tool stdio\/env returned: /, '')) as { names: string[]; cwd: string };
    expect(seen.names).toContain('STDIO_TEST_SECRET');
    expect(seen.names).toContain('PATH');
    expect(seen.names).not.toContain(PARENT_ONLY);
    expect(seen.names).not.toContain('PARLEY_TOOL_SERVERS_FILE');
    expect(seen.cwd).toBe(folder);
  });

  it('the API never changes or removes it (a typed error, nothing changed); refreshing works', async () => {
    const before = await stdioRow();
    const id = ids.encodeId('ToolServer', before.id);
    const updated = (await gql(server, UPDATE, { id, url: 'https://example.com/mcp', name: 'renamed' }, token)).updateToolServer;
    expect(updated).toMatchObject({ __typename: 'ForbiddenError', message: expect.stringContaining('PARLEY_TOOL_SERVERS_FILE') });
    const removed = (await gql(server, REMOVE, { id }, token)).removeToolServer;
    expect(removed).toMatchObject({ __typename: 'ForbiddenError', message: expect.stringContaining('declared by the operator') });
    // A public address, so only the name is in question (nothing is connected to: the name is refused first).
    const added = (await gql(server, ADD, { projectId: projectNode(), name: 'stdio', url: 'https://93.184.216.34/mcp' }, token)).addToolServer;
    expect(added).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('PARLEY_TOOL_SERVERS_FILE') });
    const after = await stdioRow();
    expect({ ...after, status: null, updatedAt: null, tools: null }).toEqual({ ...before, status: null, updatedAt: null, tools: null });
    expect(await server.parley.db.prisma.toolServer.count()).toBe(2);

    const refreshed = (await gql(server, REFRESH, { id }, token)).refreshToolServer;
    expect(refreshed).toMatchObject({ __typename: 'ToolServer', name: 'stdio', transport: 'STDIO', status: 'CONNECTED' });

    // node(id) finds it for a member of a project it names, like the project's own servers.
    expect((await gql(server, NODE, { id }, token)).node).toEqual({ __typename: 'ToolServer', id });

    // Users of projects the file does not name get the usual not-found answer.
    const stranger = await setUpAgent(server, { project: 'Stranger' });
    await expect(gql(server, NODE, { id }, stranger.token)).rejects.toThrow(/"code":"NOT_FOUND"/);
    expect((await gql(server, REFRESH, { id }, stranger.token)).refreshToolServer.__typename).toBe('NotFoundError');
    expect((await gql(server, REMOVE, { id }, stranger.token)).removeToolServer.__typename).toBe('NotFoundError');
  });

  it('a child that exits is a FAILED call saying so, and is started again after a pause', async () => {
    const crashed = await run('/tool stdio/crash {}');
    await crashed.follower.waitFor(is('ExecutionFinished'));
    expect(textOf(await reply(crashed.threadId))).toMatch(/^Tool stdio\/crash failed: stdio: the tool server process exited/);
    await eventually(async () => (await stdioRow()).status === 'CONNECTED');
    const again = await run('/tool stdio/echo {"text":"back"}');
    await again.follower.waitFor(is('ExecutionFinished'));
    expect(textOf(await reply(again.threadId))).toBe('Tool stdio/echo returned: stdio echo: back');
  });

  it('at start the file is the truth: a server gone from it is removed, a Relay project id is accepted', async () => {
    const gone = await server.parley.db.prisma.toolServer.findFirstOrThrow({ where: { name: 'gone' } });
    writeFileSync(file, JSON.stringify({ servers: { stdio: declaration(['Stdio allowed', ids.encodeId('Project', gone.id)]), other: declaration([projectNode()]) } }));
    await server.parley.services.tools.syncDeclared();
    expect((await server.parley.db.prisma.toolServer.findMany({ orderBy: { name: 'asc' } })).map((row) => row.name)).toEqual(['other', 'stdio']);
    expect((await stdioRow()).projects).toEqual(['Stdio allowed', gone.id]);
    expect((await server.parley.db.prisma.toolServer.findFirstOrThrow({ where: { name: 'other' } })).projects).toEqual([projectId]);
    expect((await listed()).map((entry) => entry.name)).toEqual(['other', 'stdio']);
  });

  it('no row holds the env values (their redaction in the log is src/tools/__tests__/stdio.test.ts)', async () => {
    const rows = await server.parley.db.prisma.toolServer.findMany();
    expect(JSON.stringify(rows)).not.toContain(SECRET);
  });

  it('stopping the server ends every child process', async () => {
    const { threadId, follower } = await run('/tool stdio/echo {"text":"last"}');
    await follower.waitFor(is('ExecutionFinished'));
    expect(textOf(await reply(threadId))).toContain('stdio echo: last');
    expect(liveChildren().length).toBeGreaterThanOrEqual(1);
    await server.stop();
    // close() waits for each child to end, so none is left the moment stop returns.
    expect(liveChildren()).toEqual([]);
  });
});

describe('a bad PARLEY_TOOL_SERVERS_FILE', () => {
  // Each problem's wording is src/tools/__tests__/stdio.test.ts; here, that it stops the start.
  it('stops the start with an error naming the file and the problem, before anything is opened', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-stdio-bad-'));
    try {
      const file = join(folder, 'tool-servers.json');
      writeFileSync(file, JSON.stringify({ servers: { 'Bad Name': declaration(['*']), files: { command: 'x', projects: [] } } }));
      const started = startTestServer({ env: { PARLEY_TOOL_SERVERS_FILE: file } });
      await expect(started).rejects.toThrow(`Invalid configuration:\n  - PARLEY_TOOL_SERVERS_FILE: ${file}: `);
      await expect(started).rejects.toThrow('servers.Bad Name: a server name must be 1 to 40 lower-case letters');
      await expect(started).rejects.toThrow('servers.files.projects: must name at least one project (an id or a name), or "*"');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
