import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/domain/errors.ts';
import { appendThreadEvents } from '../../src/events/event-log.ts';
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
    await server.parley.consumer.stop();
  });
  afterAll(async () => server?.stop());

  async function newThread() {
    const { directory } = server.parley;
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
      const first = await appendThreadEvents(prisma, thread.id, [{ executionId: null, payload: { type: 'QueueUpdated' } }]);
      const records = await appendThreadEvents(prisma, thread.id, [
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
      await expect(appendThreadEvents(prisma, 'no-such-thread', [{ executionId: null, payload: { type: 'QueueUpdated' } }])).rejects.toThrow(
        /does not exist/,
      );
      expect(await prisma.threadEvent.count({ where: { threadId: 'no-such-thread' } })).toBe(0);
    });

    it('keeps seqs unique and gapless under concurrent appends', async () => {
      const { thread } = await newThread();
      const prisma = server.parley.db.prisma;
      await Promise.all(
        Array.from({ length: 8 }, () => appendThreadEvents(prisma, thread.id, [{ executionId: null, payload: { type: 'QueueUpdated' } }])),
      );
      const seqs = (await prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } })).map((event) => event.seq);
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  });

  describe('the access check', () => {
    it('answers the thread with its agent for a member with the scope', async () => {
      const { user, thread, agent } = await newThread();
      const found = await server.parley.access.thread(user, thread.id, 'agent:execute');
      const stored = await server.parley.db.prisma.thread.findUniqueOrThrow({ where: { id: thread.id }, include: { agent: true } });
      expect(found).toEqual(stored);
      expect(found.agent.id).toBe(agent.id);
    });

    it('reports a TEST thread of another member as not found, a SHARED one as found', async () => {
      const { project, thread } = await newThread();
      const { directory, access, db } = server.parley;
      const { user: other } = await directory.createUser({ email: `other-${Math.random().toString(36).slice(2)}@example.test` });
      await directory.addMember(null, { projectId: project.id, user: other.id, role: 'member' });
      await expect(access.thread(other, thread.id, 'agent:read')).rejects.toBeInstanceOf(NotFoundError);
      await db.prisma.thread.update({ where: { id: thread.id }, data: { kind: 'SHARED' } });
      expect((await access.thread(other, thread.id, 'agent:read')).id).toBe(thread.id);
    });

    it('reports a non-member as not found (naming what was asked for) and a viewer without the scope as forbidden', async () => {
      const { project, thread } = await newThread();
      const { directory, access, db } = server.parley;
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
      const { queue, db } = server.parley;
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
      const { queue, db } = server.parley;
      await Promise.all(Array.from({ length: 10 }, (_, index) => queue.enqueueOrAnswer(user, { threadId: thread.id, text: `m${index}` })));
      const items = await db.prisma.queueItem.findMany({ where: { threadId: thread.id }, orderBy: { position: 'asc' } });
      expect(items.map((item) => item.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const seqs = (await db.prisma.threadEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: 'asc' } })).map((event) => event.seq);
      expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('answers a repeated idempotency key with the first event, also once the first item is gone, and under concurrency', async () => {
      const { user, thread } = await newThread();
      const { queue, db } = server.parley;
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
      const { queue, db } = server.parley;
      await db.prisma.queueItem.create({ data: { threadId: thread.id, userId: user.id, text: 'at the head', position: -3 } });
      await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'tail' });
      const items = await db.prisma.queueItem.findMany({ where: { threadId: thread.id }, orderBy: { position: 'asc' } });
      expect(items.map((item) => item.text)).toEqual(['at the head', 'tail']);
    });
  });
});
