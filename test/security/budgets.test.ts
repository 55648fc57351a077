import { afterAll, beforeAll, expect, it } from 'vitest';
import { translate } from '../../src/i18n/catalog.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { cancel, conversation, execution, messagesOf, queue, send, textOf } from '../support/client.ts';
import type { Follower } from '../support/follower.ts';
import { errorParts, shownFailure } from '../support/recorded-failure.ts';
import { ofKind } from '../support/run-events.ts';
import { addAgent, followNewThread, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

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

// A server-wide cap on the runs one instance executes at once: the rest wait in their queues.

describeEachBackend('Concurrent runs per instance (PARLEY_MAX_CONCURRENT_RUNS=2)', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_MAX_CONCURRENT_RUNS: '2' } });
    ({ token, agentId } = await setUpAgent(server, { project: 'Run cap' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const started = (follower: Follower) => ofKind(follower.events, 'ExecutionStarted');
  const finished = (follower: Follower) => ofKind(follower.events, 'ExecutionFinished');

  it('4 threads: 2 run, 2 wait pending in their queues (not failed) and start when a slot frees; all complete', async () => {
    const followers = await Promise.all(Array.from({ length: 4 }, () => followNewThread(server, token, agentId)));
    for (const follower of followers) await send(server, token, follower.threadId, '/slow 60 hold');

    await eventually(() => followers.filter((follower) => started(follower).length > 0).length >= 2, 30_000, 'two runs');
    const [running, waiting] = partition(followers, (follower) => started(follower).length > 0);
    expect(running).toHaveLength(2);
    for (const follower of waiting) {
      const pending = await queue(server, token, follower.threadId);
      expect(pending.items.map((item) => item.text)).toEqual(['/slow 60 hold']);
      expect(finished(follower)).toEqual([]);
    }

    // A Stop frees a slot: a waiting thread starts, and never more than two run.
    for (const follower of running) await cancel(server, token, started(follower)[0]!.executionId!);
    await eventually(() => followers.every((follower) => started(follower).length > 0), 30_000, 'the waiting runs');
    for (const follower of waiting) await cancel(server, token, started(follower)[0]!.executionId!);
    await Promise.all(followers.map((follower) => follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length > 0, 60_000)));
    expect(followers.map((follower) => finished(follower).map((event) => event.status))).toEqual(
      Array.from({ length: 4 }, () => ['CANCELLED']),
    );

    for (const follower of followers) await send(server, token, follower.threadId, '/slow 1 done');
    await Promise.all(followers.map((follower) => follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length > 1, 60_000)));
    expect(followers.map((follower) => finished(follower)[1]!.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED']);

    // Never more than two at once: each run started while at most one other was running.
    const ids = followers.flatMap((follower) => started(follower).map((event) => decodeId('executionId', event.executionId!, 'Execution')));
    const runs = await server.parley.db.prisma.execution.findMany({
      where: { id: { in: ids } },
      select: { startedAt: true, finishedAt: true },
    });
    expect(runs).toHaveLength(8);
    const span = (run: (typeof runs)[number]) => [run.startedAt!.getTime(), run.finishedAt!.getTime()] as const;
    for (const run of runs) {
      const [start] = span(run);
      const runningAtStart = runs.filter((other) => span(other)[0] <= start && start < span(other)[1]);
      expect(runningAtStart.length).toBeLessThanOrEqual(2);
    }
    await Promise.all(followers.map((follower) => follower.close()));
  });
});

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
