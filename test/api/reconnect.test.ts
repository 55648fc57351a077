import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { conversation, execution, messagesOf, queue, recordedReply, send, textOf } from '../support/client.ts';
import { ConversationDocument, QueueDocument, ResolveSuspensionDocument } from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import {
  finishedOf,
  is,
  isDurable,
  ofKind,
  replyTexts,
  startedWith,
  type RunEvent,
} from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { request, requestData, startTestServer, type TestServer } from '../support/server.ts';
import { settledConversation } from '../support/waits.ts';

/** Durable events (integer cursors) must come once each, in order, with none missing from the first. */
function expectGaplessDurable(events: readonly RunEvent[], from = 1) {
  const seqs = events.filter(isDurable).map((event) => Number(event.cursor));
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => from + index));
}

describeEachBackend('reconnecting clients', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Reconnect' }));
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
  });

  function watch(threadId: string, after: string | null = '0') {
    const follower = follow(server, token, threadId, after);
    followers.push(follower);
    return follower;
  }

  const sendText = (threadId: string, text: string) => send(server, token, threadId, text);
  const replyOf = (threadId: string, executionId: string) => recordedReply(server, token, threadId, executionId);

  /**
   * Follows a thread as a flaky client: each connection is dropped (the WebSocket closed) once it
   * has seen `deltasPerConnection` new text deltas, and the client reconnects with the last cursor
   * it received, until the execution started by `text` has finished.
   */
  async function followWithDrops(
    threadId: string,
    text: string,
    deltasPerConnection: number,
    whenLive?: () => Promise<void>,
  ) {
    const all: RunEvent[] = [];
    let after = '0';
    let drops = 0;
    let executionId: string | null = null;
    const done = () => executionId !== null && all.some(finishedOf(executionId));
    while (!done()) {
      const connection = follow(server, token, threadId, after);
      if (whenLive) {
        // The first connection is live once it has answered (replaying the turn before), then the run is started.
        await connection.ready();
        await whenLive();
        whenLive = undefined;
      }
      let cut = 0;
      await connection.waitUntil((seen) => {
        executionId ??= [...all, ...seen].find(startedWith(text))?.executionId ?? null;
        if (executionId === null) return false;
        // The connection drops right after its k-th delta of the run: whatever came after it on
        // this socket never reaches the client.
        let deltas = 0;
        const kth = seen.findIndex((event) => is('TextDelta')(event) && event.executionId === executionId && ++deltas === deltasPerConnection);
        if (kth >= 0) cut = kth + 1;
        else if (seen.some(finishedOf(executionId))) cut = seen.length;
        else return false;
        void connection.close();
        return true;
      });
      await connection.close();
      const received = connection.events.slice(0, cut);
      all.push(...received);
      after = received.at(-1)!.cursor;
      if (!done()) drops++;
    }
    return { all, executionId: executionId!, drops };
  }

  it('a client that drops mid-stream of /tokens 400 resumes from its last cursor without loss', async () => {
    const threadId = await newThread(server, token, agentId);
    // A first reply proves the subscription live before the fast run starts.
    const warmUp = watch(threadId);
    await sendText(threadId, 'warm up');
    await warmUp.waitFor(is('ExecutionFinished'));
    const flaky = followWithDrops(threadId, '/tokens 400', 1, async () => void (await sendText(threadId, '/tokens 400')));
    const { all, executionId, drops } = await flaky;
    expect(drops).toBeGreaterThanOrEqual(1);
    expectGaplessDurable(all);
    const text = replyTexts(all).get(executionId);
    const expected = Array.from({ length: 400 }, (_, index) => `t${index + 1} `).join('');
    expect(text).toBe(expected);
    expect(await replyOf(threadId, executionId)).toBe(expected);
    expect(all.find(finishedOf(executionId))!.status).toBe('COMPLETED');
  });

  // Six seconds leave room for three reconnections even on a busy machine (each drop comes after
  // two deltas, and a reconnection's handshake and replay take time).
  it('several drops during a /slow 6 run: no duplicate, no gap, the recorded reply', async () => {
    const threadId = await newThread(server, token, agentId);
    await sendText(threadId, '/slow 6');
    const { all, executionId, drops } = await followWithDrops(threadId, '/slow 6', 2);
    expect(drops).toBeGreaterThanOrEqual(3);
    expectGaplessDurable(all);
    expect(ofKind(all, 'ExecutionStarted')).toHaveLength(1);
    expect(ofKind(all, 'ExecutionFinished')).toHaveLength(1);
    const expected = `Counting: ${Array.from({ length: 24 }, (_, index) => index + 1).join(' ')}`;
    expect(replyTexts(all).get(executionId)).toBe(expected);
    expect(await replyOf(threadId, executionId)).toBe(expected);
  });

  it('a reconnect after the run ended replays the snapshot of the reply and ExecutionFinished', async () => {
    const threadId = await newThread(server, token, agentId);
    const control = watch(threadId);
    const first = follow(server, token, threadId, '0');
    await sendText(threadId, '/slow 1 see you after the end');
    await first.waitFor(is('TextDelta'));
    await first.close();
    const before = first.events;
    const executionId = before.find(is('ExecutionStarted'))!.executionId!;
    expect(before.some(finishedOf(executionId))).toBe(false);
    await control.waitFor(finishedOf(executionId));

    const again = watch(threadId, before.at(-1)!.cursor);
    await again.waitFor(finishedOf(executionId));
    const replayed = again.events;
    const finishedAt = replayed.findIndex(finishedOf(executionId));
    expect(replayed[finishedAt - 1]).toMatchObject({
      __typename: 'MessageSnapshot',
      executionId,
      textLength: 'You said: "see you after the end"'.length,
    });
    expect(replayed.filter(is('TextDelta'))).toEqual([]);
    const combined = [...before, ...replayed];
    expectGaplessDurable(combined);
    expect(replyTexts(combined).get(executionId)).toBe('You said: "see you after the end"');
    expect(replyTexts(combined).get(executionId)).toBe(await replyOf(threadId, executionId));
  });

  it('a reload at any moment (conversation, then runEvents after its cursor) shows exactly the state', async () => {
    const threadId = await newThread(server, token, agentId);
    const control = watch(threadId);
    await sendText(threadId, '/slow 2');
    const started = await control.waitFor(is('ExecutionStarted'));
    const executionId = started.executionId!;
    const expected = `Counting: ${Array.from({ length: 8 }, (_, index) => index + 1).join(' ')}`;

    const reloads: { cursor: string; partial: string; ended: boolean; follower: Follower }[] = [];
    // By what the control shows, not by its deltas: if it went live after the first chunk, that
    // chunk came in its snapshot.
    const chunksShown = (events: RunEvent[]) => (replyTexts(events).get(executionId) ?? '').match(/\d+/g)?.length ?? 0;
    for (const chunks of [0, 2, 5, 8]) {
      await control.waitUntil((events) => chunksShown(events) >= chunks);
      const state = await conversation(server, token, threadId);
      const reply = messagesOf(state).find((message) => message.executionId === executionId && message.role === 'ASSISTANT');
      const partial = textOf(reply);
      expect(expected.startsWith(partial)).toBe(true);
      if (state.activeExecutionId !== null) expect(state.activeExecutionId).toBe(executionId);
      reloads.push({ cursor: state.eventCursor, partial, ended: state.activeExecutionId === null, follower: watch(threadId, state.eventCursor) });
    }
    await control.waitFor(finishedOf(executionId));

    // A reload read after the run ended (a loaded machine is that slow) shows the whole reply itself.
    for (const { partial } of reloads.filter((reload) => reload.ended)) expect(partial).toBe(expected);
    for (const { cursor, partial, follower } of reloads.filter((reload) => !reload.ended)) {
      await follower.waitFor(finishedOf(executionId));
      const events = follower.events;
      // Nothing the reload already showed comes again; what follows it comes in order, without holes.
      if (events.some(isDurable)) expectGaplessDurable(events, Number(cursor) + 1);
      const texts = replyTexts(events);
      // The client shows the recorded partial reply first, then follows it to the end.
      const shown = texts.get(executionId) ?? '';
      expect(partial + shown.slice(partial.length)).toBe(expected);
      expect(shown).toBe(expected);
    }
    expect(await replyOf(threadId, executionId)).toBe(expected);

    // A reload when idle: following from its cursor brings only what happens next.
    const idle = await conversation(server, token, threadId);
    expect(idle.activeExecutionId).toBeNull();
    const next = watch(threadId, idle.eventCursor);
    const queued = await sendText(threadId, 'and then');
    await next.waitFor(is('ExecutionFinished'));
    expect(next.events[0]).toMatchObject({ __typename: 'MessageQueued', queueId: queued.queueId });
    expectGaplessDurable(next.events, Number(idle.eventCursor) + 1);
  });

  it('waiting subscriptions do not block history reads, queue operations or approvals', async () => {
    const threadId = await newThread(server, token, agentId);
    const others = await Promise.all(Array.from({ length: 4 }, () => newThread(server, token, agentId)));
    const control = watch(threadId);
    await sendText(threadId, '/approve with many watchers');
    const opened = await control.waitFor(is('SuspensionOpened'));
    // Many waiting subscriptions: on this thread, on idle threads, with and without a cursor.
    const waiting: Follower[] = [];
    for (let index = 0; index < 24; index++) {
      const target = index % 3 === 0 ? threadId : others[index % others.length]!;
      waiting.push(watch(target, index % 2 === 0 ? '0' : null));
    }
    // Each following this thread from its start is set up: it has answered with the replayed log.
    await Promise.all(waiting.filter((_, index) => index % 6 === 0).map((follower) => follower.ready()));

    const reads = await Promise.all([
      request(server, ConversationDocument, { threadId }, token),
      request(server, QueueDocument, { threadId }, token),
      ...others.map((other) => request(server, ConversationDocument, { threadId: other }, token)),
    ]);
    for (const read of reads) expect(read.errors).toBeUndefined();
    expect((await conversation(server, token, threadId)).openSuspensions.map((s) => s.id)).toEqual([opened.suspensionId]);

    const pending = await sendText(threadId, 'queued while watched');
    expect((await queue(server, token, threadId)).items.map((item) => item.id)).toEqual([pending.queueId]);
    const resolved = await requestData(
      server,
      ResolveSuspensionDocument,
      { id: opened.suspensionId, decision: 'APPROVE' },
      token,
    );
    expect(resolved.resolveSuspension.__typename).toBe('SuspensionResolved');
    const next = await control.waitFor(startedWith('queued while watched'));
    await control.waitFor(finishedOf(next.executionId!));
    // Every watcher of the thread saw the approved run and the next one end.
    await Promise.all(
      waiting
        .filter((_, index) => index % 3 === 0)
        .map((follower) => follower.waitFor(finishedOf(next.executionId!))),
    );
    await settledConversation(server, token, threadId);
    expect(await replyOf(threadId, opened.executionId!)).toBe('Approved: with many watchers');
  });
});

