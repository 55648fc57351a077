import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { cancel, send } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { addMember, newThread, setUpAgent, type User } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// One user's long runs cannot keep another user's turn waiting: each user (and project) has a
// share of the instance's run slots, and a freed slot goes to the user running the fewest.

describeEachBackend('Fair run slots (8 per instance, 4 per user)', (backend) => {
  let server: TestServer;
  let hog: User & { agentId: string; projectId: string };
  let other: User;

  beforeAll(async () => {
    server = await startTestServer({
      backend,
      env: { PARLEY_MAX_CONCURRENT_RUNS: '8', PARLEY_MAX_CONCURRENT_RUNS_PER_USER: '4', PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT: '8' },
    });
    hog = await setUpAgent(server, { project: 'Slots' });
    other = await addMember(server, hog.projectId);
  });

  afterAll(async () => {
    await server?.stop();
  });

  // Read from the instance's memory, not the database: polling PGlite would compete with the admissions it waits for.
  const threadsOf = new Map<string, Set<string>>();
  const runningOf = (userId: string) =>
    server.parley.execution.running.all().filter((run) => threadsOf.get(userId)?.has(run.threadId)).length;
  const threadOf = async (user: User) => {
    const threadId = await newThread(server, user.token, hog.agentId);
    threadsOf.set(user.userId, (threadsOf.get(user.userId) ?? new Set()).add(decodeId('threadId', threadId, 'Thread')));
    return threadId;
  };
  const deferredByUserCap = async () =>
    (await server.parley.metrics.registry.getSingleMetric('parley_run_admissions_deferred_total')!.get()).values.find(
      (value) => value.labels.reason === 'user',
    )?.value ?? 0;

  it('a user holding 20 slow runs gets 4 slots; another user’s turn starts at once while they still run', async () => {
    const hogThreads = await Promise.all(Array.from({ length: 20 }, () => threadOf(hog)));
    for (const threadId of hogThreads) await send(server, hog.token, threadId, '/slow 120 hold');
    await eventually(async () => (await deferredByUserCap()) >= 16, 60_000, 'the 16 deferred turns counted');
    expect(runningOf(hog.userId)).toBe(4);

    const follower = follow(server, other.token, await threadOf(other));
    try {
      const sentAt = Date.now();
      await send(server, other.token, follower.threadId, 'hello');
      await follower.waitFor((event) => event.__typename === 'ExecutionStarted', 10_000);
      const waitedMs = Date.now() - sentAt;
      expect(waitedMs).toBeLessThan(5_000);
    } finally {
      await follower.close();
    }
    // It started beside the first user's runs, not after them: those are still running, the rest pending.
    expect(runningOf(hog.userId)).toBe(4);
    expect(await server.parley.db.prisma.queueItem.count({ where: { thread: { ownerId: hog.userId } } })).toBe(16);
  }, 120_000);

  it('with every slot taken, a freed slot goes to the user running the fewest, before the hog’s waiting turns', async () => {
    // The other user (its "hello" answered) takes the other 4 slots.
    const fillers = await Promise.all(Array.from({ length: 4 }, () => threadOf(other)));
    for (const threadId of fillers) await send(server, other.token, threadId, '/slow 120 fill');
    await eventually(() => runningOf(other.userId) === 4, 60_000, 'the other user’s 4 runs');
    const third = await addMember(server, hog.projectId);
    const follower = follow(server, third.token, await threadOf(third));
    try {
      await send(server, third.token, follower.threadId, '/slow 120 my turn');
      expect(server.parley.execution.running.all()).toHaveLength(8);

      // One of the hog's runs ends: the third user (no run here) gets its slot, not the hog's next turn.
      const hogRun = server.parley.execution.running.all().find((run) => threadsOf.get(hog.userId)!.has(run.threadId))!;
      await cancel(server, hog.token, encodeId('Execution', hogRun.executionId));
      await follower.waitFor((event) => event.__typename === 'ExecutionStarted', 15_000);
    } finally {
      await follower.close();
    }
    expect(runningOf(hog.userId)).toBe(3);
  }, 120_000);
});
