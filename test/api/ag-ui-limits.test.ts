import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_SUBSCRIPTIONS_CODE } from '../../src/server/plugins/use-subscriptions-per-user.ts';
import { encodeId } from '../../src/schema/ids.ts';
import { agUiUrl, httpAgent, postRun, runCollecting, userMessage } from '../support/ag-ui.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { SseSubscription } from '../support/sse.ts';
import { valueOf } from '../observability/prometheus.ts';

// An AG-UI stream is a subscription of its user like any other: the same bound, the same sign-in.

let server: TestServer;
let token: string;
let userId: string;
let agentId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { PARLEY_MAX_SUBSCRIPTIONS_PER_USER: '1' } });
  ({ token, userId, agentId } = await setUpAgent(server));
});

afterAll(async () => {
  await server?.stop();
});

/** Starts a long run over AG-UI and resolves once its text streams; `done` is its whole run. */
async function runningStream() {
  const agent = httpAgent(server, token, agentId);
  agent.addMessage(userMessage('/slow 30'));
  let streaming: () => void = () => {};
  const started = new Promise<void>((resolve) => (streaming = resolve));
  const done = runCollecting(agent, undefined, (event) => {
    if (event.type === 'TEXT_MESSAGE_CONTENT') streaming();
  });
  await started;
  return { agent, done };
}

const stop = (threadId: string) => fetch(`${agUiUrl(server, agentId)}/threads/${threadId}/stop`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });

describe('AG-UI streams within the subscription limits', () => {
  it('counts an AG-UI stream against PARLEY_MAX_SUBSCRIPTIONS_PER_USER, with SSE subscriptions, and frees its place at its end', async () => {
    const { agent, done } = await runningStream();
    const sse = new SseSubscription(server, token, await newThread(server, token, agentId), null);
    expect(await sse.firstAnswer()).toMatchObject({ errors: [{ extensions: { code: TOO_MANY_SUBSCRIPTIONS_CODE } }] });
    sse.close();
    const beyond = await postRun(agUiUrl(server, agentId), token, { threadId: crypto.randomUUID(), runId: 'r', messages: [userMessage('hi')] });
    expect(beyond.status).toBe(429);
    expect((await beyond.json()).error.code).toBe(TOO_MANY_SUBSCRIPTIONS_CODE);

    expect((await stop(agent.threadId)).status).toBe(202);
    expect((await done).events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    // The agent's id as Parley prints it (a global id) names the same agent.
    const next = httpAgent(server, token, encodeId('Agent', agentId));
    next.addMessage(userMessage('/tokens 2'));
    await eventually(async () => (await postRun(agUiUrl(server, agentId), token, {})).status === 400, 10_000, 'the place to be free');
    expect((await runCollecting(next)).error).toBeNull();
  });

  it('frees the place of a stream whose client went away; the run goes on, and a new request attaches to it', async () => {
    const { agent, done } = await runningStream();
    agent.abortRun();
    await done;
    // The server hears the client leave a moment after it left: until then its place is taken. A
    // body that is no RunAgentInput asks without changing anything: 429 while taken, 400 once free.
    await eventually(async () => (await postRun(agUiUrl(server, agentId), token, {})).status === 400, 10_000, 'the place of the stream that was left');
    const again = httpAgent(server, token, agentId, agent.threadId);
    again.setMessages(agent.messages);
    const attached = await runCollecting(again, undefined, (event) => {
      if (event.type === 'TEXT_MESSAGE_CONTENT') void stop(agent.threadId);
    });
    expect(attached.events[1]).toMatchObject({ type: 'MESSAGES_SNAPSHOT' });
    expect(attached.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
  });

  it('counts an open AG-UI stream in parley_subscriptions_active under transport="ag-ui", and no longer once it ended', async () => {
    const gauge = async () => valueOf(await (await fetch(new URL('/metrics', server.url))).text(), 'parley_subscriptions_active', { transport: 'ag-ui' });
    const { agent, done } = await runningStream();
    expect(await gauge()).toBe(1);
    expect((await stop(agent.threadId)).status).toBe(202);
    await done;
    await eventually(async () => (await gauge()) === 0, 10_000, 'the gauge to drop the ended stream');
  });

  it("ends a stream when its user's sign-in ends, closing what it opened, with RUN_ERROR UNAUTHENTICATED", async () => {
    const { agent, done } = await runningStream();
    // What disabling the user announces to every instance: its open streams end.
    server.parley.signedInStreams.endAll(userId);
    const { events } = await done;
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'UNAUTHENTICATED' });
    expect(events.filter((event) => event.type === 'TEXT_MESSAGE_START')).toHaveLength(events.filter((event) => event.type === 'TEXT_MESSAGE_END').length);
    expect((await stop(agent.threadId)).status).toBe(202);
  });
});
