import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithServices } from '../support/backends.ts';
import { httpAgent, ofType, runCollecting, streamedText, userMessage } from '../support/ag-ui.ts';
import { setUpAgent } from '../support/scenario.ts';
import { startInstancePair, type InstancePair } from '../support/server.ts';

// Parley's reconnect is its cursor and the live bus, not the instance that took the request: an
// AG-UI client whose stream to one instance dropped attaches through another one.

describeWithServices('AG-UI across two instances', () => {
  let pair: InstancePair;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    pair = await startInstancePair();
    ({ token, agentId } = await setUpAgent(pair.first, { project: 'AG-UI two instances' }));
  });

  afterAll(async () => {
    await pair?.stop();
  });

  it('attaches through instance B to a run started through instance A: the thread so far, then the rest live, no gap, no duplicate', async () => {
    const expected = Array.from({ length: 40 }, (_, index) => `t${index + 1} `).join('');
    const viaA = httpAgent(pair.first, token, agentId);
    viaA.addMessage(userMessage('/tokens 40 over 8'));
    const dropped = await runCollecting(viaA, undefined, (event) => {
      if (event.type === 'TEXT_MESSAGE_CONTENT') viaA.abortRun();
    });
    expect(streamedText(dropped.events).length).toBeGreaterThan(0);
    const execution = await pair.first.parley.db.prisma.execution.findFirstOrThrow({ where: { threadId: viaA.threadId } });
    expect(execution.status).toBe('RUNNING');

    const viaB = httpAgent(pair.second, token, agentId, viaA.threadId);
    viaB.setMessages(viaA.messages.filter((message) => message.role === 'user'));
    const { events, error } = await runCollecting(viaB);
    expect(error).toBeNull();
    expect(events.map((event) => event.type).slice(0, 2)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT']);
    // The running reply is left out of the snapshot and streamed from its start: every token once, in order.
    expect(ofType(events, 'TEXT_MESSAGE_START')).toHaveLength(1);
    expect(streamedText(events)).toBe(expected);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(viaB.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(viaB.messages[1]!.content).toBe(expected);
  });

  it('keeps a frontend tool call made through instance A for its result, which a client sends through instance B', async () => {
    const weather = { name: 'weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    const viaA = httpAgent(pair.first, token, agentId);
    viaA.addMessage(userMessage('/tool weather {"city":"Bergen"}'));
    const called = await runCollecting(viaA, { tools: [weather] });
    const toolCallId = String(ofType(called.events, 'TOOL_CALL_START')[0]!.toolCallId);
    expect(called.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success', pendingToolCallIds: [toolCallId] } });

    // A reload against the other instance: the call is still pending there.
    const viaB = httpAgent(pair.second, token, agentId, viaA.threadId);
    const attached = await runCollecting(viaB);
    expect(attached.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success', pendingToolCallIds: [toolCallId] } });
    viaB.addMessage({ id: crypto.randomUUID(), role: 'tool', toolCallId, content: 'rain' });
    const answered = await runCollecting(viaB, { tools: [weather] });
    expect(answered.error).toBeNull();
    expect(streamedText(answered.events)).toBe('Tool weather returned: rain');
  });
});
