import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { conversation, execution, messagesOf, send, textOf } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { startInstance, stopAllChildren, type Instance } from '../support/instances.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { finishedOf, is, ofKind } from '../support/run-events.ts';
import { newThread } from '../support/scenario.ts';

const followers: Follower[] = [];
const dataDirs: string[] = [];
let mcp: TestMcpServer | null = null;

afterAll(async () => {
  await Promise.all(followers.map((follower) => follower.close().catch(() => {})));
  await stopAllChildren();
  await mcp?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const serve = (dataDir: string) =>
  startInstance({
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_CONSUMER_SWEEP_MS: '100',
    PARLEY_TEXT_FLUSH_MS: '50',
    PARLEY_DATA_DIR: dataDir,
    PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1',
  });

async function gql(instance: Instance, token: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const response = await fetch(instance.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
  if (body.errors?.length || !body.data) throw new Error(`GraphQL request failed: ${JSON.stringify(body)}`);
  return body.data;
}

/** The demo agent with every tool of a tool server on `mcp`; `slow` with the given approval. */
async function giveTools(instance: Instance, slowApproval: 'ALWAYS' | 'NEVER') {
  const token = instance.demoToken!;
  const agentId = instance.demoAgentId!;
  const { agent } = await gql(instance, token, 'query($id: ID!) { agent(id: $id) { id project { id } } }', { id: agentId });
  const added = await gql(
    instance,
    token,
    'mutation($p: ID!, $url: String!) { addToolServer(projectId: $p, name: "tools", url: $url) { __typename ... on ToolServer { status } } }',
    { p: agent.project.id, url: mcp!.url },
  );
  expect(added.addToolServer).toEqual({ __typename: 'ToolServer', status: 'CONNECTED' });
  const updated = await gql(
    instance,
    token,
    'mutation($a: ID!, $approvals: [ToolApprovalInput!]) { updateAgent(agentId: $a, tools: ["tools/*"], toolApprovals: $approvals) { __typename } }',
    { a: agent.id, approvals: [{ tool: 'tools/slow', approval: slowApproval }] },
  );
  expect(updated.updateAgent.__typename).toBe('Agent');
  return { token, agentId: agent.id as string };
}

describe('tool calls across a crash and a restart (embedded)', () => {
  it('kill -9 during a slow call: INTERRUPTED, and the retry tells the model instead of calling again', async () => {
    mcp ??= await startMcpServer();
    const before = mcp.calls.get('slow') ?? 0;
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-tool-kill-'));
    dataDirs.push(dataDir);
    const first = await serve(dataDir);
    const { token, agentId } = await giveTools(first, 'NEVER');
    const threadId = await newThread(first, token, agentId);
    const watcher = follow(first, token, threadId);
    followers.push(watcher);
    await send(first, token, threadId, '/tool tools/slow {"ms":120000}');
    const called = await watcher.waitFor(is('ToolCallEvent', (event) => event.state === 'CALLED'));
    await mcp.slowStarted(before + 1);
    await first.kill();

    const second = await serve(dataDir);
    const after = follow(second, token, threadId);
    followers.push(after);
    const executionId = called.executionId!;
    await after.waitFor(finishedOf(executionId), 30_000);
    expect(await execution(second, token, executionId)).toMatchObject({
      status: 'INTERRUPTED',
      error: { retryable: true, messageKey: 'error.interrupted' },
    });
    const interruptedReply = messagesOf(await conversation(second, token, threadId))[1]!;
    expect(interruptedReply.parts.filter((part) => part.__typename === 'ToolCallPart')).toEqual([
      expect.objectContaining({ toolName: 'tools/slow', state: 'INTERRUPTED' }),
    ]);
    expect(interruptedReply.parts.filter((part) => part.__typename === 'ErrorPart')).toHaveLength(1);

    const retried = await gql(second, token, 'mutation($id: ID!) { retryExecution(executionId: $id) { __typename } }', { id: executionId });
    expect(retried.retryExecution.__typename).toBe('MessageQueued');
    await after.waitFor((event) => event.__typename === 'ExecutionFinished' && event.executionId !== executionId, 30_000);
    const replies = messagesOf(await conversation(second, token, threadId)).filter((message) => message.role === 'ASSISTANT');
    expect(textOf(replies.at(-1))).toMatch(/^Tool tools\/slow failed: This call was interrupted when the server running it stopped/);
    // The server saw the one call, before and after the retry.
    expect(mcp.calls.get('slow')).toBe(before + 1);
    await second.stop();
  }, 120_000);

  it('an approval given after a restart is honoured once', async () => {
    mcp ??= await startMcpServer();
    const before = mcp.calls.get('slow') ?? 0;
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-tool-approval-'));
    dataDirs.push(dataDir);
    const first = await serve(dataDir);
    const { token, agentId } = await giveTools(first, 'ALWAYS');
    const threadId = await newThread(first, token, agentId);
    const watcher = follow(first, token, threadId);
    followers.push(watcher);
    await send(first, token, threadId, '/tool tools/slow {"ms":5}');
    const opened = await watcher.waitFor(is('SuspensionOpened'));
    await watcher.waitFor(is('ExecutionUpdated', (event) => event.status === 'SUSPENDED'));
    await first.stop();

    const second = await serve(dataDir);
    const after = follow(second, token, threadId);
    followers.push(after);
    const resolved = await gql(second, token, 'mutation($id: ID!) { resolveSuspension(id: $id, decision: APPROVE) { __typename } }', {
      id: opened.suspensionId,
    });
    expect(resolved.resolveSuspension.__typename).toBe('SuspensionResolved');
    expect((await after.waitFor(finishedOf(opened.executionId!), 30_000)).status).toBe('COMPLETED');
    const reply = messagesOf(await conversation(second, token, threadId))[1]!;
    expect(textOf(reply)).toBe('Tool tools/slow returned: slept 5 ms');
    expect(ofKind(after.events, 'ToolCallEvent').map((event) => event.state)).toContain('SUCCEEDED');
    expect(mcp.calls.get('slow')).toBe(before + 1);
    await second.stop();
  }, 120_000);
});
