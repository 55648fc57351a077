import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, messagesOf, send } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { is, ofKind } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

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
const UPDATE_AGENT = `mutation($agentId: ID!, $tools: [String!], $toolApprovals: [ToolApprovalInput!]) {
  updateAgent(agentId: $agentId, tools: $tools, toolApprovals: $toolApprovals) { __typename ... on Error { message } }
}`;

/** The window progress reports are coalesced in (PARLEY_DELTA_WINDOW_MS), wide so that a burst surely shares one. */
const WINDOW_MS = 200;

describeEachBackend('tool-call progress', (backend) => {
  let server: TestServer;
  let mcp: TestMcpServer;
  let token: string;
  let agentId: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    mcp = await startMcpServer();
    server = await startTestServer({ backend, env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1', PARLEY_DELTA_WINDOW_MS: String(WINDOW_MS) } });
    const set = await setUpAgent(server, { project: 'Progress' });
    ({ token, agentId } = set);
    const { encodeId } = await import('../../src/schema/ids.ts');
    const added = (await gql(server, ADD, { projectId: encodeId('Project', set.projectId), name: 'work', url: mcp.url }, token)).addToolServer;
    expect(added).toMatchObject({ __typename: 'ToolServer', status: 'CONNECTED' });
    const given = await gql(server, UPDATE_AGENT, { agentId: encodeId('Agent', agentId), tools: ['work/*'], toolApprovals: [{ tool: 'work/*', approval: 'NEVER' }] }, token);
    expect(given.updateAgent.__typename).toBe('Agent');
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
    await mcp?.stop();
  });

  async function callPart(threadId: string) {
    const reply = messagesOf(await conversation(server, token, threadId)).find((message) => message.role === 'ASSISTANT');
    return reply?.parts.find((part) => part.__typename === 'ToolCallPart') as { state: string; progress: unknown } | undefined;
  }

  async function start(text: string) {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    followers.push(follower);
    await send(server, token, threadId, text);
    const called = await follower.waitFor(is('ToolCallEvent', (event) => event.state === 'CALLED'));
    return { threadId, follower, called };
  }

  it('reaches the running call’s card live, coalesced; the last report is recorded with the call and survives a reload', async () => {
    const { threadId, follower, called } = await start('/tool work/steps {"steps":40}');
    const last = await follower.waitFor(is('ToolCallProgress', (event) => event.progress.progress === 40));
    expect(last).toMatchObject({ toolCallId: called.toolCallId, messageId: called.messageId, progress: { progress: 40, total: 40, message: 'step 40 of 40' } });
    const reports = ofKind(follower.events, 'ToolCallProgress');
    // The burst shares windows, each sending only its latest (reports before the call was recorded wait for it, the last of them).
    expect(reports.length).toBeLessThan(40);
    const seen = reports.map((report) => report.progress.progress);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    // A reload while the call runs shows how far it got.
    const running = await eventually(async () => {
      const part = await callPart(threadId);
      return (part?.progress as { progress?: number } | null)?.progress === 40 && part;
    });
    expect(running).toMatchObject({ state: 'CALLED', progress: { progress: 40, total: 40, message: 'step 40 of 40' } });

    mcp.releaseSteps();
    expect((await follower.waitFor(is('ExecutionFinished'))).status).toBe('COMPLETED');
    expect(await callPart(threadId)).toMatchObject({ state: 'SUCCEEDED', progress: { progress: 40, total: 40, message: 'step 40 of 40' } });
    // Nothing about the call comes after its end.
    const ended = follower.events.findIndex(is('ToolCallEvent', (event) => event.state === 'SUCCEEDED'));
    expect(follower.events.slice(ended).some(is('ToolCallProgress'))).toBe(false);
  });

  it('a total the server does not know is null; a call that reports nothing has no progress', async () => {
    const unknownTotal = await start('/tool work/steps {"steps":3,"total":false}');
    await unknownTotal.follower.waitFor(is('ToolCallProgress', (event) => event.progress.progress === 3));
    mcp.releaseSteps();
    await unknownTotal.follower.waitFor(is('ExecutionFinished'));
    expect(await callPart(unknownTotal.threadId)).toMatchObject({ state: 'SUCCEEDED', progress: { progress: 3, total: null, message: 'step 3 of 3' } });

    const before = mcp.calls.get('steps') ?? 0;
    const silent = await start('/tool work/steps {"steps":0}');
    await eventually(() => mcp.calls.get('steps') === before + 1);
    mcp.releaseSteps();
    await silent.follower.waitFor(is('ExecutionFinished'));
    expect(await callPart(silent.threadId)).toMatchObject({ state: 'SUCCEEDED', progress: null });
    expect(ofKind(silent.follower.events, 'ToolCallProgress')).toEqual([]);
  });
});
