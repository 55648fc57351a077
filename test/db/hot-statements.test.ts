import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/domain/errors.ts';
import { appendThreadEvents } from '../../src/events/event-log.ts';
import { Admission } from '../../src/execution/admission.ts';
import { RunningExecutions } from '../../src/execution/running-executions.ts';
import { failureOfThrown } from '../../src/execution/ending.ts';
import { recordedFailure } from '../../src/errors/recorded-failure.ts';
import { RunSlots } from '../../src/execution/run-slots.ts';
import { rootRunRecording } from '../../src/recording/root-run-recording.ts';
import type { RunListener } from '../../src/recording/run-listener.ts';
import type { ThreadEvent } from '../../src/events/thread-event.ts';
import { translate } from '../../src/i18n/catalog.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { writeReplyParts } from '../../src/storage/run-statements.ts';
import { describeEachBackend } from '../support/backends.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The hot paths written as raw SQL (src/events/event-log.ts, src/auth/access.ts,
 * src/queue/queue-service.ts, src/execution/admission.ts, src/recording/run-recording.ts): what each
 * statement writes, pinned on both databases.
 */
describeEachBackend('hot SQL statements', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend, env: { PARLEY_CONSUMER_SWEEP_MS: '600000' } });
    await server.parley.execution.consumer.stop();
  });
  afterAll(async () => server?.stop());

  async function newThread() {
    const { directory } = server.parley.services;
    const { user, token } = await directory.createUser({ email: `hot-${Math.random().toString(36).slice(2)}@example.test` });
    const project = await directory.createProject(null, { name: 'hot paths' });
    await directory.addMember(null, { projectId: project.id, user: user.id, role: 'member' });
    const agent = await directory.createAgent(null, project.id, { name: 'agent', model: 'demo:default' });
    const thread = await directory.createThread(user, { agentId: agent.id });
    return { user, token, project, agent, thread };
  }

  describe('the event append', () => {
    it('bumps lastEventSeq and inserts the events with consecutive seqs, in the order given', async () => {
      const { thread } = await newThread();
      const prisma = server.parley.db.prisma;
      const first = await appendThreadEvents(server.parley.db.sql, thread.id, [{ executionId: null, payload: { type: 'QueueUpdated' } }]);
      const records = await appendThreadEvents(server.parley.db.sql, thread.id, [
        { executionId: null, payload: { type: 'QueueUpdated' } },
        { executionId: 'e1', parentExecutionId: 'p1', payload: { type: 'ExecutionUpdated', status: 'RUNNING' } },
      ]);
      expect(first.map((record) => record.seq)).toEqual([1]);
      expect(records.map((record) => record.seq)).toEqual([2, 3]);
      const row = await prisma.thread.findUniqueOrThrow({ where: { id: thread.id } });
      expect(row.lastEventSeq).toBe(3);
      const stored = await prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } });
      expect(stored.map((event) => [event.seq, event.type, event.executionId, event.parentExecutionId])).toEqual([
        [1, 'QueueUpdated', null, null],
        [2, 'QueueUpdated', null, null],
        [3, 'ExecutionUpdated', 'e1', 'p1'],
      ]);
      expect(stored[2]!.payload).toEqual({ type: 'ExecutionUpdated', status: 'RUNNING' });
      expect(stored[2]!.createdAt.toISOString()).toBe(records[1]!.createdAt);
    });

    it('appends nothing to a thread that does not exist, and says so', async () => {
      const prisma = server.parley.db.prisma;
      await expect(appendThreadEvents(server.parley.db.sql, 'no-such-thread', [{ executionId: null, payload: { type: 'QueueUpdated' } }])).rejects.toThrow(
        /does not exist/,
      );
      expect(await prisma.threadEvent.count({ where: { threadId: 'no-such-thread' } })).toBe(0);
    });

    it('keeps seqs unique and gapless under concurrent appends', async () => {
      const { thread } = await newThread();
      const prisma = server.parley.db.prisma;
      await Promise.all(
        Array.from({ length: 8 }, () => appendThreadEvents(server.parley.db.sql, thread.id, [{ executionId: null, payload: { type: 'QueueUpdated' } }])),
      );
      const seqs = (await prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } })).map((event) => event.seq);
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  });

  describe('the access check', () => {
    it('answers the thread with its agent, and whether a question card is open, for a member with the scope', async () => {
      const { user, thread, agent } = await newThread();
      const found = await server.parley.services.access.thread(user, thread.id, 'agent:execute');
      const stored = await server.parley.db.prisma.thread.findUniqueOrThrow({ where: { id: thread.id }, include: { agent: true } });
      expect(found).toEqual({ ...stored, openQuestion: false });
      expect(found.agent.id).toBe(agent.id);
    });

    it('reports a TEST thread of another member as not found, a SHARED one as found', async () => {
      const { project, thread } = await newThread();
      const { db } = server.parley;
      const { directory, access } = server.parley.services;
      const { user: other } = await directory.createUser({ email: `other-${Math.random().toString(36).slice(2)}@example.test` });
      await directory.addMember(null, { projectId: project.id, user: other.id, role: 'member' });
      await expect(access.thread(other, thread.id, 'agent:read')).rejects.toBeInstanceOf(NotFoundError);
      await db.prisma.thread.update({ where: { id: thread.id }, data: { kind: 'SHARED' } });
      expect((await access.thread(other, thread.id, 'agent:read')).id).toBe(thread.id);
    });

    it('reports a non-member as not found (naming what was asked for) and a viewer without the scope as forbidden', async () => {
      const { project, thread } = await newThread();
      const { db } = server.parley;
      const { directory, access } = server.parley.services;
      await db.prisma.thread.update({ where: { id: thread.id }, data: { kind: 'SHARED' } });
      const { user: stranger } = await directory.createUser({ email: `stranger-${Math.random().toString(36).slice(2)}@example.test` });
      await expect(access.thread(stranger, thread.id, 'agent:read', { entity: 'Execution', id: 'x1' })).rejects.toThrow('Execution x1 was not found.');
      const { user: viewer } = await directory.createUser({ email: `viewer-${Math.random().toString(36).slice(2)}@example.test` });
      await directory.addMember(null, { projectId: project.id, user: viewer.id, role: 'viewer' });
      expect((await access.thread(viewer, thread.id, 'agent:read')).id).toBe(thread.id);
      await expect(access.thread(viewer, thread.id, 'agent:execute')).rejects.toBeInstanceOf(ForbiddenError);
    });
  });

  describe('the enqueue', () => {
    it('queues at the tail with increasing positions, the item, its files and its MessageQueued event in one statement', async () => {
      const { user, thread } = await newThread();
      const { db } = server.parley;
      const { queue } = server.parley.services;
      const first = await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'one' });
      const second = await queue.enqueueOrAnswer(user, {
        threadId: thread.id,
        text: 'two',
        attachments: [{ filename: 'note.txt', mediaType: 'text/plain', data: new TextEncoder().encode('hello') }],
      });
      const items = await db.prisma.queueItem.findMany({ where: { threadId: thread.id }, orderBy: { position: 'asc' }, include: { attachments: true } });
      expect(items.map((item) => [item.text, item.position, item.userId])).toEqual([
        ['one', 1, user.id],
        ['two', 2, user.id],
      ]);
      expect(items[1]!.attachments.map((file) => [file.filename, file.mediaType, file.size, file.dataBase64])).toEqual([
        ['note.txt', 'text/plain', 5, Buffer.from('hello').toString('base64')],
      ]);
      expect([first.seq, second.seq]).toEqual([1, 2]);
      expect(second.payload).toEqual({ type: 'MessageQueued', queueId: items[1]!.id, text: 'two', idempotencyKey: null });
      const events = await db.prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } });
      expect(events.map((event) => [event.seq, event.type, event.payload])).toEqual([
        [1, 'MessageQueued', first.payload],
        [2, 'MessageQueued', second.payload],
      ]);
      const row = await db.prisma.thread.findUniqueOrThrow({ where: { id: thread.id } });
      expect([row.lastEventSeq, row.queueTailPosition]).toEqual([2, 2]);
    });

    it('gives concurrent sends distinct, increasing positions and seqs', async () => {
      const { user, thread } = await newThread();
      const { db } = server.parley;
      const { queue } = server.parley.services;
      await Promise.all(Array.from({ length: 10 }, (_, index) => queue.enqueueOrAnswer(user, { threadId: thread.id, text: `m${index}` })));
      const items = await db.prisma.queueItem.findMany({ where: { threadId: thread.id }, orderBy: { position: 'asc' } });
      expect(items.map((item) => item.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const seqs = (await db.prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } })).map((event) => event.seq);
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('answers a repeated idempotency key with the first event, also once the first item is gone, and under concurrency', async () => {
      const { user, thread } = await newThread();
      const { db } = server.parley;
      const { queue } = server.parley.services;
      const sends = await Promise.all(
        Array.from({ length: 6 }, () => queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'once', idempotencyKey: 'k1' })),
      );
      expect(new Set(sends.map((event) => event.seq)).size).toBe(1);
      expect(await db.prisma.queueItem.count({ where: { threadId: thread.id } })).toBe(1);
      await db.prisma.queueItem.deleteMany({ where: { threadId: thread.id } });
      const again = await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'once', idempotencyKey: 'k1' });
      expect(again).toEqual(sends[0]);
      expect(await db.prisma.queueItem.count({ where: { threadId: thread.id } })).toBe(0);
      expect(await db.prisma.threadEvent.count({ where: { threadId: thread.id } })).toBe(1);
    });

    it('starts the tail above messages queued at the head', async () => {
      const { user, thread } = await newThread();
      const { db } = server.parley;
      const { queue } = server.parley.services;
      await db.prisma.queueItem.create({ data: { threadId: thread.id, userId: user.id, text: 'at the head', position: -3 } });
      await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'tail' });
      const items = await db.prisma.queueItem.findMany({ where: { threadId: thread.id }, orderBy: { position: 'asc' } });
      expect(items.map((item) => item.text)).toEqual(['at the head', 'tail']);
    });
  });

  const anySlot = () => new RunSlots({ perInstance: 10, perUser: 10, perProject: 10 });

  async function admitted(text = 'question') {
    const context = await newThread();
    const { db } = server.parley;
    const { queue } = server.parley.services;
    await queue.enqueueOrAnswer(context.user, {
      threadId: context.thread.id,
      text,
      attachments: [{ filename: 'a.txt', mediaType: 'text/plain', data: new TextEncoder().encode('file') }],
    });
    const admission = new Admission(db.sql, new RunningExecutions(), 'hot-statements');
    const result = await admission.admitNext(context.thread.id, anySlot());
    return { ...context, admission, result };
  }

  describe('admission', () => {
    it('creates the execution, the user message with its files, the empty reply, consumes the item and appends the events', async () => {
      const { thread, user, agent, admission, result } = await admitted();
      if (result.kind !== 'admitted') throw new Error(`expected an admission, got ${result.kind}`);
      const prisma = server.parley.db.prisma;
      const execution = await prisma.execution.findUniqueOrThrow({ where: { id: result.run.execution.id } });
      expect(execution).toEqual(result.run.execution);
      expect([execution.status, execution.ownerInstanceId, execution.acceptsSteering, execution.userId, execution.agentId]).toEqual([
        'RUNNING',
        'hot-statements',
        true,
        user.id,
        agent.id,
      ]);
      const messages = await prisma.message.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' }, include: { attachments: true } });
      expect(messages.map((message) => [message.role, message.executionId])).toEqual([
        ['USER', execution.id],
        ['ASSISTANT', execution.id],
      ]);
      expect(messages[1]!.id).toBe(result.run.assistantMessageId);
      expect(messages[1]!.parts).toEqual([]);
      const file = messages[0]!.attachments[0]!;
      expect([file.filename, file.queueItemId]).toEqual(['a.txt', null]);
      expect(messages[0]!.parts).toEqual([
        { type: 'text', text: 'question' },
        { type: 'attachment', attachmentId: file.id, filename: 'a.txt', mediaType: 'text/plain', size: 4 },
      ]);
      expect(await prisma.queueItem.count({ where: { threadId: thread.id } })).toBe(0);
      expect(result.events.map((event) => [event.seq, event.payload.type])).toEqual([
        [2, 'ExecutionStarted'],
        [3, 'QueueUpdated'],
      ]);
      expect(result.events[0]!.payload).toEqual({ type: 'ExecutionStarted', acceptedText: 'question', userMessageId: messages[0]!.id, queueId: execution.queueItemId });
      expect((await prisma.thread.findUniqueOrThrow({ where: { id: thread.id } })).lastEventSeq).toBe(3);
      expect(result.run.user).toEqual(await prisma.user.findUniqueOrThrow({ where: { id: user.id } }));
      expect(result.run.agent).toEqual(await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } }));
      // One execution at a time: the next message waits.
      await server.parley.services.queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'next' });
      expect((await admission.admitNext(thread.id, anySlot())).kind).toBe('idle');
    });

    it('refuses a turn over the agent’s run limit with its reason as the reply, in the same statement', async () => {
      const context = await newThread();
      const prisma = server.parley.db.prisma;
      await prisma.agent.update({ where: { id: context.agent.id }, data: { maxConcurrentExecutions: 0 } });
      await server.parley.services.queue.enqueueOrAnswer(context.user, { threadId: context.thread.id, text: 'too many' });
      const result = await new Admission(server.parley.db.sql, new RunningExecutions(), 'hot-statements').admitNext(context.thread.id, anySlot());
      expect(result.kind).toBe('refused');
      expect(result.kind === 'refused' && result.events.map((event) => event.payload)).toEqual([
        expect.objectContaining({ type: 'ExecutionStarted', acceptedText: 'too many' }),
        { type: 'QueueUpdated' },
        { type: 'ExecutionFinished', status: 'REFUSED' },
      ]);
      const execution = await prisma.execution.findFirstOrThrow({ where: { threadId: context.thread.id } });
      expect([execution.status, execution.refusalKey, execution.ownerInstanceId, execution.finishedAt !== null]).toEqual([
        'REFUSED',
        'refusal.concurrency',
        null,
        true,
      ]);
      const reply = await prisma.message.findFirstOrThrow({ where: { executionId: execution.id, role: 'ASSISTANT' } });
      expect(reply.parts).toEqual([{ type: 'text', text: translate('en', 'refusal.concurrency', { limit: 0 }) }]);
    });
  });

  describe('the settlement', () => {
    function recordingOf(
      run: { execution: Parameters<typeof rootRunRecording>[1]; assistantMessageId?: string },
      published: ThreadEvent[],
      extraListeners: RunListener[] = [],
    ) {
      // Durable events only: the live deltas are not the settlement's.
      const bus = {
        ...server.parley.bus,
        publishThreadEvents: (events: ThreadEvent[]) => published.push(...events.filter((event) => event.seq !== null)),
      };
      return rootRunRecording({ sql: server.parley.db.sql, bus, flushPolicy: { flushMs: 60_000, flushChars: 1_000_000 } }, run.execution, {
        assistantMessageId: run.assistantMessageId,
        extraListeners,
        onFlushError: (error) => {
          throw error;
        },
      }).recording;
    }

    it('writes the final text, the execution’s end and ExecutionFinished in one transaction, published after commit', async () => {
      const { thread, result } = await admitted();
      if (result.kind !== 'admitted') throw new Error('expected an admission');
      const published: ThreadEvent[] = [];
      const recording = recordingOf(result.run, published);
      await recording.emit({ type: 'run-started' } as never);
      await recording.emit({ type: 'text-delta', text: 'Hello ' } as never);
      await recording.emit({ type: 'text-delta', text: 'world' } as never);
      await recording.settle({ status: 'COMPLETED', usage: { inputTokens: 3, outputTokens: 2 }, failure: null, checkpoint: null });
      const prisma = server.parley.db.prisma;
      const execution = await prisma.execution.findUniqueOrThrow({ where: { id: result.run.execution.id } });
      expect([execution.status, execution.acceptsSteering, execution.inputTokens, execution.outputTokens, execution.finishedAt !== null]).toEqual([
        'COMPLETED',
        false,
        3,
        2,
        true,
      ]);
      const reply = await prisma.message.findUniqueOrThrow({ where: { id: result.run.assistantMessageId! } });
      expect(reply.parts).toEqual([{ type: 'text', text: 'Hello world' }]);
      expect(published.map((event) => [event.seq, event.payload])).toEqual([[4, { type: 'ExecutionFinished', status: 'COMPLETED' }]]);
      const stored = await prisma.threadEvent.findMany({ where: { threadId: thread.id, seq: { gt: 3 } } });
      expect(stored.map((event) => event.type)).toEqual(['ExecutionFinished']);
    });

    it('leaves a streaming reply without search words (its flushes compute none) and gives them to it once, at the settlement', async () => {
      const { result } = await admitted();
      if (result.kind !== 'admitted') throw new Error('expected an admission');
      const recording = recordingOf(result.run, []);
      const wordsOf = async () => {
        const [row] = await server.parley.db.sql.query<{ streaming: boolean; words: string | null }>(
          Prisma.sql`SELECT "streaming", "searchVector"::text AS "words" FROM "message" WHERE "id" = ${result.run.assistantMessageId!}`,
        );
        return row;
      };
      await recording.emit({ type: 'run-started' } as never);
      await recording.emit({ type: 'text-delta', text: 'Zebras gallop' } as never);
      await writeReplyParts(server.parley.db.sql, result.run.assistantMessageId!, JSON.stringify([{ type: 'text', text: 'Zebras gallop' }]), new Date());
      expect(await wordsOf()).toEqual({ streaming: true, words: null });
      await recording.settle({ status: 'COMPLETED', usage: { inputTokens: 1, outputTokens: 2 }, failure: null, checkpoint: null });
      const settled = await wordsOf();
      expect(settled?.streaming).toBe(false);
      expect(settled?.words).toContain("'zebra'");
      expect(settled?.words).toContain("'gallop'");
    });

    it('records a failure (error part, error and reason, ErrorEvent before ExecutionFinished) once, also when called again after a failed attempt', async () => {
      const { result } = await admitted();
      if (result.kind !== 'admitted') throw new Error('expected an admission');
      const published: ThreadEvent[] = [];
      let attempts = 0;
      // The first attempt's transaction fails inside (as an outage would): it commits nothing.
      const failingOnce: RunListener = {
        contribute: () => {
          attempts++;
          if (attempts === 1) throw new Error('the database went away');
          return {};
        },
      };
      const recording = recordingOf(result.run, published, [failingOnce]);
      await recording.emit({ type: 'run-started' } as never);
      await recording.emit({ type: 'text-delta', text: 'partial' } as never);
      const failed = {
        status: 'FAILED' as const,
        usage: { inputTokens: 1, outputTokens: 1 },
        failure: recordedFailure(failureOfThrown(new Error('model exploded')), 'en'),
        checkpoint: null,
      };
      // A settlement whose transaction fails commits nothing; the same call made again records the end once.
      await expect(recording.settle(failed)).rejects.toThrow('the database went away');
      expect(attempts).toBe(1);
      const prisma = server.parley.db.prisma;
      expect((await prisma.execution.findUniqueOrThrow({ where: { id: result.run.execution.id } })).status).toBe('RUNNING');
      await recording.settle(failed);
      await recording.settle(failed);
      const execution = await prisma.execution.findUniqueOrThrow({ where: { id: result.run.execution.id } });
      expect([execution.status, execution.errorReason, execution.inputTokens]).toEqual(['FAILED', (execution.error as { reason: string }).reason, 1]);
      const reply = await prisma.message.findUniqueOrThrow({ where: { id: result.run.assistantMessageId! } });
      const parts = reply.parts as { type: string }[];
      expect(parts.map((part) => part.type)).toEqual(['text', 'error']);
      expect(published.map((event) => event.payload.type)).toEqual(['ErrorEvent', 'ExecutionFinished']);
      expect(published.map((event) => event.seq)).toEqual([4, 5]);
    });
  });
});
