import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../support/backends.ts';
import {
  EditQueuedMessageDocument,
  RemoveQueuedMessageDocument,
  ReorderQueuedMessageDocument,
  ResolveSuspensionDocument,
  SendMessageDocument,
  SteerQueuedMessageDocument,
} from '../support/documents.ts';
import { cancel, conversation, execution, queue as queueOf } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { isDurable, ofKind, type RunEvent } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { decodeId } from '../../src/schema/ids.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { report } from '../support/report.ts';
import { settledConversation } from '../support/waits.ts';

// PostgreSQL gets fewer runs: the whole file should stay well within a minute and a half. Each
// count includes the one fixed example (HELD_QUEUE_EDIT) before the random runs.
const NUM_RUNS = { pglite: 26, postgres: 9 };

type Command =
  | { kind: 'send'; flavour: 'plain' | 'slow' | 'approve' | 'ask' }
  | { kind: 'edit'; pick: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'reorder'; pick: number; target: number; stale: boolean }
  | { kind: 'steer'; pick: number }
  | { kind: 'stop' }
  | { kind: 'resolve'; approve: boolean };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  // Approvals and slow runs hold the queue, so that edits, removals and reorders meet pending items.
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      flavour: fc.constantFrom('plain', 'slow', 'slow', 'approve', 'approve', 'ask') as fc.Arbitrary<'plain' | 'slow' | 'approve' | 'ask'>,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(9) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reorder' as const), pick: fc.nat(9), target: fc.nat(9), stale: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('steer' as const), pick: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), approve: fc.boolean() }) },
);

/**
 * A run every machine gets the same way: the approval card holds the thread, so the queue changes
 * always meet pending items (the random runs' ones race the claim, and on a busy machine may all
 * lose it).
 */
const HELD_QUEUE_EDIT: Command[] = [
  { kind: 'send', flavour: 'approve' },
  { kind: 'send', flavour: 'plain' },
  { kind: 'send', flavour: 'plain' },
  { kind: 'edit', pick: 1 },
  { kind: 'reorder', pick: 1, target: 0, stale: true },
  { kind: 'reorder', pick: 2, target: 1, stale: false },
  { kind: 'remove', pick: 2 },
];

