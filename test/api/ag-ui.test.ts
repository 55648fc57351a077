import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { agUiUrl, httpAgent, ofType, postRun, runCollecting, streamedText, userMessage } from '../support/ag-ui.ts';
import { addMember, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

describeEachBackend('AG-UI', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let otherToken: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    let projectId: string;
    ({ token, agentId, projectId } = await setUpAgent(server, { project: 'AG-UI' }));
    // A member of the same project: it may run the agent, but not on this user's threads.
    otherToken = (await addMember(server, projectId)).token;
  });

  const threadCount = () => server.parley.db.prisma.thread.count();
  const stopUrl = (threadId: string) => `${agUiUrl(server, agentId)}/threads/${threadId}/stop`;

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

  it('makes one turn of a message sent twice (its id is the idempotency key), on a thread both requests create', async () => {
    const body = { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('/tokens 3')] };
    const [first, second] = await Promise.all([postRun(agUiUrl(server, agentId), token, body), postRun(agUiUrl(server, agentId), token, body)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const streams = await Promise.all([first.text(), second.text()]);
    for (const stream of streams) expect(stream).toContain('RUN_FINISHED');
    expect(await server.parley.db.prisma.execution.count({ where: { threadId: body.threadId } })).toBe(1);
  });

  it('gives a client that sends an empty history the thread as MESSAGES_SNAPSHOT, and refuses a divergent one', async () => {
    const first = httpAgent(server, token, agentId);
    first.addMessage(userMessage('/tokens 3'));
    expect((await runCollecting(first)).error).toBeNull();

    const reloaded = httpAgent(server, token, agentId, first.threadId);
    const { events, error } = await runCollecting(reloaded);
    expect(error).toBeNull();
    expect(events.map((event) => event.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    expect(reloaded.messages).toEqual(first.messages);

    // A history with a user message the thread never had, before the new one: refused, nothing queued.
    const before = await server.parley.db.prisma.queueItem.count();
    const diverged = await postRun(agUiUrl(server, agentId), token, {
      threadId: first.threadId,
      runId: randomUUID(),
      messages: [first.messages[0], userMessage('never sent'), first.messages[1], userMessage('/tokens 1')],
    });
    expect(diverged.status).toBe(400);
    expect((await diverged.json()).error).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('diverge') });
    expect(await server.parley.db.prisma.queueItem.count()).toBe(before);
  });

  it('ends a failed run with RUN_ERROR carrying its reason as code, and whether a retry can fix it', async () => {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/fail context_length after 2'));
    const { events } = await runCollecting(agent);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'RUN_ERROR', code: 'CONTEXT_LENGTH', metadata: { retryable: false, retryAfterS: null } });
    // What the run opened was closed before its end.
    expect(ofType(events, 'TEXT_MESSAGE_START')).toHaveLength(ofType(events, 'TEXT_MESSAGE_END').length);
    expect(ofType(events, 'STEP_STARTED')).toHaveLength(ofType(events, 'STEP_FINISHED').length);
  });

  it('asks for a tool approval as an interrupt and goes on when the next request resumes it', async () => {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/approve deploy'));
    const asked = await runCollecting(agent);
    expect(asked.error).toBeNull();
    const finished = asked.events.at(-1)!;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
    const [interrupt] = (finished.outcome as { interrupts: { id: string; reason: string; toolCallId: string; responseSchema: object }[] }).interrupts;
    expect(interrupt).toMatchObject({ reason: 'tool_approval', toolCallId: expect.any(String), responseSchema: expect.any(Object) });
    expect(ofType(asked.events, 'TOOL_CALL_START')).toMatchObject([{ toolCallId: interrupt!.toolCallId, toolCallName: 'approve_action' }]);

    // A new message while it waits: refused, as the interrupt is not addressed.
    const unanswered = await postRun(agUiUrl(server, agentId), token, { threadId: agent.threadId, runId: randomUUID(), messages: [...agent.messages, userMessage('hello')] });
    expect(unanswered.status).toBe(409);

    const resumed = await runCollecting(agent, { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { decision: 'APPROVE' } }] });
    expect(resumed.error).toBeNull();
    expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(ofType(resumed.events, 'TOOL_CALL_RESULT')).toMatchObject([{ toolCallId: interrupt!.toolCallId }]);
    expect(streamedText(resumed.events)).toContain('Approved: deploy');

    // The same answer again: that interrupt is already answered.
    const again = await postRun(agUiUrl(server, agentId), token, {
      threadId: agent.threadId,
      runId: randomUUID(),
      messages: agent.messages,
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { decision: 'APPROVE' } }],
    });
    expect(again.status).toBe(409);
  });

  it('asks a question as an interrupt whose answer the next request gives', async () => {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/ask Which colour?'));
    const asked = await runCollecting(agent);
    const finished = asked.events.at(-1)!;
    expect(finished).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [{ reason: 'question', message: 'Which colour?' }] } });
    const [interrupt] = (finished.outcome as { interrupts: { id: string }[] }).interrupts;
    // A question is answered with { answer }, not a decision: refused, still open.
    const wrong = await postRun(agUiUrl(server, agentId), token, {
      threadId: agent.threadId,
      runId: randomUUID(),
      messages: agent.messages,
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { decision: 'APPROVE' } }],
    });
    expect(wrong.status).toBe(400);
    const answered = await runCollecting(agent, { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { answer: 'blue' } }] });
    expect(answered.error).toBeNull();
    expect(streamedText(answered.events)).toContain('You answered: "blue"');
  });

  it('ends a stopped run with the outcome cancelled, not an error', async () => {
    const agent = httpAgent(server, token, agentId);
    agent.addMessage(userMessage('/slow 30'));
    let stopped: Promise<Response> | null = null;
    const { events, error } = await runCollecting(agent, undefined, (event) => {
      if (event.type === 'TEXT_MESSAGE_CONTENT') stopped ??= fetch(stopUrl(agent.threadId), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    });
    expect(error).toBeNull();
    expect((await stopped!)?.status).toBe(202);
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    expect(ofType(events, 'TEXT_MESSAGE_START')).toHaveLength(ofType(events, 'TEXT_MESSAGE_END').length);
  });

  it('attaches a request with nothing new to the running run: the thread so far, then the rest live, nothing twice', async () => {
    const first = httpAgent(server, token, agentId);
    first.addMessage(userMessage('/tokens 20 over 4'));
    const dropped = runCollecting(first, undefined, (event) => {
      if (event.type === 'TEXT_MESSAGE_CONTENT') first.abortRun();
    });
    await dropped;
    const again = httpAgent(server, token, agentId, first.threadId);
    again.setMessages(first.messages);
    const { events, error } = await runCollecting(again);
    expect(error).toBeNull();
    expect(events[1]!.type).toBe('MESSAGES_SNAPSHOT');
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const expected = Array.from({ length: 20 }, (_, index) => `t${index + 1} `).join('');
    expect(again.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(again.messages[1]!.content).toBe(expected);
  });

  it("refuses another user's thread with 404 before any stream opens, and changes nothing", async () => {
    const mine = httpAgent(server, token, agentId);
    mine.addMessage(userMessage('/tokens 1'));
    expect((await runCollecting(mine)).error).toBeNull();
    const before = await server.parley.db.prisma.queueItem.count();
    const refused = await postRun(agUiUrl(server, agentId), otherToken, { threadId: mine.threadId, runId: randomUUID(), messages: [userMessage('mine now')] });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect((await refused.json()).error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await server.parley.db.prisma.queueItem.count()).toBe(before);
    const stop = await fetch(stopUrl(mine.threadId), { method: 'POST', headers: { authorization: `Bearer ${otherToken}` } });
    expect(stop.status).toBe(404);
  });

  it('refuses bad bodies and requests with a JSON error and an HTTP status, creating nothing', async () => {
    const url = agUiUrl(server, agentId);
    const threads = await threadCount();
    const valid = () => ({ threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] });
    const cases: [string, Response, number][] = [
      ['not JSON', await postRun(url, token, '{'), 400],
      ['no messages', await postRun(url, token, { threadId: randomUUID(), runId: randomUUID() }), 400],
      ['a thread id that is no UUID', await postRun(url, token, { ...valid(), threadId: 'thread-1' }), 400],
      // Over PARLEY_MAX_MESSAGE_CHARS (32,000), as sendMessage refuses it.
      ['a message too long', await postRun(url, token, { ...valid(), messages: [userMessage('x'.repeat(40_000))] }), 400],
      ['a body over PARLEY_MAX_REQUEST_BYTES', await postRun(url, token, { ...valid(), messages: [userMessage('x'.repeat(1_100_000))] }), 413],
      ['no sign-in', await postRun(url, null, valid()), 401],
      ['an unknown agent', await postRun(agUiUrl(server, randomUUID()), token, valid()), 404],
      ['an unknown interrupt', await postRun(url, token, { ...valid(), resume: [{ interruptId: randomUUID(), status: 'resolved' }] }), 404],
    ];
    for (const [what, response, status] of cases) {
      expect({ what, status: response.status }).toEqual({ what, status });
      // The server's own body limit answers as it answers every oversized request (a GraphQL error).
      const body = await response.json();
      expect(body.error?.code ?? body.errors?.[0]?.extensions?.code).toEqual(expect.any(String));
    }
    expect(await threadCount()).toBe(threads);
  });
});
