import { afterAll, beforeAll, expect, it } from 'vitest';
import { describe } from 'vitest';
import { conversation, messagesOf, send, textOf } from '../support/client.ts';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.ts';
import { follow, type Follower } from '../support/follower.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { is } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * A real provider package (@ai-sdk/openai) talking to the fake OpenAI-protocol provider: the model's
 * tool call of a tool-server tool takes the same path as the demo model's `/tool`.
 */
describe('tool-server tools through the OpenAI protocol', () => {
  let fake: FakeProvider;
  let mcp: TestMcpServer;
  let server: TestServer;
  const followers: Follower[] = [];

  beforeAll(async () => {
    [fake, mcp] = await Promise.all([startFakeProvider(), startMcpServer()]);
    server = await startTestServer({
      env: { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: fake.url, PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' },
    });
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
    await Promise.all([fake?.close(), mcp?.stop()]);
  });

  it('the model is offered the tool under a name providers accept, calls it, and reads its result and its failure', async () => {
    const { token, projectId, agentId } = await setUpAgent(server, { project: 'Provider tools', model: 'openai:gpt-test', tools: [] });
    const user = await server.parley.services.directory.findUser((await server.parley.db.prisma.membership.findFirstOrThrow({ where: { projectId } })).userId);
    await server.parley.services.tools.add(user, projectId, { name: 'tools', url: mcp.url });
    await server.parley.services.directory.updateAgent(user, agentId, { tools: ['tools/echo', 'tools/fail'], toolApprovals: [{ tool: 'tools/*', approval: 'NEVER' }] });

    fake.enqueue(
      { kind: 'tool-calls', calls: [{ name: 'tools__echo', input: { text: 'from the model' }, id: 'call_1' }] },
      { kind: 'tool-calls', calls: [{ name: 'tools__fail', input: {}, id: 'call_2' }] },
      { kind: 'reply', chunks: ['Done.'] },
    );
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    followers.push(follower);
    await send(server, token, threadId, 'use the tools');
    expect((await follower.waitFor(is('ExecutionFinished'))).status).toBe('COMPLETED');

    const offered = (fake.requests[0]!.body as { tools: { function: { name: string; description: string } }[] }).tools.map((tool) => tool.function.name);
    expect(offered.sort()).toEqual(['tools__echo', 'tools__fail']);
    // The second request carries the echo's result, the third the failure as the tool's result.
    expect(JSON.stringify(fake.requests[1]!.body)).toContain('echo: from the model');
    expect(JSON.stringify(fake.requests[2]!.body)).toContain('the database said no');
    expect(mcp.calls.get('echo')).toBe(1);

    const reply = messagesOf(await conversation(server, token, threadId))[1]!;
    expect(textOf(reply)).toBe('Done.');
    expect(reply.parts.filter((part) => part.__typename === 'ToolCallPart')).toEqual([
      expect.objectContaining({ toolCallId: 'call_1', toolName: 'tools/echo', state: 'SUCCEEDED', output: { text: 'echo: from the model', truncated: false } }),
      expect.objectContaining({ toolCallId: 'call_2', toolName: 'tools/fail', state: 'FAILED', toolError: 'the database said no' }),
    ]);
  });
});