describeEachBackend('queue invariants under random operations', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_MUTATIONS_PER_MINUTE: '100000' } });
    ({ token, agentId } = await setUpAgent(server, { project: 'Invariants' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Top-level executions of the thread that hold it (RUNNING or SUSPENDED), as the database has them. */
  async function activeCount(threadId: string): Promise<number> {
    return server.parley.db.prisma.execution.count({
      where: { threadId: decodeId('threadId', threadId, 'Thread'), parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
    });
  }

  /** Outcomes over all runs (`kind:__typename`), to show what the random runs exercised. */
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

  async function runScenario(commands: Command[]) {
    const threadId = await newThread(server, token, agentId);
    const watcher = follow(server, token, threadId);
    /** queueId → its text as last accepted (sent or edited). */
    const accepted = new Map<string, string>();
    const removed = new Set<string>();
    let previousPendingIds: string[] = [];
    let counter = 0;

    const observeQueue = async () => {
      const queue = await queueOf(server, token, threadId);
      const ids = queue.items.map((item) => item.id);
      expect(new Set(ids).size, 'queue ids are unique').toBe(ids.length);
      const positions = queue.items.map((item) => item.position);
      for (let index = 1; index < positions.length; index++) {
        expect(positions[index], `positions strictly increase: ${positions.join(',')}`).toBeGreaterThan(positions[index - 1]!);
      }
      for (const id of ids) {
        expect(accepted.has(id), 'only accepted messages are queued').toBe(true);
        expect(removed.has(id), 'a removed message is gone').toBe(false);
      }
      expect(await activeCount(threadId), 'at most one active execution per thread').toBeLessThanOrEqual(1);
      return queue;
    };

    try {
      for (const command of commands) {
        const queue = await observeQueue();
        const pending = queue.items.filter((item) => item.steeringExecutionId === null);
        const pick = <T,>(items: T[], index: number) => (items.length === 0 ? undefined : items[index % items.length]);
        switch (command.kind) {
          case 'send': {
            const word = `m${++counter}`;
            const text = { plain: word, slow: `/slow 0.3 ${word}`, approve: `/approve ${word}`, ask: `/ask ${word}` }[command.flavour];
            const { sendMessage } = await requestData(server, SendMessageDocument, { threadId, text }, token);
            count(`send:${sendMessage.__typename}`);
            if (sendMessage.__typename === 'MessageQueued') accepted.set(sendMessage.queueId, text);
            // With a question open, the text answers it instead of queueing.
            else expect(sendMessage.__typename).toBe('SuspensionResolved');
            break;
          }
          case 'edit': {
            const item = pick(pending, command.pick);
            if (!item) break;
            const text = `${item.text} e`;
            const { editQueuedMessage } = await requestData(server, EditQueuedMessageDocument, { queueId: item.id, text }, token);
            count(`edit:${editQueuedMessage.__typename}`);
            if (editQueuedMessage.__typename === 'QueueItem') accepted.set(item.id, text);
            else expect(editQueuedMessage.__typename).toBe('ConflictError');
            break;
          }
          case 'remove': {
            const item = pick(queue.items, command.pick);
            if (!item) break;
            const { removeQueuedMessage } = await requestData(server, RemoveQueuedMessageDocument, { queueId: item.id }, token);
            count(`remove:${removeQueuedMessage.__typename}`);
            if (removeQueuedMessage.__typename === 'QueueItemRemoved') removed.add(item.id);
            else expect(removeQueuedMessage.__typename).toBe('ConflictError');
            break;
          }
          case 'reorder': {
            const item = pick(pending, command.pick);
            const target = pick(pending, command.target);
            if (!item || !target) break;
            const current = pending.map((entry) => entry.id);
            // Stale: an order the queue cannot have (the current one reversed), or the order of an earlier look.
            const staleOrder = current.length >= 2 ? [...current].reverse() : previousPendingIds;
            const expectedQueueIds = command.stale ? staleOrder : current;
            const { reorderQueuedMessage: result } = await requestData(
              server,
              ReorderQueuedMessageDocument,
              { queueId: item.id, targetQueueId: target.id, expectedQueueIds },
              token,
            );
            count(`reorder${command.stale ? ' (stale)' : ''}:${result.__typename}`);
            if (command.stale && current.length >= 2) {
              // Refused as stale; or, when the item itself started meanwhile, as started (checked first).
              const stillQueued = (await observeQueue()).items.some((entry) => entry.id === item.id);
              if (stillQueued) expect(result.__typename, 'a reorder against a stale order is refused').toBe('QueueChangedError');
              else expect(['QueueChangedError', 'ConflictError'], 'a reorder against a stale order is refused').toContain(result.__typename);
            }
            if (result.__typename === 'Queue') {
              const moved = current.filter((id) => id !== item.id);
              moved.splice(current.indexOf(target.id), 0, item.id);
              const after = (await observeQueue()).items.filter((entry) => entry.steeringExecutionId === null).map((entry) => entry.id);
              // Items may have started meanwhile; the rest keep the new order.
              expect(after.filter((id) => moved.includes(id))).toEqual(moved.filter((id) => after.includes(id)));
            } else {
              expect(['QueueChangedError', 'ConflictError']).toContain(result.__typename);
            }
            break;
          }
          case 'steer': {
            const item = pick(pending, command.pick);
            if (!item) break;
            const executionId = queue.steerableExecutionId ?? (await conversation(server, token, threadId)).activeExecutionId;
            if (!executionId) break;
            const { steerQueuedMessage } = await requestData(server, SteerQueuedMessageDocument, { queueId: item.id, executionId }, token);
            count(`steer:${steerQueuedMessage.__typename}`);
            expect(['QueueItem', 'ConflictError']).toContain(steerQueuedMessage.__typename);
            break;
          }
          case 'stop': {
            const { activeExecutionId } = await conversation(server, token, threadId);
            if (!activeExecutionId) break;
            const cancelExecution = await cancel(server, token, activeExecutionId);
            count(`stop:${cancelExecution.__typename}`);
            expect(['CancelRequested', 'ConflictError']).toContain(cancelExecution.__typename);
            break;
          }
          case 'resolve': {
            const [open] = (await conversation(server, token, threadId)).openSuspensions;
            if (!open) break;
            const resolution = open.kind === 'APPROVAL' ? { decision: command.approve ? 'APPROVE' : 'DENY' } : { answer: `a${counter}` };
            const { resolveSuspension } = await requestData(
              server,
              ResolveSuspensionDocument,
              { id: open.id, ...(resolution as { decision?: 'APPROVE' | 'DENY'; answer?: string }) },
              token,
            );
            count(`resolve:${resolveSuspension.__typename}`);
            expect(['SuspensionResolved', 'ConflictError']).toContain(resolveSuspension.__typename);
            break;
          }
        }
        previousPendingIds = pending.map((entry) => entry.id);
      }

      // Wind down: answer whatever waits, until the queue is empty and nothing runs.
      const answerOpenCards = async () => {
        for (const open of (await conversation(server, token, threadId)).openSuspensions) {
          const { resolveSuspension } = await requestData(
            server,
            ResolveSuspensionDocument,
            open.kind === 'APPROVAL' ? { id: open.id, decision: 'APPROVE' } : { id: open.id, answer: 'done' },
            token,
          );
          if (resolveSuspension.__typename !== 'SuspensionResolved') {
            // Only a card of a waiting execution is open: one that can never be resolved is stuck.
            const { status } = await execution(server, token, open.executionId);
            expect(status, `open ${open.kind} card ${open.id} of a ${status} execution`).toBe('SUSPENDED');
          }
        }
      };
      const final = await settledConversation(server, token, threadId, { outcome: 'ANY', timeoutMs: 45_000, eachPoll: answerOpenCards });
      expect(final.openSuspensions, 'a card left open on an idle thread').toEqual([]);
      // The log has caught up with that state, and every turn that started has its ExecutionFinished
      // (which may be appended a moment after the execution's status became final).
      await watcher.waitUntil((events) => {
        const finished = new Set(ofKind(events, 'ExecutionFinished').map((event) => event.executionId));
        return (
          (final.eventCursor === '0' || events.some((event) => isDurable(event) && Number(event.cursor) >= Number(final.eventCursor))) &&
          ofKind(events, 'ExecutionStarted').every((started) => finished.has(started.executionId))
        );
      }, 60_000);
      const events: RunEvent[] = watcher.events;

      // Every accepted message that was not removed ran exactly once, with its latest text; removed ones never.
      const ran = new Map<string, string[]>();
      const note = (queueId: string, text: string) => ran.set(queueId, [...(ran.get(queueId) ?? []), text]);
      for (const started of ofKind(events, 'ExecutionStarted')) {
        expect(started.queueId, 'every turn comes from the queue').toBeTruthy();
        note(started.queueId!, started.acceptedText);
      }
      for (const steered of ofKind(events, 'MessageSteered')) {
        count('steered into a run');
        steered.queueIds.forEach((queueId, index) => note(queueId, steered.texts[index]!));
      }
      for (const [queueId, text] of accepted) {
        if (removed.has(queueId)) expect(ran.get(queueId), `removed ${text} never runs`).toBeUndefined();
        else expect(ran.get(queueId), `${text} runs exactly once`).toEqual([text]);
      }
      for (const queueId of ran.keys()) expect(accepted.has(queueId), 'nothing runs that was not accepted').toBe(true);

      // Every execution is terminal; each turn that started has finished.
      const executions = await server.parley.db.prisma.execution.findMany({
        where: { threadId: decodeId('threadId', threadId, 'Thread') },
        select: { status: true },
      });
      for (const { status } of executions) expect(['COMPLETED', 'CANCELLED', 'FAILED', 'REFUSED', 'INTERRUPTED']).toContain(status);
      const finished = new Set(ofKind(events, 'ExecutionFinished').map((event) => event.executionId));
      for (const started of ofKind(events, 'ExecutionStarted')) expect(finished.has(started.executionId)).toBe(true);
    } finally {
      await watcher.close();
    }
  }

  it(
    'every accepted message runs exactly once; the queue stays ordered; one execution at a time',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 15 }), (commands) => runScenario(commands)),
        { numRuns: NUM_RUNS[backend], seed: 20_260_601, endOnFailure: true, examples: [[HELD_QUEUE_EDIT]] },
      );
      report(Object.fromEntries([...outcomes].sort()));
      // The random runs did reach the interesting paths, not only refusals (the longer PGlite run all of them).
      // Which queue changes win their race against the claim depends on the machine's speed, so the
      // check asks for successful queue changes as a whole, not for each kind (HELD_QUEUE_EDIT makes one).
      const reached = ['send:MessageQueued'];
      if (backend === 'pglite') {
        reached.push('resolve:SuspensionResolved', 'reorder (stale):QueueChangedError', 'send:SuspensionResolved', 'stop:CancelRequested');
      }
      for (const key of reached) expect(outcomes.get(key) ?? 0, key).toBeGreaterThan(0);
      const queueChanges = ['edit:QueueItem', 'remove:QueueItemRemoved', 'reorder:Queue'].map((key) => outcomes.get(key) ?? 0);
      expect(queueChanges.reduce((sum, count) => sum + count, 0), 'successful edits, removals and reorders').toBeGreaterThan(0);
    },
    150_000,
  );
});
