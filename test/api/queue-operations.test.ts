import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventsSubscription } from '../gql/graphql.ts';
import { describeEachBackend } from '../support/backends.ts';
import { replyTexts } from '../support/client-rules.ts';
import {
  CancelExecutionDocument,
  ConversationDocument,
  CreateThreadDocument,
  EditQueuedMessageDocument,
  QueueDocument,
  RemoveQueuedMessageDocument,
  ReorderQueuedMessageDocument,
  RunEventsDocument,
  SendMessageDocument,
  SteerQueuedMessageDocument,
} from '../support/documents.ts';
import {
  isolatedEnv,
  request,
  requestData,
  startTestServer,
  subscribe,
  wsClient,
  type Subscription,
  type TestServer,
} from '../support/server.ts';

type RunEvent = RunEventsSubscription['runEvents'];
type Of<K extends RunEvent['__typename']> = Extract<RunEvent, { __typename: K }>;

/** One thread followed from its start over its own connection, with the waits the tests need. */
interface ThreadSession {
  threadId: string;
  subscription: Subscription<RunEventsSubscription>;
  events(): RunEvent[];
  send(text: string): Promise<string>;
  started(queueId: string): Promise<Of<'ExecutionStarted'>>;
  finished(executionId: string): Promise<Of<'ExecutionFinished'>>;
  close(): Promise<void>;
}

async function openThread(server: TestServer, token: string, agentId: string): Promise<ThreadSession> {
  const created = await requestData(server, CreateThreadDocument, { agentId }, token);
  if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
  return followThread(server, token, created.createThread.id);
}

/** Follows a thread from its first event (also on a restarted server). */
function followThread(server: TestServer, token: string, threadId: string): ThreadSession {
  const client: Client = wsClient(server, token);
  const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
  const events = () => subscription.events.map((event) => event.runEvents);
  const find = <K extends RunEvent['__typename']>(kind: K, match: (event: Of<K>) => boolean) =>
    events().find((event): event is Of<K> => event.__typename === kind && match(event as Of<K>));
  return {
    threadId,
    subscription,
    events,
    async send(text) {
      const sent = await requestData(server, SendMessageDocument, { threadId, text }, token);
      if (sent.sendMessage.__typename !== 'MessageQueued') throw new Error(JSON.stringify(sent));
      return sent.sendMessage.queueId;
    },
    async started(queueId) {
      const match = (event: Of<'ExecutionStarted'>) => event.startedQueueId === queueId;
      await subscription.waitFor(() => find('ExecutionStarted', match) !== undefined);
      return find('ExecutionStarted', match)!;
    },
    async finished(executionId) {
      const match = (event: Of<'ExecutionFinished'>) => event.executionId === executionId;
      await subscription.waitFor(() => find('ExecutionFinished', match) !== undefined);
      return find('ExecutionFinished', match)!;
    },
    async close() {
      subscription.close();
      await client.dispose();
    },
  };
}

function ofType<K extends RunEvent['__typename']>(events: RunEvent[], kind: K): Of<K>[] {
  return events.filter((event): event is Of<K> => event.__typename === kind);
}

