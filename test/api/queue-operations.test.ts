import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import { cancel, conversation, expectTypename, messagesOf, mutate, queue, send, textOf } from '../support/client.ts';
import {
  EditQueuedMessageDocument,
  RemoveQueuedMessageDocument,
  ReorderQueuedMessageDocument,
  SteerQueuedMessageDocument,
} from '../support/documents.ts';
import { follow, type Follower } from '../support/follower.ts';
import { finishedOf, is, ofKind, replyTexts, startedFrom } from '../support/run-events.ts';
import { followNewThread, setUpAgent } from '../support/scenario.ts';
import { isolatedEnv, requestData, startTestServer, type TestServer } from '../support/server.ts';

describeEachBackend('queue operations', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Queue' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const sendText = async (follower: Follower, text: string) => (await send(server, token, follower.threadId, text)).queueId;
  const queueOf = (threadId: string) => queue(server, token, threadId);
  const userTexts = async (threadId: string) =>
    messagesOf(await conversation(server, token, threadId))
      .filter((message) => message.role === 'USER')
      .map(textOf);
  const edit = (queueId: string, text: string) =>
    mutate(server, EditQueuedMessageDocument, { queueId, text }, token, 'editQueuedMessage');
  const remove = async (queueId: string) =>
    (await requestData(server, RemoveQueuedMessageDocument, { queueId }, token)).removeQueuedMessage;
  const reorder = async (queueId: string, targetQueueId: string, expectedQueueIds: string[]) =>
    (await requestData(server, ReorderQueuedMessageDocument, { queueId, targetQueueId, expectedQueueIds }, token))
      .reorderQueuedMessage;
  const steer = (queueId: string, executionId: string) =>
    mutate(server, SteerQueuedMessageDocument, { queueId, executionId }, token, 'steerQueuedMessage');
  const stop = (executionId: string) => cancel(server, token, executionId);

  it(
    'keeps pending messages in their saved order while a run occupies the thread; edit and remove change only what they name',
    async () => {
      const follower = await followNewThread(server, token, agentId);
      const { threadId } = follower;
      const busyQueueId = await sendText(follower, '/slow 30 busy');
      const busy = await follower.waitFor(startedFrom(busyQueueId));

      const a = await sendText(follower, '/slow 30 a');
      const b = await sendText(follower, 'b');
      const c = await sendText(follower, 'c');
      await follower.waitUntil((events) => ofKind(events, 'MessageQueued').length === 4);
      expect(ofKind(follower.events, 'MessageQueued').map((event) => [event.queueId, event.text])).toEqual([
        [busyQueueId, '/slow 30 busy'],
        [a, '/slow 30 a'],
        [b, 'b'],
        [c, 'c'],
      ]);

      const queued = await queueOf(threadId);
      expect(queued.items.map((item) => [item.id, item.text, item.steeringExecutionId])).toEqual([
        [a, '/slow 30 a', null],
        [b, 'b', null],
        [c, 'c', null],
      ]);
      const positions = queued.items.map((item) => item.position);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      expect(new Set(positions).size).toBe(3);
      expect(queued.steerableExecutionId).toBe(busy.executionId);
      // Pending messages are only in the queue, not yet in the conversation.
      expect(await userTexts(threadId)).toEqual(['/slow 30 busy']);

      // Edit keeps the id and the position; an empty text is refused and changes nothing.
      expect(await edit(b, 'b edited')).toEqual({
        __typename: 'QueueItem',
        id: b,
        text: 'b edited',
        position: queued.items[1]!.position,
        steeringExecutionId: null,
      });
      expect(await edit(b, '   ')).toMatchObject({ __typename: 'InvalidInputError' });
      expect(await remove(c)).toEqual({ __typename: 'QueueItemRemoved', queueId: c });
      expect(await remove(c)).toMatchObject({ __typename: 'NotFoundError' });
      const d = await sendText(follower, 'd');
      const afterEdits = await queueOf(threadId);
      expect(afterEdits.items.map((item) => [item.id, item.text, item.position])).toEqual([
        [a, '/slow 30 a', queued.items[0]!.position],
        [b, 'b edited', queued.items[1]!.position],
        [d, 'd', expect.any(Number)],
      ]);
      expect(afterEdits.items[2]!.position).toBeGreaterThan(queued.items[1]!.position);

      // Stop the busy run: `a` is claimed, leaves the queue and enters the conversation.
      expect(await stop(busy.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      const aStarted = await follower.waitFor(startedFrom(a));
      expect(aStarted.acceptedText).toBe('/slow 30 a');
      const busyFinished = await follower.waitFor(finishedOf(busy.executionId!));
      expect(busyFinished.status).toBe('CANCELLED');
      expect(follower.events.indexOf(busyFinished)).toBeLessThan(follower.events.indexOf(aStarted));
      expect((await queueOf(threadId)).items.map((item) => [item.id, item.text])).toEqual([
        [b, 'b edited'],
        [d, 'd'],
      ]);
      expect(await userTexts(threadId)).toEqual(['/slow 30 busy', '/slow 30 a']);

      // A started item can no longer be edited, removed, reordered or steered; nothing changes.
      expect(await edit(a, 'too late')).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
      expect(await remove(a)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
      expect(await reorder(a, b, [b, d])).toMatchObject({ __typename: 'ConflictError' });
      expect(await reorder(d, a, [b, d])).toEqual({
        __typename: 'QueueChangedError',
        currentQueueIds: [b, d],
        message: expect.any(String),
        code: expect.any(String),
      });
      expect(await steer(a, aStarted.executionId!)).toMatchObject({ __typename: 'ConflictError' });
      expect((await queueOf(threadId)).items.map((item) => [item.id, item.text, item.steeringExecutionId])).toEqual([
        [b, 'b edited', null],
        [d, 'd', null],
      ]);

      await stop(aStarted.executionId!);
      const dStarted = await follower.waitFor(startedFrom(d));
      await follower.waitFor(finishedOf(dStarted.executionId!));
      const started = ofKind(follower.events, 'ExecutionStarted');
      expect(started.map((event) => [event.queueId, event.acceptedText])).toEqual([
        [busyQueueId, '/slow 30 busy'],
        [a, '/slow 30 a'],
        [b, 'b edited'],
        [d, 'd'],
      ]);
      expect(await userTexts(threadId)).toEqual(['/slow 30 busy', '/slow 30 a', 'b edited', 'd']);
      expect((await queueOf(threadId)).items).toEqual([]);
      await follower.close();
    },
  );

  it(
    'reorder moves an item to the target’s place and shifts those between; positions survive a reload and a restart',
    async () => {
      const dataDir = backend === 'pglite' ? await mkdtemp(join(tmpdir(), 'parley-queue-')) : null;
      const env = dataDir ? { PARLEY_DATA_DIR: dataDir } : isolatedEnv('postgres');
      let first: TestServer | null = await startTestServer({ backend, env, dropSchemaOnStop: false });
      let second: TestServer | null = null;
      try {
        const user = await setUpAgent(first, { project: 'Reorder' });
        const follower = await followNewThread(first, user.token, user.agentId);
        const { threadId } = follower;
        const sendTo = async (target: TestServer, text: string) => (await send(target, user.token, threadId, text)).queueId;
        // A run waiting for approval holds the thread, however long the test takes (and across the restart).
        await sendTo(first, '/approve hold the thread');
        const held = (await follower.waitFor(is('SuspensionOpened'))).executionId!;

        const a = await sendTo(first, 'a');
        const b = await sendTo(first, 'b');
        const c = await sendTo(first, 'c');
        const d = await sendTo(first, 'd');
        const move = async (queueId: string, targetQueueId: string, expectedQueueIds: string[]) =>
          (await requestData(first!, ReorderQueuedMessageDocument, { queueId, targetQueueId, expectedQueueIds }, user.token))
            .reorderQueuedMessage;
        const read = async (target: TestServer) => (await queue(target, user.token, threadId)).items;
        const initial = await read(first);
        expect(initial.map((item) => item.id)).toEqual([a, b, c, d]);
        const slots = initial.map((item) => item.position);
        const textOf = new Map([[a, 'a'], [b, 'b'], [c, 'c'], [d, 'd']]);
        const expectOrder = (items: { id: string; text: string; position: number }[], ids: string[]) => {
          expect(items.map((item) => [item.id, item.text])).toEqual(ids.map((id) => [id, textOf.get(id)]));
          // The items keep the set of positions they had: only who holds which one changes.
          expect(items.map((item) => item.position)).toEqual(slots);
        };

        expectOrder(expectTypename(await move(d, b, [a, b, c, d]), 'Queue').items, [a, d, b, c]);
        expectOrder(expectTypename(await move(d, c, [a, d, b, c]), 'Queue').items, [a, b, c, d]);
        expectOrder(expectTypename(await move(a, c, [a, b, c, d]), 'Queue').items, [b, c, a, d]);
        const afterMoves = await read(first);
        expectOrder(afterMoves, [b, c, a, d]);

        // A stale or partial expected order is a 409 with the current order; nothing moves.
        for (const expected of [[a, b, c, d], [b, c, a], [b, c, a, d, d]]) {
          expect(await move(d, b, expected)).toMatchObject({ __typename: 'QueueChangedError', currentQueueIds: [b, c, a, d] });
        }
        expect(await read(first)).toEqual(afterMoves);
        // The claim of the approval run, then one per move: subscribers refresh their queue panels.
        await follower.waitUntil((events) => ofKind(events, 'QueueUpdated').length >= 4);

        await follower.close();
        await first.stop();
        first = null;
        second = await startTestServer({ backend, env });
        // After the restart: the same items, texts and positions, and the approval still holds the thread.
        expect(await read(second)).toEqual(afterMoves);
        const again = follow(second, user.token, threadId);
        const e = await sendTo(second, 'e');
        const withE = await read(second);
        expect(withE.map((item) => item.id)).toEqual([b, c, a, d, e]);
        expect(withE[4]!.position).toBeGreaterThan(withE[3]!.position);

        // Once the approval is stopped, the messages run in their saved order.
        const stopped = await cancel(second, user.token, held);
        expect(stopped).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
        const lastStart = await again.waitFor(startedFrom(e));
        await again.waitFor(finishedOf(lastStart.executionId!));
        expect(ofKind(again.events, 'ExecutionStarted').map((event) => event.acceptedText)).toEqual([
          '/approve hold the thread',
          'b',
          'c',
          'a',
          'd',
          'e',
        ]);
        await again.close();
      } finally {
        await first?.stop();
        await second?.stop();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
    // Two servers start on a fresh on-disk database here, which is slow on a busy machine.
    60_000,
  );

  it(
    'an edit racing the claim is either used or refused, never accepted and then lost',
    async () => {
      const follower = await followNewThread(server, token, agentId);
      let holder = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30 hold')));
      const outcomes: string[] = [];
      const rounds = 8;
      for (let round = 0; round < rounds; round++) {
        const original = `/slow 30 round ${round}`;
        const edited = `/slow 30 round ${round} edited`;
        const queueId = await sendText(follower, original);
        let edit_: Awaited<ReturnType<typeof edit>>;
        if (round % 4 === 0) {
          // Edit and Stop at the same moment.
          [edit_] = await Promise.all([edit(queueId, edited), stop(holder.executionId!)]);
        } else if (round % 4 === 1) {
          // Edit right after the Stop was recorded, while the run winds down and the consumer claims.
          await stop(holder.executionId!);
          edit_ = await edit(queueId, edited);
        } else if (round % 4 === 2) {
          // Edit as the run's end is announced, about when the consumer claims the next item.
          await stop(holder.executionId!);
          await follower.waitFor(finishedOf(holder.executionId!));
          edit_ = await edit(queueId, edited);
        } else {
          // The edit lands first (the control: it must be the text that runs).
          edit_ = await edit(queueId, edited);
          await stop(holder.executionId!);
        }
        const started = await follower.waitFor(startedFrom(queueId));
        if (edit_.__typename === 'QueueItem') {
          expect(edit_).toMatchObject({ id: queueId, text: edited });
          expect(started.acceptedText).toBe(edited);
          outcomes.push('edited');
        } else {
          expect(edit_).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
          expect(started.acceptedText).toBe(original);
          outcomes.push('refused');
        }
        expect((await follower.waitFor(finishedOf(holder.executionId!))).status).toBe('CANCELLED');
        holder = started;
      }
      await stop(holder.executionId!);
      await follower.waitFor(finishedOf(holder.executionId!));
      const accepted = ofKind(follower.events, 'ExecutionStarted').map((event) => event.acceptedText);
      expect(accepted).toHaveLength(rounds + 1);
      // What the conversation recorded is what each execution accepted.
      expect(await userTexts(follower.threadId)).toEqual(accepted);
      expect((await queueOf(follower.threadId)).items).toEqual([]);
      expect(outcomes).toHaveLength(rounds);
      expect(outcomes).toContain('edited');
      await follower.close();
    },
  );

  it('steering reserves an item for the running execution, which takes it at its next boundary', async () => {
    const follower = await followNewThread(server, token, agentId);
    const { threadId } = follower;
    const firstQueueId = await sendText(follower, '/slow 3 first');
    const run = await follower.waitFor(startedFrom(firstQueueId));
    const executionId = run.executionId!;
    const queueId = await sendText(follower, 'steer me');

    expect(await steer(queueId, executionId)).toEqual({
      __typename: 'QueueItem',
      id: queueId,
      text: 'steer me',
      position: expect.any(Number),
      steeringExecutionId: executionId,
    });
    const reserved = await queueOf(threadId);
    expect(reserved.steerableExecutionId).toBe(executionId);
    expect(reserved.items.map((item) => [item.id, item.steeringExecutionId])).toEqual([[queueId, executionId]]);
    // A reserved item no longer changes.
    expect(await edit(queueId, 'changed')).toMatchObject({ __typename: 'ConflictError' });
    expect(await remove(queueId)).toMatchObject({ __typename: 'ConflictError' });

    const finished = await follower.waitFor(finishedOf(executionId));
    expect(finished.status).toBe('COMPLETED');
    const steered = ofKind(follower.events, 'MessageSteered');
    expect(steered).toEqual([
      expect.objectContaining({ executionId, queueIds: [queueId], texts: ['steer me'] }),
    ]);
    const events = follower.events;
    expect(events.indexOf(steered[0]!)).toBeLessThan(events.indexOf(finished));
    const reply = replyTexts(follower.events).get(executionId)!;
    expect(reply.startsWith('You said: "first"')).toBe(true);
    expect(reply.endsWith('You said: "steer me"')).toBe(true);

    expect((await queueOf(threadId)).items).toEqual([]);
    const state = await conversation(server, token, threadId);
    expect(state.activeExecutionId).toBeNull();
    const messages = messagesOf(state);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    const parts = messages[1]!.parts.filter((part) => part.__typename !== 'ReasoningPart');
    expect(parts).toContainEqual({ __typename: 'SteeredInputPart', queueId, text: 'steer me' });
    const marker = parts.findIndex((part) => part.__typename === 'SteeredInputPart');
    const textBefore = textOf({ parts: parts.slice(0, marker) });
    const textAfter = textOf({ parts: parts.slice(marker + 1) });
    expect(textBefore).toBe('You said: "first"');
    expect(textAfter).toBe('You said: "steer me"');
    // Steered, never run as a turn of its own.
    expect(ofKind(follower.events, 'ExecutionStarted').map((event) => event.queueId)).toEqual([firstQueueId]);
    await follower.close();
  });

  it(
    'refuses a steer for a finished execution; reservations return to their saved positions when the run is stopped',
    async () => {
      const follower = await followNewThread(server, token, agentId);
      const { threadId } = follower;
      const done = await follower.waitFor(startedFrom(await sendText(follower, 'done')));
      expect((await follower.waitFor(finishedOf(done.executionId!))).status).toBe('COMPLETED');
      const running = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30 running')));
      const q1 = await sendText(follower, '/slow 30 one');
      const q2 = await sendText(follower, 'two');
      const q3 = await sendText(follower, 'three');
      const before = await queueOf(threadId);

      expect(await steer(q1, done.executionId!)).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
      expect(await steer(q1, 'not-an-id')).toMatchObject({ __typename: 'InvalidInputError' });
      expect(await queueOf(threadId)).toEqual(before);

      expect(await steer(q1, running.executionId!)).toMatchObject({ __typename: 'QueueItem', steeringExecutionId: running.executionId });
      expect(await steer(q3, running.executionId!)).toMatchObject({ __typename: 'QueueItem', steeringExecutionId: running.executionId });
      const reserved = await queueOf(threadId);
      expect(reserved.items.map((item) => [item.id, item.position, item.steeringExecutionId])).toEqual([
        [q1, before.items[0]!.position, running.executionId],
        [q2, before.items[1]!.position, null],
        [q3, before.items[2]!.position, running.executionId],
      ]);
      // Reserved items are neither part of the expected order nor movable.
      expect(await reorder(q2, q1, [q2])).toMatchObject({ __typename: 'QueueChangedError', currentQueueIds: [q2] });
      expect(await reorder(q1, q2, [q1, q2, q3])).toMatchObject({ __typename: 'QueueChangedError', currentQueueIds: [q2] });
      expect(await queueOf(threadId)).toEqual(reserved);

      expect(await stop(running.executionId!)).toMatchObject({ __typename: 'CancelRequested' });
      expect((await follower.waitFor(finishedOf(running.executionId!))).status).toBe('CANCELLED');
      // The head reservation went back to the head, so it is the next turn.
      const next = await follower.waitFor(startedFrom(q1));
      const starts = ofKind(follower.events, 'ExecutionStarted');
      expect(starts.at(-1)).toBe(next);
      const returned = await queueOf(threadId);
      expect(returned.items.map((item) => [item.id, item.text, item.position, item.steeringExecutionId])).toEqual([
        [q2, 'two', before.items[1]!.position, null],
        [q3, 'three', before.items[2]!.position, null],
      ]);
      expect(returned.steerableExecutionId).toBe(next.executionId);
      expect(ofKind(follower.events, 'MessageSteered')).toEqual([]);

      await stop(next.executionId!);
      const last = await follower.waitFor(startedFrom(q3));
      await follower.waitFor(finishedOf(last.executionId!));
      expect(ofKind(follower.events, 'ExecutionStarted').map((event) => event.acceptedText)).toEqual([
        'done',
        '/slow 30 running',
        '/slow 30 one',
        'two',
        'three',
      ]);
      expect(ofKind(follower.events, 'MessageSteered')).toEqual([]);
      await follower.close();
    },
  );

  it(
    'a reservation returned by a Stop is back in its place before the next claim, even while the queue keeps changing',
    async () => {
      for (let round = 0; round < 3; round++) {
        const follower = await followNewThread(server, token, agentId);
        const running = await follower.waitFor(startedFrom(await sendText(follower, '/slow 30')));
        const q1 = await sendText(follower, `one ${round}`);
        const q2 = await sendText(follower, `two ${round}`);
        expect(await steer(q1, running.executionId!)).toMatchObject({ __typename: 'QueueItem' });
        const starts = () => ofKind(follower.events, 'ExecutionStarted');
        // Unchanged edits of the second item keep the consumers looking at the thread while the Stop lands.
        const edits = (async () => {
          while (starts().length < 2) {
            if ((await edit(q2, `two ${round}`)).__typename !== 'QueueItem') return;
          }
        })();
        expect(await stop(running.executionId!)).toMatchObject({ __typename: 'CancelRequested' });
        await follower.waitUntil((events) => ofKind(events, 'ExecutionStarted').length >= 2);
        await edits;
        // The head was reserved; once returned it is the head again, so it runs next.
        expect(starts().slice(0, 2).map((event) => event.acceptedText)).toEqual(['/slow 30', `one ${round}`]);
        await follower.waitFor(finishedOf((await follower.waitFor(startedFrom(q2))).executionId!));
        expect(starts().map((event) => event.queueId)).toEqual([starts()[0]!.queueId, q1, q2]);
        await follower.close();
      }
    },
  );

  it('a steer racing the end of a run is consumed once or runs once as its own turn, never lost', async () => {
    const follower = await followNewThread(server, token, agentId);
    const outcomes: string[] = [];
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const holdText = `hold ${round}`;
      const steerText = `steer ${round}`;
      const hold = await follower.waitFor(startedFrom(await sendText(follower, `/slow 0.3 ${holdText}`)));
      const holdId = hold.executionId!;
      const queueId = await sendText(follower, steerText);
      if (round % 4 === 1) {
        // Mid-stream.
        await follower.waitFor(is('TextDelta', holdId));
      } else if (round % 4 === 2) {
        // Right as the reply's last chunk arrives: the run is at (or past) its last boundary.
        await follower.waitUntil((all) => replyTexts(all).get(holdId) === `You said: "${holdText}"`);
      } else if (round % 4 === 3) {
        // As the end is announced, while the reservations are released and the consumer claims the item.
        await follower.waitFor(finishedOf(holdId));
      }
      const result = await steer(queueId, holdId);
      expect(['QueueItem', 'ConflictError']).toContain(result.__typename);
      await follower.waitFor(finishedOf(holdId));
      const steered = ofKind(follower.events, 'MessageSteered').filter((event) => event.queueIds.includes(queueId));
      if (steered.length > 0) {
        expect(result.__typename).toBe('QueueItem');
        expect(steered).toEqual([expect.objectContaining({ executionId: holdId, texts: [steerText] })]);
        expect(replyTexts(follower.events).get(holdId)).toContain(`You said: "${steerText}"`);
        outcomes.push('steered');
      } else {
        const own = await follower.waitFor(startedFrom(queueId));
        expect(own.acceptedText).toBe(steerText);
        await follower.waitFor(finishedOf(own.executionId!));
        outcomes.push(result.__typename === 'QueueItem' ? 'returned' : 'refused');
      }
      // Never both, never twice.
      const runs = ofKind(follower.events, 'ExecutionStarted').filter((event) => event.queueId === queueId);
      const takes = ofKind(follower.events, 'MessageSteered').filter((event) => event.queueIds.includes(queueId));
      expect(runs.length + takes.length).toBe(1);
    }
    expect((await conversation(server, token, follower.threadId)).activeExecutionId).toBeNull();
    expect((await queueOf(follower.threadId)).items).toEqual([]);
    // A steer sent once the run had ended is refused, always.
    expect(outcomes.filter((_, round) => round % 4 === 3)).toEqual(['refused', 'refused']);
    const ownTurns = outcomes.filter((outcome) => outcome !== 'steered').length;
    expect(ofKind(follower.events, 'ExecutionStarted')).toHaveLength(rounds + ownTurns);
    expect(await userTexts(follower.threadId)).toHaveLength(rounds + ownTurns);
    await follower.close();
  });
});
