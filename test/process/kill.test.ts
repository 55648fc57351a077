import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithServices } from '../support/backends.ts';
import { conversation, execution, messagesOf, queue, send, textOf } from '../support/client.ts';
import { follow, type Follower } from '../support/follower.ts';
import { startInstance, stopAllChildren, type Instance } from '../support/instances.ts';
import { finishedOf, is, ofKind, startedWith } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { dropSchema, isolatedEnv, startTestServer } from '../support/server.ts';

const KILLED = '/slow 30 this run dies with its process';
const AFTER = ['second message', 'third message'];

const followers: Follower[] = [];

afterAll(async () => {
  await Promise.all(followers.map((follower) => follower.close().catch(() => {})));
  await stopAllChildren();
});

const serve = (env: Record<string, string>) =>
  startInstance({ PARLEY_LOG_LEVEL: 'silent', PARLEY_CONSUMER_SWEEP_MS: '100', PARLEY_TEXT_FLUSH_MS: '50', ...env });

/** Creates a thread on the first process, queues the slow run and two more, and waits for the run to start. */
async function startDoomedRun(first: Instance, token: string, agentId: string) {
  const threadId = await newThread(first, token, agentId);
  const watcher = follow(first, token, threadId);
  followers.push(watcher);
  for (const text of [KILLED, ...AFTER]) await send(first, token, threadId, text);
  const started = await watcher.waitFor(startedWith(KILLED));
  // Some of the reply is out (and recorded) before the process dies.
  await watcher.waitFor(is('TextDelta'));
  return { threadId, executionId: started.executionId! };
}

/** On the surviving process: the killed run is INTERRUPTED, never replayed, and the queue runs on in order. */
async function expectRecovered(server: Instance, token: string, threadId: string, killedId: string) {
  const watcher = follow(server, token, threadId);
  followers.push(watcher);
  const last = await watcher.waitFor(startedWith(AFTER[1]!), 30_000);
  await watcher.waitFor(finishedOf(last.executionId!), 30_000);
  const events = watcher.events;

  // The killed run: one ExecutionStarted, finished INTERRUPTED with one error, never started again.
  expect(events.filter(startedWith(KILLED))).toHaveLength(1);
  const interrupted = events.find(finishedOf(killedId))!;
  expect(interrupted.status).toBe('INTERRUPTED');
  expect(ofKind(events, 'ErrorEvent').filter((event) => event.executionId === killedId)).toEqual([
    expect.objectContaining({ reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' }),
  ]);
  expect(await execution(server, token, killedId)).toMatchObject({
    status: 'INTERRUPTED',
    error: { reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' },
  });

  // The queued messages ran afterwards, in order, once each, none lost.
  const starts = ofKind(events, 'ExecutionStarted');
  expect(starts.map((event) => event.acceptedText)).toEqual([KILLED, ...AFTER]);
  for (const start of starts.slice(1)) expect(events.find(finishedOf(start.executionId!))!.status).toBe('COMPLETED');
  // One turn after the other in the thread's log: the next message starts only after the
  // interrupted run has been finalized (its ErrorEvent and ExecutionFinished), and so on.
  const turns = starts.map((start) => [events.indexOf(start), events.findIndex(finishedOf(start.executionId!))]);
  for (let index = 1; index < turns.length; index++) {
    expect.soft(turns[index]![0], `"${starts[index]!.acceptedText}" started before the turn before it finished`).toBeGreaterThan(
      turns[index - 1]![1]!,
    );
  }
  expect((await queue(server, token, threadId)).items).toEqual([]);

  const messages = messagesOf(await conversation(server, token, threadId));
  expect(messages.filter((message) => message.role === 'USER').map(textOf)).toEqual([KILLED, ...AFTER]);
  const killedReply = messages.filter((message) => message.role === 'ASSISTANT' && message.executionId === killedId);
  expect(killedReply).toHaveLength(1);
  expect(killedReply[0]!.parts.filter((part) => part.__typename === 'ErrorPart')).toEqual([
    expect.objectContaining({ reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' }),
  ]);
  // What was recorded of it before the kill stays a prefix of what it would have said.
  expect('You said: "this run dies with its process"'.startsWith(textOf(killedReply[0]))).toBe(true);
  expect(messages.filter((message) => message.role === 'ASSISTANT').slice(1).map(textOf)).toEqual(
    AFTER.map((text) => `You said: "${text}"`),
  );
  const finalState = await conversation(server, token, threadId);
  expect(finalState.activeExecutionId).toBeNull();
}

describe('kill -9 of a server process', () => {
  let dataDir: string | null = null;
  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('embedded: the next start interrupts the killed run once; the queued messages then run in order', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parley-kill-'));
    const first = await serve({ PARLEY_DATA_DIR: dataDir });
    const token = first.demoToken!;
    const agentId = first.demoAgentId!;
    expect(token).toBeTruthy();
    expect(agentId).toBeTruthy();

    const { threadId, executionId } = await startDoomedRun(first, token, agentId);
    await first.kill();

    const second = await serve({ PARLEY_DATA_DIR: dataDir });
    expect(second.demoToken).toBe(token);
    await expectRecovered(second, token, threadId, executionId);
  }, 90_000);
});

describeWithServices('kill -9 of a server process on PostgreSQL', () => {
  it(
    'another instance interrupts the killed instance’s run once its lease expires',
    async () => {
      const env = isolatedEnv('postgres');
      const started: Instance[] = [];
      try {
        // Set up the schema, a user and an agent in-process, then leave the database to the children.
        const setup = await startTestServer({ backend: 'postgres', env, dropSchemaOnStop: false });
        const { token, agentId } = await setUpAgent(setup, { project: 'Kill' });
        await setup.stop();

        const lease = { PARLEY_LEASE_MS: '600', PARLEY_CONSUMER_SWEEP_MS: '100' };
        // The doomed instance's lease is a little longer, so that a busy machine delaying its
        // heartbeat does not make the other instance take it for dead while it lives.
        const first = await serve({ ...env, ...lease, PARLEY_LEASE_MS: '2000' });
        started.push(first);
        const { threadId, executionId } = await startDoomedRun(first, token, agentId);
        const second = await serve({ ...env, ...lease });
        started.push(second);
        // While the first instance lives, the second leaves its run alone.
        expect((await execution(second, token, executionId)).status).toBe('RUNNING');
        await first.kill();
        await expectRecovered(second, token, threadId, executionId);
      } finally {
        await Promise.all(started.map((instance) => instance.stop()));
        await dropSchema(env.DATABASE_URL!);
      }
    },
    90_000,
  );
});