describeEachBackend('queue operations', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    const user = await server.createUser();
    token = user.token;
    const directory = server.parley.directory;
    const project = await directory.createProject(await directory.findUser(user.userId), { name: 'Queue' });
    agentId = (await directory.createAgent(null, project.id, { name: 'Demo', model: 'demo:default' })).id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const queueOf = async (threadId: string) => (await requestData(server, QueueDocument, { threadId }, token)).queue;
  const userTexts = async (threadId: string) => {
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    return conversation.messages.edges
      .filter((edge) => edge.node.role === 'USER')
      .map((edge) => edge.node.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join(''));
  };
  const edit = async (queueId: string, text: string) => {
    const result = await request(server, EditQueuedMessageDocument, { queueId, text }, token);
    return result.data?.editQueuedMessage ?? { __typename: 'GraphQLErrors' as const, errors: result.errors };
  };
  const remove = async (queueId: string) =>
    (await requestData(server, RemoveQueuedMessageDocument, { queueId }, token)).removeQueuedMessage;
  const reorder = async (queueId: string, targetQueueId: string, expectedQueueIds: string[]) =>
    (await requestData(server, ReorderQueuedMessageDocument, { queueId, targetQueueId, expectedQueueIds }, token))
      .reorderQueuedMessage;
  const steer = async (queueId: string, executionId: string) => {
    const result = await request(server, SteerQueuedMessageDocument, { queueId, executionId }, token);
    return result.data?.steerQueuedMessage ?? { __typename: 'GraphQLErrors' as const, errors: result.errors };
  };
  const cancel = async (executionId: string) =>
    (await requestData(server, CancelExecutionDocument, { executionId }, token)).cancelExecution;

  it(
    'keeps pending messages in their saved order while a run occupies the thread; edit and remove change only what they name',
    async () => {
      const session = await openThread(server, token, agentId);
      const { threadId } = session;
      const busyQueueId = await session.send('/slow 30 busy');
      const busy = await session.started(busyQueueId);

      const a = await session.send('/slow 30 a');
      const b = await session.send('b');
      const c = await session.send('c');
      await session.subscription.waitFor(() => ofType(session.events(), 'MessageQueued').length === 4);
      expect(ofType(session.events(), 'MessageQueued').map((event) => [event.queueId, event.text])).toEqual([
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
      const d = await session.send('d');
      const afterEdits = await queueOf(threadId);
      expect(afterEdits.items.map((item) => [item.id, item.text, item.position])).toEqual([
        [a, '/slow 30 a', queued.items[0]!.position],
        [b, 'b edited', queued.items[1]!.position],
        [d, 'd', expect.any(Number)],
      ]);
      expect(afterEdits.items[2]!.position).toBeGreaterThan(queued.items[1]!.position);

      // Stop the busy run: `a` is claimed, leaves the queue and enters the conversation.
      expect(await cancel(busy.executionId!)).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
      const aStarted = await session.started(a);
      expect(aStarted.acceptedText).toBe('/slow 30 a');
      const busyFinished = await session.finished(busy.executionId!);
      expect(busyFinished.status).toBe('CANCELLED');
      expect(session.events().indexOf(busyFinished)).toBeLessThan(session.events().indexOf(aStarted));
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

      await cancel(aStarted.executionId!);
      const dStarted = await session.started(d);
      await session.finished(dStarted.executionId!);
      const started = ofType(session.events(), 'ExecutionStarted');
      expect(started.map((event) => [event.startedQueueId, event.acceptedText])).toEqual([
        [busyQueueId, '/slow 30 busy'],
        [a, '/slow 30 a'],
        [b, 'b edited'],
        [d, 'd'],
      ]);
      expect(await userTexts(threadId)).toEqual(['/slow 30 busy', '/slow 30 a', 'b edited', 'd']);
      expect((await queueOf(threadId)).items).toEqual([]);
      await session.close();
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
        const user = await first.createUser();
        const directory = first.parley.directory;
        const project = await directory.createProject(await directory.findUser(user.userId), { name: 'Reorder' });
        const agent = await directory.createAgent(null, project.id, {
          name: 'Demo',
          model: 'demo:default',
          tools: ['approve_action'],
        });
        const session = await openThread(first, user.token, agent.id);
        const { threadId } = session;
        // A run waiting for approval holds the thread, however long the test takes (and across the restart).
        await session.send('/approve hold the thread');
        await session.subscription.waitFor(() => ofType(session.events(), 'SuspensionOpened').length === 1);
        const held = ofType(session.events(), 'SuspensionOpened')[0]!.executionId!;

        const a = await session.send('a');
        const b = await session.send('b');
        const c = await session.send('c');
        const d = await session.send('d');
        const move = async (queueId: string, targetQueueId: string, expectedQueueIds: string[]) =>
          (await requestData(first!, ReorderQueuedMessageDocument, { queueId, targetQueueId, expectedQueueIds }, user.token))
            .reorderQueuedMessage;
        const read = async (target: TestServer) =>
          (await requestData(target, QueueDocument, { threadId }, user.token)).queue.items;
        const initial = await read(first);
        expect(initial.map((item) => item.id)).toEqual([a, b, c, d]);
        const slots = initial.map((item) => item.position);
        const textOf = new Map([[a, 'a'], [b, 'b'], [c, 'c'], [d, 'd']]);
        const expectOrder = (items: { id: string; text: string; position: number }[], ids: string[]) => {
          expect(items.map((item) => [item.id, item.text])).toEqual(ids.map((id) => [id, textOf.get(id)]));
          // The items keep the set of positions they had: only who holds which one changes.
          expect(items.map((item) => item.position)).toEqual(slots);
        };

        const down = await move(d, b, [a, b, c, d]);
        if (down.__typename !== 'Queue') throw new Error(JSON.stringify(down));
        expectOrder(down.items, [a, d, b, c]);
        const up = await move(d, c, [a, d, b, c]);
        if (up.__typename !== 'Queue') throw new Error(JSON.stringify(up));
        expectOrder(up.items, [a, b, c, d]);
        const moved = await move(a, c, [a, b, c, d]);
        if (moved.__typename !== 'Queue') throw new Error(JSON.stringify(moved));
        expectOrder(moved.items, [b, c, a, d]);
        const afterMoves = await read(first);
        expectOrder(afterMoves, [b, c, a, d]);

        // A stale or partial expected order is a 409 with the current order; nothing moves.
        for (const expected of [[a, b, c, d], [b, c, a], [b, c, a, d, d]]) {
          expect(await move(d, b, expected)).toMatchObject({ __typename: 'QueueChangedError', currentQueueIds: [b, c, a, d] });
        }
        expect(await read(first)).toEqual(afterMoves);
        // The claim of the approval run, then one per move: subscribers refresh their queue panels.
        await session.subscription.waitFor(() => ofType(session.events(), 'QueueUpdated').length >= 4);

        await session.close();
        await first.stop();
        first = null;
        second = await startTestServer({ backend, env });
        // After the restart: the same items, texts and positions, and the approval still holds the thread.
        expect(await read(second)).toEqual(afterMoves);
        const again = followThread(second, user.token, threadId);
        const e = await again.send('e');
        const withE = await read(second);
        expect(withE.map((item) => item.id)).toEqual([b, c, a, d, e]);
        expect(withE[4]!.position).toBeGreaterThan(withE[3]!.position);

        // Once the approval is stopped, the messages run in their saved order.
        const stopped = await requestData(second, CancelExecutionDocument, { executionId: held }, user.token);
        expect(stopped.cancelExecution).toMatchObject({ __typename: 'CancelRequested', cancelRequested: true });
        const lastStart = await again.started(e);
        await again.finished(lastStart.executionId!);
        expect(ofType(again.events(), 'ExecutionStarted').map((event) => event.acceptedText)).toEqual([
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
      const session = await openThread(server, token, agentId);
      let holder = await session.started(await session.send('/slow 30 hold'));
      const outcomes: string[] = [];
      const rounds = 8;
      for (let round = 0; round < rounds; round++) {
        const original = `/slow 30 round ${round}`;
        const edited = `/slow 30 round ${round} edited`;
        const queueId = await session.send(original);
        let edit_: Awaited<ReturnType<typeof edit>>;
        if (round % 4 === 0) {
          // Edit and Stop at the same moment.
          [edit_] = await Promise.all([edit(queueId, edited), cancel(holder.executionId!)]);
        } else if (round % 4 === 1) {
          // Edit right after the Stop was recorded, while the run winds down and the consumer claims.
          await cancel(holder.executionId!);
          edit_ = await edit(queueId, edited);
        } else if (round % 4 === 2) {
          // Edit as the run's end is announced, about when the consumer claims the next item.
          await cancel(holder.executionId!);
          await session.finished(holder.executionId!);
          edit_ = await edit(queueId, edited);
        } else {
          // The edit lands first (the control: it must be the text that runs).
          edit_ = await edit(queueId, edited);
          await cancel(holder.executionId!);
        }
        const started = await session.started(queueId);
        if (edit_.__typename === 'QueueItem') {
          expect(edit_).toMatchObject({ id: queueId, text: edited });
          expect(started.acceptedText).toBe(edited);
          outcomes.push('edited');
        } else {
          expect(edit_).toMatchObject({ __typename: 'ConflictError', code: 'CONFLICT' });
          expect(started.acceptedText).toBe(original);
          outcomes.push('refused');
        }
        expect((await session.finished(holder.executionId!)).status).toBe('CANCELLED');
        holder = started;
      }
      await cancel(holder.executionId!);
      await session.finished(holder.executionId!);
      const accepted = ofType(session.events(), 'ExecutionStarted').map((event) => event.acceptedText);
      expect(accepted).toHaveLength(rounds + 1);
      // What the conversation recorded is what each execution accepted.
      expect(await userTexts(session.threadId)).toEqual(accepted);
      expect((await queueOf(session.threadId)).items).toEqual([]);
      expect(outcomes).toHaveLength(rounds);
      expect(outcomes).toContain('edited');
      await session.close();
    },
  );

  it('steering reserves an item for the running execution, which takes it at its next boundary', async () => {
    const session = await openThread(server, token, agentId);
    const { threadId } = session;
    const firstQueueId = await session.send('/slow 3 first');
    const run = await session.started(firstQueueId);
    const executionId = run.executionId!;
    const queueId = await session.send('steer me');

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

    const finished = await session.finished(executionId);
    expect(finished.status).toBe('COMPLETED');
    const steered = ofType(session.events(), 'MessageSteered');
    expect(steered).toEqual([
      expect.objectContaining({ executionId, queueIds: [queueId], texts: ['steer me'] }),
    ]);
    const events = session.events();
    expect(events.indexOf(steered[0]!)).toBeLessThan(events.indexOf(finished));
    const reply = replyTexts(session.subscription.events as never).get(executionId)!;
    expect(reply.startsWith('You said: "first"')).toBe(true);
    expect(reply.endsWith('You said: "steer me"')).toBe(true);

    expect((await queueOf(threadId)).items).toEqual([]);
    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    expect(conversation.activeExecutionId).toBeNull();
    const messages = conversation.messages.edges.map((edge) => edge.node);
    expect(messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    const parts = messages[1]!.parts.filter((part) => part.__typename !== 'ReasoningPart');
    expect(parts).toContainEqual({ __typename: 'SteeredInputPart', queueId, text: 'steer me' });
    const marker = parts.findIndex((part) => part.__typename === 'SteeredInputPart');
    const textBefore = parts.slice(0, marker).map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
    const textAfter = parts.slice(marker + 1).map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
    expect(textBefore).toBe('You said: "first"');
    expect(textAfter).toBe('You said: "steer me"');
    // Steered, never run as a turn of its own.
    expect(ofType(session.events(), 'ExecutionStarted').map((event) => event.startedQueueId)).toEqual([firstQueueId]);
    await session.close();
  });

  it(
    'refuses a steer for a finished execution; reservations return to their saved positions when the run is stopped',
    async () => {
      const session = await openThread(server, token, agentId);
      const { threadId } = session;
      const done = await session.started(await session.send('done'));
      expect((await session.finished(done.executionId!)).status).toBe('COMPLETED');
      const running = await session.started(await session.send('/slow 30 running'));
      const q1 = await session.send('/slow 30 one');
      const q2 = await session.send('two');
      const q3 = await session.send('three');
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

      expect(await cancel(running.executionId!)).toMatchObject({ __typename: 'CancelRequested' });
      expect((await session.finished(running.executionId!)).status).toBe('CANCELLED');
      // The head reservation went back to the head, so it is the next turn.
      const next = await session.started(q1);
      const starts = ofType(session.events(), 'ExecutionStarted');
      expect(starts.at(-1)).toBe(next);
      const returned = await queueOf(threadId);
      expect(returned.items.map((item) => [item.id, item.text, item.position, item.steeringExecutionId])).toEqual([
        [q2, 'two', before.items[1]!.position, null],
        [q3, 'three', before.items[2]!.position, null],
      ]);
      expect(returned.steerableExecutionId).toBe(next.executionId);
      expect(ofType(session.events(), 'MessageSteered')).toEqual([]);

      await cancel(next.executionId!);
      const last = await session.started(q3);
      await session.finished(last.executionId!);
      expect(ofType(session.events(), 'ExecutionStarted').map((event) => event.acceptedText)).toEqual([
        'done',
        '/slow 30 running',
        '/slow 30 one',
        'two',
        'three',
      ]);
      expect(ofType(session.events(), 'MessageSteered')).toEqual([]);
      await session.close();
    },
  );

  it(
    'a reservation returned by a Stop is back in its place before the next claim, even while the queue keeps changing',
    async () => {
      for (let round = 0; round < 3; round++) {
        const session = await openThread(server, token, agentId);
        const running = await session.started(await session.send('/slow 30'));
        const q1 = await session.send(`one ${round}`);
        const q2 = await session.send(`two ${round}`);
        expect(await steer(q1, running.executionId!)).toMatchObject({ __typename: 'QueueItem' });
        const starts = () => ofType(session.events(), 'ExecutionStarted');
        // Unchanged edits of the second item keep the consumers looking at the thread while the Stop lands.
        const edits = (async () => {
          while (starts().length < 2) {
            if ((await edit(q2, `two ${round}`)).__typename !== 'QueueItem') return;
          }
        })();
        expect(await cancel(running.executionId!)).toMatchObject({ __typename: 'CancelRequested' });
        await session.subscription.waitFor(() => starts().length >= 2);
        await edits;
        // The head was reserved; once returned it is the head again, so it runs next.
        expect(starts().slice(0, 2).map((event) => event.acceptedText)).toEqual(['/slow 30', `one ${round}`]);
        await session.finished((await session.started(q2)).executionId!);
        expect(starts().map((event) => event.startedQueueId)).toEqual([starts()[0]!.startedQueueId, q1, q2]);
        await session.close();
      }
    },
  );

  it('a steer racing the end of a run is consumed once or runs once as its own turn, never lost', async () => {
    const session = await openThread(server, token, agentId);
    const outcomes: string[] = [];
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const holdText = `hold ${round}`;
      const steerText = `steer ${round}`;
      const hold = await session.started(await session.send(`/slow 0.3 ${holdText}`));
      const holdId = hold.executionId!;
      const queueId = await session.send(steerText);
      if (round % 4 === 1) {
        // Mid-stream.
        await session.subscription.waitFor(() =>
          session.events().some((event) => event.__typename === 'TextDelta' && event.executionId === holdId),
        );
      } else if (round % 4 === 2) {
        // Right as the reply's last chunk arrives: the run is at (or past) its last boundary.
        await session.subscription.waitFor((all) => replyTexts(all as never).get(holdId) === `You said: "${holdText}"`);
      } else if (round % 4 === 3) {
        // As the end is announced, while the reservations are released and the consumer claims the item.
        await session.finished(holdId);
      }
      const result = await steer(queueId, holdId);
      expect(['QueueItem', 'ConflictError']).toContain(result.__typename);
      await session.finished(holdId);
      const steered = ofType(session.events(), 'MessageSteered').filter((event) => event.queueIds.includes(queueId));
      if (steered.length > 0) {
        expect(result.__typename).toBe('QueueItem');
        expect(steered).toEqual([expect.objectContaining({ executionId: holdId, texts: [steerText] })]);
        expect(replyTexts(session.subscription.events as never).get(holdId)).toContain(`You said: "${steerText}"`);
        outcomes.push('steered');
      } else {
        const own = await session.started(queueId);
        expect(own.acceptedText).toBe(steerText);
        await session.finished(own.executionId!);
        outcomes.push(result.__typename === 'QueueItem' ? 'returned' : 'refused');
      }
      // Never both, never twice.
      const runs = ofType(session.events(), 'ExecutionStarted').filter((event) => event.startedQueueId === queueId);
      const takes = ofType(session.events(), 'MessageSteered').filter((event) => event.queueIds.includes(queueId));
      expect(runs.length + takes.length).toBe(1);
    }
    const { conversation } = await requestData(server, ConversationDocument, { threadId: session.threadId }, token);
    expect(conversation.activeExecutionId).toBeNull();
    expect((await queueOf(session.threadId)).items).toEqual([]);
    // A steer sent once the run had ended is refused, always.
    expect(outcomes.filter((_, round) => round % 4 === 3)).toEqual(['refused', 'refused']);
    const ownTurns = outcomes.filter((outcome) => outcome !== 'steered').length;
    expect(ofType(session.events(), 'ExecutionStarted')).toHaveLength(rounds + ownTurns);
    expect(await userTexts(session.threadId)).toHaveLength(rounds + ownTurns);
    await session.close();
  });
});
