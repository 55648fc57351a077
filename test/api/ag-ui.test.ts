import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { agUiUrl, httpAgent, ofType, postRun, runCollecting, streamedText, userMessage } from '../support/ag-ui.ts';
import { setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describeEachBackend('AG-UI', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'AG-UI' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('streams a reply as text message events between RUN_STARTED and RUN_FINISHED', async () => {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/tokens 5'));
    const { events, error } = await runCollecting(agent);
    expect(error).toBeNull();
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    expect(streamedText(events)).toBe('t1 t2 t3 t4 t5 ');
    expect(ofType(events, 'TEXT_MESSAGE_START')).toHaveLength(1);
    expect(ofType(events, 'TEXT_MESSAGE_END')).toHaveLength(1);
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(agent.messages[1]!.content).toBe('t1 t2 t3 t4 t5 ');
  });
});
