import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storedAttachmentBytes } from '../../src/queue/queue-insert.ts';
import { filesOf, ToolFiles } from '../../src/tools/tool-files.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { cancel, conversation, messagesOf, send, textOf } from '../support/client.ts';
import { ResolveSuspensionDocument } from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import { PDF, pngOf, startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { finishedOf, is, ofKind } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, requestData, startTestServer, type TestServer } from '../support/server.ts';

const SECRET = 'Bearer s3cret-header-value-never-shown';

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

const SERVER_FIELDS = `id name url transport status lastError headerNames timeoutMs
  tools { name description inputSchema annotations { readOnlyHint idempotentHint destructiveHint } }`;
const ADD = `mutation($projectId: ID!, $name: String!, $url: String!, $headers: [ToolServerHeaderInput!], $timeoutMs: Int) {
  addToolServer(projectId: $projectId, name: $name, url: $url, headers: $headers, timeoutMs: $timeoutMs) {
    __typename
    ... on ToolServer { ${SERVER_FIELDS} }
    ... on Error { message }
  }
}`;
const UPDATE = `mutation($id: ID!, $url: String, $headers: [ToolServerHeaderInput!]) {
  updateToolServer(toolServerId: $id, url: $url, headers: $headers) {
    __typename
    ... on ToolServer { ${SERVER_FIELDS} }
    ... on Error { message }
  }
}`;
const REMOVE = `mutation($id: ID!) { removeToolServer(toolServerId: $id) { __typename ... on Error { message } } }`;
const PROJECT = `query($id: ID!) { node(id: $id) { ... on Project { toolServers { ${SERVER_FIELDS} } } } }`;
const UPDATE_AGENT = `mutation($agentId: ID!, $tools: [String!], $toolApprovals: [ToolApprovalInput!]) {
  updateAgent(agentId: $agentId, tools: $tools, toolApprovals: $toolApprovals) {
    __typename
    ... on Agent { tools toolApprovals { tool approval } }
    ... on Error { message }
  }
}`;

