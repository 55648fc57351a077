import { randomUUID } from 'node:crypto';
import type { Message, Tool } from '@ag-ui/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { agUiUrl, httpAgent, ofType, postRun, runCollecting, streamedText, userMessage } from '../support/ag-ui.ts';
import { ResolveSuspensionDocument } from '../support/documents.ts';
import { addMember, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';

const WEATHER: Tool = {
  name: 'weather',
  description: 'The weather in a city, as the browser knows it.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const toolResult = (toolCallId: string, content: string, id: string = randomUUID()): Message => ({ id, role: 'tool', toolCallId, content });

describeEachBackend('AG-UI frontend tools', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let otherToken: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    let projectId: string;
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'AG-UI tools' }));
    otherToken = (await addMember(server, projectId)).token;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const prisma = () => server.parley.db.prisma;

  /** A run that calls the frontend tool: it completes with the call pending, the client holding it. */
  async function calledWeather() {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/tool weather {"city":"Oslo"}'));
    const called = await runCollecting(agent, { tools: [WEATHER], context: [{ description: 'page', value: '/forecast' }] });
    expect(called.error).toBeNull();
    const [start] = ofType(called.events, 'TOOL_CALL_START');
    return { agent, called, toolCallId: String(start!.toolCallId) };
  }

  it('offers a declared tool to the model; its call ends the run with the call pending, and the tool message continues the turn', async () => {
    const { agent, called, toolCallId } = await calledWeather();
    expect(ofType(called.events, 'TOOL_CALL_START')).toMatchObject([{ toolCallName: 'weather' }]);
    expect(ofType(called.events, 'TOOL_CALL_ARGS').map((event) => JSON.parse(String(event.delta)))).toEqual([{ city: 'Oslo' }]);
    expect(ofType(called.events, 'TOOL_CALL_END')).toHaveLength(1);
    expect(ofType(called.events, 'TOOL_CALL_RESULT')).toHaveLength(0);
    expect(called.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success', pendingToolCallIds: [toolCallId] } });

    // The turn keeps what the request offered it, for wherever it runs or resumes.
    expect(await prisma().agUiTurn.findMany({ where: { threadId: agent.threadId }, select: { tools: true, context: true } })).toEqual([
      { tools: [WEATHER], context: [{ description: 'page', value: '/forecast' }] },
    ]);
    // The call waits durably, as a suspension of its own kind.
    expect(await prisma().suspension.findMany({ where: { toolCallId, threadId: agent.threadId }, select: { kind: true, status: true } })).toEqual([{ kind: 'CLIENT_TOOL', status: 'OPEN' }]);

    agent.addMessage(toolResult(toolCallId, 'sunny, 21 °C'));
    const answered = await runCollecting(agent, { tools: [WEATHER] });
    expect(answered.error).toBeNull();
    expect(streamedText(answered.events)).toBe('Tool weather returned: sunny, 21 °C');
    expect(ofType(answered.events, 'TOOL_CALL_RESULT')).toHaveLength(0);
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(await prisma().execution.count({ where: { threadId: agent.threadId } })).toBe(1);

    // The thread keeps the client's tool message under its id: a reload gets the same history, and the next turn goes on from it.
    const reloaded = httpAgent(server, token, agentId, agent.threadId);
    expect((await runCollecting(reloaded)).error).toBeNull();
    expect(reloaded.messages).toEqual(agent.messages);
    agent.addMessage(userMessage('/tokens 2'));
    const next = await runCollecting(agent, { tools: [WEATHER] });
    expect(next.error).toBeNull();
    expect(streamedText(next.events)).toBe('t1 t2 ');
  });

  it('shows a pending call to a GraphQL client as a CLIENT_TOOL suspension that resolveSuspension answers', async () => {
    const { agent, toolCallId } = await calledWeather();
    const suspension = await prisma().suspension.findFirstOrThrow({ where: { toolCallId, threadId: agent.threadId } });
    const resolved = await requestData(server, ResolveSuspensionDocument, { id: encodeId('Suspension', suspension.id), answer: 'foggy' }, token);
    expect(resolved.resolveSuspension).toMatchObject({ __typename: "SuspensionResolved" });
    // The AG-UI client attaches (to the resumed run, or the thread after it): the result the GraphQL client gave is the thread's.
    const attached = httpAgent(server, token, agentId, agent.threadId);
    const { error } = await runCollecting(attached);
    expect(error).toBeNull();
    expect(attached.messages.find((message) => message.role === 'assistant')).toMatchObject({ content: 'Tool weather returned: foggy' });
    expect(attached.messages.find((message) => message.role === 'tool')).toMatchObject({ toolCallId, content: 'foggy' });
  });

  it('refuses bad tool results and declarations with a clear error, changing nothing', async () => {
    const { agent, toolCallId } = await calledWeather();
    const url = agUiUrl(server, agentId);
    const body = (messages: Message[], tools: Tool[] = [WEATHER]) => ({ threadId: agent.threadId, runId: randomUUID(), messages, tools });
    const refusals: [string, Response, number, string][] = [
      ['a result for a call Parley never made', await postRun(url, token, body([...agent.messages, toolResult('call_unknown', 'x')])), 400, 'did not hand'],
      ['a new message while the call waits for its result', await postRun(url, token, body([...agent.messages, userMessage('hello')])), 409, 'frontend tool'],
      ['a result on another user’s thread', await postRun(url, otherToken, body([...agent.messages, toolResult(toolCallId, 'x')])), 404, 'Thread'],
      ['a schema of no object', await postRun(url, token, body([...agent.messages, toolResult(toolCallId, 'x')], [{ ...WEATHER, parameters: { type: 'string' } }])), 400, 'JSON Schema'],
      ['a schema with an unknown type', await postRun(url, token, body([...agent.messages, toolResult(toolCallId, 'x')], [{ ...WEATHER, parameters: { type: 'object', properties: { city: { type: 'town' } } } }])), 400, 'unknown type'],
      ['a tool named as one of Parley’s', await postRun(url, token, body([...agent.messages, toolResult(toolCallId, 'x')], [{ ...WEATHER, name: 'ask_user' }])), 400, 'Parley'],
      ['a tool named as a tool server’s', await postRun(url, token, body([...agent.messages, toolResult(toolCallId, 'x')], [{ ...WEATHER, name: 'files__read' }])), 400, 'no tool name'],
      ['too many tools', await postRun(url, token, body(agent.messages, Array.from({ length: 33 }, (_, index) => ({ ...WEATHER, name: `tool${index}` })))), 400, 'at most'],
      ['context too large', await postRun(url, token, { ...body(agent.messages), context: [{ description: 'page', value: 'x'.repeat(20_000) }] }), 400, 'context'],
    ];
    for (const [what, response, status, says] of refusals) {
      const { error } = await response.json();
      expect({ what, status: response.status, message: error?.message }).toEqual({ what, status, message: expect.stringContaining(says) });
    }
    expect(await prisma().suspension.findFirstOrThrow({ where: { toolCallId, threadId: agent.threadId } })).toMatchObject({ status: 'OPEN' });

    agent.addMessage(toolResult(toolCallId, 'rainy'));
    expect((await runCollecting(agent, { tools: [WEATHER] })).error).toBeNull();
    // Answered: another tool message for the same call is refused; the one the thread has is accepted as history.
    const twice = await postRun(url, token, body([...agent.messages, toolResult(toolCallId, 'snowy')]));
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toContain('already answered');
  });
});