describeWithServices('resuming while a run is being finalized (PostgreSQL)', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    server = await startTestServer({ backend: 'postgres' });
    ({ token, agentId } = await setUpAgent(server, { project: 'Finalizing' }));
  });

  afterAll(async () => {
    await Promise.all(followers.map((follower) => follower.close()));
    await server?.stop();
  });

  it('a run ends atomically: while its settlement waits for the thread lock it is still running, and a client resuming then gets the whole reply', async () => {
    const threadId = await newThread(server, token, agentId);
    const live = follow(server, token, threadId);
    followers.push(live);
    await send(server, token, threadId, '/slow 1 the end of the reply');
    const started = await live.waitFor(is('ExecutionStarted'));
    const executionId = started.executionId!;
    await live.waitFor(is('TextDelta'));
    // The client dropped right after ExecutionStarted: its last cursor is that event's.
    const lastCursor = started.cursor;

    // A row lock on the thread holds back the run's settlement (status, final text, ExecutionFinished
    // are committed together under that lock): nobody can see half an ending.
    const url = new URL(server.env.DATABASE_URL!);
    const schema = url.searchParams.get('schema')!;
    url.searchParams.delete('schema');
    const blocker = new pg.Client({ connectionString: url.toString() });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SET LOCAL search_path TO "${schema}"`);
      await blocker.query('SELECT id FROM thread WHERE id = $1 FOR NO KEY UPDATE', [decodeId('threadId', threadId, 'Thread')]);
      // Everything has streamed; the run now waits to settle.
      await live.waitUntil((events) => replyTexts(events).get(executionId) === 'You said: "the end of the reply"');
      expect(await execution(server, token, executionId)).toMatchObject({ __typename: 'Execution', status: 'RUNNING' });
      const resumed = follow(server, token, threadId, lastCursor);
      followers.push(resumed);
      await resumed.waitFor(is('MessageSnapshot'));
      await blocker.query('COMMIT');
      await resumed.waitFor(finishedOf(executionId));
      const texts = replyTexts(resumed.events);
      expect(texts.get(executionId)).toBe('You said: "the end of the reply"');
    } finally {
      await blocker.query('ROLLBACK').catch(() => {});
      await blocker.end();
    }
  });
});