describeEachBackend('tools from MCP servers', (backend) => {
  let server: TestServer;
  let mcp: TestMcpServer;
  let token: string;
  let agentId: string;
  let projectId: string;
  let projectNodeId: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    mcp = await startMcpServer();
    server = await startTestServer({
      backend,
      env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1', PARLEY_SECRET_KEY: 'a'.repeat(64), PARLEY_TOOL_TIMEOUT_MS: '1500', PARLEY_METRICS: 'true', PARLEY_MAX_ATTACHMENT_BYTES: '4096' },
    });
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'Tools' }));
    const { encodeId } = await import('../../src/schema/ids.ts');
    projectNodeId = encodeId('Project', projectId);
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
    await mcp?.stop();
  });

  async function addServer(name: string, url: string, extra: Record<string, unknown> = {}, as = token) {
    return (await gql(server, ADD, { projectId: projectNodeId, name, url, ...extra }, as)).addToolServer;
  }

  async function giveAgent(tools: string[], toolApprovals: { tool: string; approval: string }[] = []) {
    const { encodeId } = await import('../../src/schema/ids.ts');
    return (await gql(server, UPDATE_AGENT, { agentId: encodeId('Agent', agentId), tools, toolApprovals }, token)).updateAgent;
  }

  async function run(text: string, threadId?: string) {
    const thread = threadId ?? (await newThread(server, token, agentId));
    const follower = follow(server, token, thread);
    followers.push(follower);
    await send(server, token, thread, text);
    return { threadId: thread, follower };
  }

  async function finished(follower: Follower) {
    const done = await follower.waitFor(is('ExecutionFinished'));
    return done;
  }

  it('lists the tools of an added server with their annotations; header values are write-only', async () => {
    const added = await addServer('tools', mcp.url, { headers: [{ name: 'X-Api-Key', value: SECRET }] });
    expect(added.__typename).toBe('ToolServer');
    expect(added).toMatchObject({ name: 'tools', transport: 'HTTP', status: 'CONNECTED', lastError: null, headerNames: ['X-Api-Key'] });
    const names = added.tools.map((tool: { name: string }) => tool.name).sort();
    expect(names).toEqual(['tools/ask', 'tools/big', 'tools/echo', 'tools/fail', 'tools/picture', 'tools/slow', 'tools/steps']);
    expect(added.tools.find((tool: { name: string }) => tool.name === 'tools/echo')).toMatchObject({
      description: 'Echoes the text back.',
      annotations: { readOnlyHint: true },
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    const listed = (await gql(server, PROJECT, { id: projectNodeId }, token)).node.toolServers;
    expect(listed).toHaveLength(1);
    const row = await server.parley.db.prisma.toolServer.findFirstOrThrow({ where: { projectId } });
    expect(row.headersEncrypted).not.toContain(SECRET);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
  });

  it('unknown tool names are an InvalidInputError naming them', async () => {
    expect(await giveAgent(['tools/nope'])).toMatchObject({ __typename: 'InvalidInputError', message: expect.stringContaining('tools/nope') });
    expect(await giveAgent(['elsewhere/*'])).toMatchObject({ __typename: 'InvalidInputError', message: expect.stringContaining('elsewhere/*') });
    expect(await giveAgent(['tools/echo'], [{ tool: 'tools/ghost', approval: 'NEVER' }])).toMatchObject({
      __typename: 'InvalidInputError',
      message: expect.stringContaining('tools/ghost'),
    });
  });

  it('a call without approval (NEVER) succeeds; isError and a timeout are FAILED calls the run goes on after', async () => {
    const given = await giveAgent(['tools/*', 'approve_action'], [
      { tool: 'tools/*', approval: 'NEVER' },
      { tool: 'tools/slow', approval: 'ALWAYS' },
    ]);
    expect(given.toolApprovals).toEqual([
      { tool: 'tools/*', approval: 'NEVER' },
      { tool: 'tools/slow', approval: 'ALWAYS' },
    ]);

    const ok = await run('/tool tools/echo {"text":"hi"}');
    expect((await finished(ok.follower)).status).toBe('COMPLETED');
    const okReply = messagesOf(await conversation(server, token, ok.threadId))[1]!;
    expect(textOf(okReply)).toBe('Tool tools/echo returned: echo: hi');
    const okCall = okReply.parts.find((part) => part.__typename === 'ToolCallPart');
    expect(okCall).toMatchObject({ toolName: 'tools/echo', state: 'SUCCEEDED', output: { text: 'echo: hi', truncated: false }, toolError: null });
    expect((okCall as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(0);
    expect(ofKind(ok.follower.events, 'ToolCallEvent').map((event) => event.state)).toEqual(['CALLED', 'SUCCEEDED']);

    const bad = await run('/tool tools/fail {}');
    expect((await finished(bad.follower)).status).toBe('COMPLETED');
    const badReply = messagesOf(await conversation(server, token, bad.threadId))[1]!;
    expect(textOf(badReply)).toBe('Tool tools/fail failed: the database said no');
    expect(badReply.parts.find((part) => part.__typename === 'ToolCallPart')).toMatchObject({ state: 'FAILED', toolError: 'the database said no' });
    expect(ofKind(bad.follower.events, 'ToolCallEvent').at(-1)).toMatchObject({ state: 'FAILED', error: 'the database said no' });

    const big = await run('/tool tools/big {"bytes":70000}');
    expect((await finished(big.follower)).status).toBe('COMPLETED');
    const bigCall = messagesOf(await conversation(server, token, big.threadId))[1]!.parts.find((part) => part.__typename === 'ToolCallPart');
    expect(bigCall).toMatchObject({ state: 'SUCCEEDED', output: { truncated: true } });
    expect((bigCall as { output: { text: string } }).output.text).toContain('[output cut: 70000 bytes, the first 65536 kept]');
  });

  it("a result's images and binary resources become attachments of the reply within the attachment limits; other files a note", async () => {
    // The agent has tools/* without approval (the test before).
    const { threadId, follower } = await run('/tool tools/picture {"bytes":100}');
    expect((await finished(follower)).status).toBe('COMPLETED');
    const reply = messagesOf(await conversation(server, token, threadId))[1]!;
    const call = reply.parts.find((part) => part.__typename === 'ToolCallPart') as Extract<(typeof reply.parts)[number], { __typename: 'ToolCallPart' }>;
    expect(call.state).toBe('SUCCEEDED');
    const filesOfCall = (part: typeof call) => (part.output as { attachments: { attachmentId: string; filename: string; downloadPath: string }[] }).attachments;
    const [pngFile, pdfFile] = filesOfCall(call);
    expect(filesOfCall(call)).toEqual([
      { attachmentId: expect.any(String), filename: 'picture-1.png', mediaType: 'image/png', size: 100, downloadPath: `/attachments/${pngFile!.attachmentId}` },
      { attachmentId: expect.any(String), filename: 'q3.pdf', mediaType: 'application/pdf', size: PDF.byteLength, downloadPath: `/attachments/${pdfFile!.attachmentId}` },
    ]);
    // The model is told what became of each file; a type attachments do not accept is named, not kept.
    const told = [
      'Here is the chart.',
      '[image image/png, 100 bytes, kept as the attachment picture-1.png]',
      `[resource application/pdf, ${PDF.byteLength} bytes, kept as the attachment q3.pdf]`,
      expect.stringMatching(/^\[audio audio\/wav, 16 bytes, not kept: .*media type audio\/wav is not accepted/),
    ];
    expect((call.output as { text: string }).text.split('\n')).toEqual(told);
    expect(textOf(reply)).toBe(`Tool tools/picture returned: ${(call.output as { text: string }).text}`);

    const download = (path: string, as: string) => fetch(new URL(path, server.url), { headers: { authorization: `Bearer ${as}` } });
    const png = await download(pngFile!.downloadPath, token);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await png.arrayBuffer()).equals(pngOf(100))).toBe(true);
    const stranger = await server.createUser();
    expect((await download(pngFile!.downloadPath, stranger.token)).status).toBe(404);

    // Over PARLEY_MAX_ATTACHMENT_BYTES the image is a note; the rest of the result still stands.
    const big = await run('/tool tools/picture {"bytes":5000}');
    expect((await finished(big.follower)).status).toBe('COMPLETED');
    const bigCall = messagesOf(await conversation(server, token, big.threadId))[1]!.parts.find((part) => part.__typename === 'ToolCallPart') as typeof call;
    expect(filesOfCall(bigCall).map((file) => file.filename)).toEqual(['q3.pdf']);
    expect((bigCall.output as { text: string }).text).toContain('[image image/png, 5000 bytes, not kept: larger than 4096 bytes (PARLEY_MAX_ATTACHMENT_BYTES)]');
    const ids = [...filesOfCall(call), ...filesOfCall(bigCall)].map((file) => file.attachmentId);
    expect(await server.parley.db.prisma.attachment.count({ where: { id: { in: ids } } })).toBe(3);
  });

  it('tool files are kept within the per-call count and the user’s quota; without a reply they are a note', async () => {
    const reply = await server.parley.db.prisma.message.findFirstOrThrow({ where: { role: 'ASSISTANT', execution: { agentId } }, orderBy: { createdAt: 'desc' } });
    const { userId } = await server.parley.db.prisma.execution.findUniqueOrThrow({ where: { id: reply.executionId! } });
    const stored = await storedAttachmentBytes(server.parley.db.prisma, userId);
    const limits = { maxMessageChars: 1, maxQueuedPerThread: 1, maxAttachments: 2, maxAttachmentBytes: 4096, maxAttachmentBytesPerUser: stored + 150 };
    const files = new ToolFiles(server.parley.db.prisma, limits, pino({ enabled: false }));
    const result = {
      content: [1, 2, 3].map((n) => ({ type: 'image' as const, mimeType: 'image/png', data: pngOf(100 + n).toString('base64') })),
    };
    const owner = { userId, replyMessageId: () => reply.id };
    const { kept, notes } = await files.keep(filesOf(result, 'chart'), owner);
    // The first fits the quota; the second would pass it; the third is over the count.
    expect(kept.map((file) => file.filename)).toEqual(['chart-1.png']);
    expect([0, 1, 2].map((index) => notes.get(index))).toEqual([
      '[image image/png, 101 bytes, kept as the attachment chart-1.png]',
      '[image image/png, 102 bytes, not kept: the user’s files would exceed PARLEY_MAX_ATTACHMENT_BYTES_PER_USER]',
      '[image image/png, 103 bytes, not kept: the user’s files would exceed PARLEY_MAX_ATTACHMENT_BYTES_PER_USER]',
    ]);
    expect(await storedAttachmentBytes(server.parley.db.prisma, userId)).toBe(stored + 101);
    const roomy = new ToolFiles(server.parley.db.prisma, { ...limits, maxAttachmentBytesPerUser: stored + 10_000 }, pino({ enabled: false }));
    expect((await roomy.keep(filesOf(result, 'chart'), owner)).notes.get(2)).toContain('not kept: at most 2 files per call (PARLEY_MAX_ATTACHMENTS)');
    const orphan = await roomy.keep(filesOf(result, 'chart'), { userId, replyMessageId: () => null });
    expect(orphan.kept).toEqual([]);
    expect(orphan.notes.get(0)).toContain('not kept: the call has no reply to attach it to');
    // A signature that does not match the declared type is refused like a user's file.
    const fake = await roomy.keep(filesOf({ content: [{ type: 'image', mimeType: 'image/png', data: PDF.toString('base64') }] }, 'chart'), owner);
    expect(fake.notes.get(0)).toMatch(/not kept: the content is not image\/png/);
  });

  it('approve, deny and "allow in this thread"', async () => {
    const first = await run('/tool tools/slow {"ms":1}');
    const opened = await first.follower.waitFor(is('SuspensionOpened'));
    expect(opened.payload).toMatchObject({ server: 'tools', tool: 'slow', description: 'Waits, then answers; counts each call.', input: { ms: 1 } });
    const before = mcp.calls.get('slow') ?? 0;
    const denied = await requestData(server, ResolveSuspensionDocument, { id: opened.suspensionId, decision: 'DENY' }, token);
    expect(denied.resolveSuspension.__typename).toBe('SuspensionResolved');
    await first.follower.waitFor(finishedOf(opened.executionId!));
    expect(mcp.calls.get('slow') ?? 0).toBe(before);
    const deniedReply = messagesOf(await conversation(server, token, first.threadId))[1]!;
    expect(textOf(deniedReply)).toBe('Tool tools/slow failed: the call was not approved.');
    expect(deniedReply.parts.find((part) => part.__typename === 'ToolCallPart')).toMatchObject({ state: 'DENIED' });

    // Approve and stop asking in this thread: the next call of the tool runs at once.
    await send(server, token, first.threadId, '/tool tools/slow {"ms":2}');
    const second = await first.follower.waitFor(is('SuspensionOpened', (event) => event.suspensionId !== opened.suspensionId));
    const approved = await gql(
      server,
      `mutation($id: ID!) { resolveSuspension(id: $id, decision: APPROVE, allowInThread: true) { __typename } }`,
      { id: second.suspensionId },
      token,
    );
    expect(approved.resolveSuspension.__typename).toBe('SuspensionResolved');
    await first.follower.waitFor(finishedOf(second.executionId!));
    expect(mcp.calls.get('slow')).toBe(before + 1);
    await send(server, token, first.threadId, '/tool tools/slow {"ms":3}');
    await first.follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length === 3);
    expect(ofKind(first.follower.events, 'SuspensionOpened')).toHaveLength(2);
    expect(mcp.calls.get('slow')).toBe(before + 2);
    const replies = messagesOf(await conversation(server, token, first.threadId)).filter((message) => message.role === 'ASSISTANT');
    expect(replies.map(textOf).slice(1)).toEqual(['Tool tools/slow returned: slept 2 ms', 'Tool tools/slow returned: slept 3 ms']);
    // Another thread still asks.
    const other = await run('/tool tools/slow {"ms":1}');
    await other.follower.waitFor(is('SuspensionOpened'));
    await cancel(server, token, (await other.follower.waitFor(is('SuspensionOpened'))).executionId!);
  });

  it('Stop during a call cancels it at the server: CANCELLED', async () => {
    await giveAgent(['tools/*'], [{ tool: 'tools/*', approval: 'NEVER' }]);
    const cancelledBefore = mcp.cancelled;
    const started = (mcp.calls.get('slow') ?? 0) + 1;
    const { threadId, follower } = await run('/tool tools/slow {"ms":60000}');
    await mcp.slowStarted(started);
    const called = await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'CALLED'));
    await cancel(server, token, called.executionId!);
    expect((await follower.waitFor(is('ExecutionFinished'))).status).toBe('CANCELLED');
    await eventually(() => mcp.cancelled === cancelledBefore + 1);
    const reply = messagesOf(await conversation(server, token, threadId))[1]!;
    expect(reply.parts.find((part) => part.__typename === 'ToolCallPart')).toMatchObject({ state: 'CANCELLED' });
    expect(ofKind(follower.events, 'ToolCallEvent').at(-1)).toMatchObject({ state: 'CANCELLED' });
  });

  it('a call longer than the timeout is FAILED with a clear message', async () => {
    const { threadId, follower } = await run('/tool tools/slow {"ms":5000}');
    expect((await finished(follower)).status).toBe('COMPLETED');
    const reply = messagesOf(await conversation(server, token, threadId))[1]!;
    expect(textOf(reply)).toBe('Tool tools/slow failed: tools: the tool did not answer within 1500 ms.');
  });

  it('a server that needs a header: UNAUTHORIZED (HTTP 401) without it, CONNECTED with it; the value never shows', async () => {
    const guarded = await startMcpServer({ requiredAuthorization: SECRET });
    try {
      const without = await addServer('guarded', guarded.url);
      expect(without).toMatchObject({ status: 'UNAUTHORIZED', lastError: 'UNAUTHORIZED (HTTP 401)', tools: [] });
      const withHeader = await gql(server, UPDATE, { id: without.id, headers: [{ name: 'Authorization', value: SECRET }] }, token);
      expect(withHeader.updateToolServer).toMatchObject({ status: 'CONNECTED', headerNames: ['Authorization'] });
      expect(guarded.authorizations).toContain(SECRET);
      await giveAgent(['guarded/echo'], [{ tool: 'guarded/echo', approval: 'NEVER' }]);
      const { threadId, follower } = await run('/tool guarded/echo {"text":"in"}');
      await finished(follower);
      expect(textOf(messagesOf(await conversation(server, token, threadId))[1])).toBe('Tool guarded/echo returned: echo: in');

      // Stopped mid-thread: a FAILED call, the server UNAVAILABLE with its last error.
      await guarded.stop();
      await send(server, token, threadId, '/tool guarded/echo {"text":"again"}');
      await follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length === 2);
      const replies = messagesOf(await conversation(server, token, threadId)).filter((message) => message.role === 'ASSISTANT');
      expect(textOf(replies[1])).toMatch(/^Tool guarded\/echo failed: guarded: the tool server is unreachable/);
      const listed = (await gql(server, PROJECT, { id: projectNodeId }, token)).node.toolServers;
      expect(listed.find((entry: { name: string }) => entry.name === 'guarded')).toMatchObject({ status: 'UNAVAILABLE', lastError: expect.stringContaining('unreachable') });

      const everything = JSON.stringify({ listed, events: follower.events, replies });
      expect(everything).not.toContain(SECRET);
      const response = await fetch(new URL('/metrics', server.url));
      expect(response.status).toBe(200);
      const metrics = await response.text();
      expect(metrics).not.toContain(SECRET);
      expect(metrics).toMatch(/parley_tool_calls_total\{server="guarded",tool="echo",outcome="FAILED"\} 1/);
      expect(metrics).toMatch(/parley_tool_servers\{status="CONNECTED"\} 1\n/);
      expect(metrics).toMatch(/parley_tool_servers\{status="UNAVAILABLE"\} 1\n/);
    } finally {
      await guarded.stop().catch(() => {});
    }
  });

  it('a redirect is not followed', async () => {
    const added = await addServer('redirected', mcp.redirectUrl);
    expect(added).toMatchObject({ status: 'UNAVAILABLE', lastError: expect.stringContaining('redirect (HTTP 302), which is not followed') });
  });

  it('another user sees nothing; a plain member cannot manage tool servers', async () => {
    const row = await server.parley.db.prisma.toolServer.findFirstOrThrow({ where: { projectId, name: 'tools' } });
    const { encodeId } = await import('../../src/schema/ids.ts');
    const id = encodeId('ToolServer', row.id);
    const stranger = await server.createUser();
    expect((await gql(server, REMOVE, { id }, stranger.token)).removeToolServer.__typename).toBe('NotFoundError');
    expect((await addServer('x', mcp.url, {}, stranger.token)).__typename).toBe('NotFoundError');
    const member = await server.createUser();
    await server.parley.services.directory.addMember(null, { projectId, user: member.userId, role: 'member' });
    expect((await gql(server, REMOVE, { id }, member.token)).removeToolServer.__typename).toBe('ForbiddenError');
    expect((await addServer('y', mcp.url, {}, member.token)).__typename).toBe('ForbiddenError');
    expect(await server.parley.db.prisma.toolServer.count({ where: { projectId, name: { in: ['x', 'y'] } } })).toBe(0);
  });
});

describeWithServices('tool-server headers on PostgreSQL without PARLEY_SECRET_KEY', () => {
  let server: TestServer;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    mcp = await startMcpServer();
    server = await startTestServer({ backend: 'postgres', env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' } });
  });

  afterAll(async () => {
    await server?.stop();
    await mcp?.stop();
  });

  it('storing a header is an InvalidInputError that says what to set, and stores nothing; a server without headers is fine', async () => {
    const { token, projectId } = await setUpAgent(server, { project: 'No key' });
    const { encodeId } = await import('../../src/schema/ids.ts');
    const variables = { projectId: encodeId('Project', projectId), name: 'tools', url: mcp.url };
    const refused = (await gql(server, ADD, { ...variables, headers: [{ name: 'Authorization', value: SECRET }] }, token)).addToolServer;
    expect(refused).toMatchObject({ __typename: 'InvalidInputError', message: expect.stringContaining('PARLEY_SECRET_KEY') });
    expect(refused.message).not.toContain(SECRET);
    expect(await server.parley.db.prisma.toolServer.count({ where: { projectId } })).toBe(0);
    expect((await gql(server, ADD, variables, token)).addToolServer).toMatchObject({ __typename: 'ToolServer', status: 'CONNECTED' });
  });
});
