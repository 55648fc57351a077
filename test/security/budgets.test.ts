import { afterAll, beforeAll, expect, it } from 'vitest';
import { translate } from '../../src/i18n/catalog.ts';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, execution, messagesOf, textOf } from '../support/client.ts';
import { errorParts, shownFailure } from '../support/recorded-failure.ts';
import { ofKind } from '../support/run-events.ts';
import { addAgent, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The daily token budget binds while a run streams, not only when a turn starts.

const TOKENS_1_TO_100 = Array.from({ length: 100 }, (_, index) => `t${index + 1} `).join('');

describeEachBackend('Daily token budget, during the run', (backend) => {
  let server: TestServer;
  let token: string;
  let projectId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, projectId } = await setUpAgent(server, { project: 'Budgets' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('budget 100, /tokens 5000: the run stops after 100 tokens, REFUSED, the reply kept, one error', async () => {
    const agentId = await addAgent(server, projectId, { name: 'Budget 100', limits: { dailyTokenBudget: 100 } });
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, '/tokens 5000');

    const finished = ofKind(events, 'ExecutionFinished');
    expect(finished.map((event) => event.status)).toEqual(['REFUSED']);
    const executionId = finished[0]!.executionId!;
    const live = ofKind(events, 'ErrorEvent');
    expect(live).toHaveLength(1);
    const shown = shownFailure(live[0]!);
    expect(shown).toMatchObject({
      reason: 'QUOTA_EXCEEDED',
      retryable: false,
      messageKey: 'refusal.budget',
      params: { budget: 100 },
      message: translate('en', 'refusal.budget', { budget: 100 }),
    });
    expect(shown.retryAfterS).toBeGreaterThan(0);
    expect(shown.retryAfterS).toBeLessThanOrEqual(86_400);
    expect(events.indexOf(live[0]!)).toBeLessThan(events.indexOf(finished[0]!));

    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(textOf(messages[1])).toBe(TOKENS_1_TO_100);
    const stored = errorParts(messages);
    expect(stored).toHaveLength(1);
    const { __typename: _part, ...storedFields } = stored[0]!;
    expect(storedFields).toEqual(shown);

    const recorded = await execution(server, token, executionId);
    expect(recorded).toMatchObject({ status: 'REFUSED', outputTokens: 100 });
    expect(recorded.error).toEqual(shown);

    // Spent: the next turn is refused when it starts, as before, with no error of its own.
    const next = await sendAndFollow(server, token, threadId, 'Hello again', 1);
    expect(ofKind(next, 'ExecutionFinished').slice(1).map((event) => event.status)).toEqual(['REFUSED']);
    expect(ofKind(next, 'ErrorEvent')).toHaveLength(1);
  });

  it('a delegated child spends the same budget; the turn has one error, on the root run', async () => {
    const agentId = await addAgent(server, projectId, { name: 'Delegating', limits: { dailyTokenBudget: 100 } });
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, '/delegate /tokens 5000');

    const finished = ofKind(events, 'ExecutionFinished');
    expect(finished.map((event) => event.status)).toEqual(['REFUSED']);
    const live = ofKind(events, 'ErrorEvent');
    expect(live.map((event) => [event.executionId, event.reason])).toEqual([[finished[0]!.executionId, 'QUOTA_EXCEEDED']]);
    expect(ofKind(events, 'ExecutionUpdated').map((event) => event.status)).toContain('REFUSED');
    const messages = messagesOf(await conversation(server, token, threadId));
    expect(errorParts(messages)).toHaveLength(1);
    const used = await execution(server, token, finished[0]!.executionId!);
    expect(used.status).toBe('REFUSED');
  });

  it('a turn that fits in the budget completes as before', async () => {
    const agentId = await addAgent(server, projectId, { name: 'Roomy', limits: { dailyTokenBudget: 1_000 } });
    const threadId = await newThread(server, token, agentId);
    const events = await sendAndFollow(server, token, threadId, '/tokens 50');
    expect(ofKind(events, 'ExecutionFinished').map((event) => event.status)).toEqual(['COMPLETED']);
    expect(ofKind(events, 'ErrorEvent')).toEqual([]);
  });
});
