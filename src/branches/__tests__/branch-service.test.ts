import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BranchService, lastActiveLeafUnder } from '../branch-service.ts';
import { ThreadLife } from '../thread-life.ts';
import { activePath } from '../../conversation/active-path.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.ts';
import type { LiveBus } from '../../events/live-bus.ts';
import type { ThreadEvent } from '../../events/thread-event.ts';
import { Admission } from '../../execution/admission.ts';
import { loadHistory } from '../../execution/history.ts';
import { RunSlots } from '../../execution/run-slots.ts';
import type { User } from '../../generated/prisma/client.ts';
import { queueLimits } from '../../queue/settings.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

describe('lastActiveLeafUnder', () => {
  const node = (id: string, parentId: string | null, seq: number, activeSeq: number) => ({ id, parentId, seq: BigInt(seq), activeSeq });

  it('descends by the child last made active, the newest among children never active', () => {
    const tree = [
      node('a', null, 1, 9),
      node('b1', 'a', 2, 3),
      node('b2', 'a', 3, 7),
      node('c1', 'b2', 4, 0),
      node('c2', 'b2', 5, 0),
      node('d', 'b1', 6, 3),
    ];
    expect(lastActiveLeafUnder('a', tree)).toBe('c2');
    expect(lastActiveLeafUnder('b1', tree)).toBe('d');
    expect(lastActiveLeafUnder('c1', tree)).toBe('c1');
  });
});

/**
 * The service on a real database; turns are admitted here (the consumer is stopped) and marked
 * finished by hand, so each step's rows can be read exactly.
 */
describe('BranchService', () => {
  let server: TestServer;
  let user: User;
  let agentId: string;
  let branches: BranchService;
  let life: ThreadLife;
  const published: ThreadEvent[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_CONSUMER_SWEEP_MS: '600000' } });
    await server.parley.execution.consumer.stop();
    const { db, config } = server.parley;
    const { directory, access } = server.parley.services;
    ({ user } = await directory.createUser({ email: `branches-${Math.random().toString(36).slice(2)}@example.test` }));
    const project = await directory.createProject(user, { name: 'branches' });
    agentId = (await directory.createAgent(null, project.id, { name: 'agent', model: 'demo:default' })).id;
    const bus = { publishThreadEvents: (events: ThreadEvent[]) => published.push(...events) } as unknown as LiveBus;
    branches = new BranchService(db.prisma, db.sql, bus, access, { kick: () => {} }, queueLimits(config), (error) => {
      throw error;
    });
    life = new ThreadLife(db.prisma, bus, access);
  });
  afterAll(async () => server?.stop());

  const prisma = () => server.parley.db.prisma;

  /** Admits the head of the queue and finishes it with `reply`; answers the turn's message ids. */
  async function runHead(threadId: string, reply: string) {
    const admitted = await new Admission(server.parley.db.sql, server.parley.execution.running, 'unit').admitNext(threadId, new RunSlots({ perInstance: 9, perUser: 9, perProject: 9 }));
    if (admitted.kind !== 'admitted') throw new Error(`expected an admission, got ${admitted.kind}`);
    const { execution, assistantMessageId } = admitted.run;
    server.parley.execution.running.unregister(execution.id);
    await prisma().message.update({ where: { id: assistantMessageId! }, data: { parts: [{ type: 'text', text: reply }] } });
    await prisma().execution.update({ where: { id: execution.id }, data: { status: 'COMPLETED', finishedAt: new Date() } });
    const started = admitted.events.find((event) => event.payload.type === 'ExecutionStarted')!;
    return { userMessageId: (started.payload as { userMessageId: string }).userMessageId, replyId: assistantMessageId!, executionId: execution.id };
  }

  async function turn(threadId: string, text: string) {
    await server.parley.services.queue.enqueueOrAnswer(user, { threadId, text });
    return runHead(threadId, `re: ${text}`);
  }

  async function texts(threadId: string): Promise<string[]> {
    const ids = await activePath(prisma(), threadId);
    const rows = await prisma().message.findMany({ where: { id: { in: ids } }, orderBy: { seq: 'asc' } });
    return rows.map((row) => (row.parts as { text?: string }[]).map((part) => part.text ?? '').join(''));
  }

  async function newThread() {
    return (await server.parley.services.directory.createThread(user, { agentId })).id;
  }

  it('old-style threads are one path; an edit adds a sibling, moves the leaf to the parent and queues its turn first', async () => {
    const threadId = await newThread();
    const first = await turn(threadId, 'a');
    const second = await turn(threadId, 'b');
    expect(await texts(threadId)).toEqual(['a', 're: a', 'b', 're: b']);
    published.length = 0;

    const queued = await branches.editMessage(user, { messageId: second.userMessageId, threadId }, { text: 'b2', idempotencyKey: 'k1' });
    expect(queued.payload).toMatchObject({ type: 'MessageQueued', text: 'b2' });
    expect(published.map((event) => event.payload.type)).toEqual(['BranchSwitched', 'MessageQueued']);
    expect(published[0]!.payload).toEqual({ type: 'BranchSwitched', leafMessageId: first.replyId });
    expect(await texts(threadId)).toEqual(['a', 're: a']);
    // The same key answers with the first edit's event and changes nothing.
    const again = await branches.editMessage(user, { messageId: second.userMessageId }, { text: 'b2', idempotencyKey: 'k1' });
    expect(again).toEqual(queued);
    expect(published).toHaveLength(2);

    const edited = await runHead(threadId, 're: b2');
    expect(await texts(threadId)).toEqual(['a', 're: a', 'b2', 're: b2']);
    const row = await prisma().message.findUniqueOrThrow({ where: { id: edited.userMessageId } });
    expect(row.parentId).toBe(first.replyId);
    const history = await loadHistory(server.parley.db.sql, threadId, edited.executionId);
    expect(history).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 're: a' },
      { role: 'user', content: 'b2' },
    ]);
  });

  it('a regeneration answers the same user message again, as a sibling reply; switches go back and forth', async () => {
    const threadId = await newThread();
    const asked = await turn(threadId, 'q');
    await branches.regenerateMessage(user, { messageId: asked.replyId });
    expect(await texts(threadId)).toEqual(['q']);
    const again = await runHead(threadId, 'second answer');
    expect(again.userMessageId).toBe(asked.userMessageId);
    expect(await texts(threadId)).toEqual(['q', 'second answer']);
    expect(await prisma().message.count({ where: { threadId, role: 'USER' } })).toBe(1);
    const history = await loadHistory(server.parley.db.sql, threadId, again.executionId);
    expect(history).toEqual([{ role: 'user', content: 'q' }]);

    const follow = await turn(threadId, 'more');
    expect(await branches.switchBranch(user, { messageId: asked.replyId })).toEqual({ threadId, leafMessageId: asked.replyId });
    expect(await texts(threadId)).toEqual(['q', 're: q']);
    // Back to the second answer: down to the leaf last active under it.
    expect((await branches.switchBranch(user, { messageId: again.replyId })).leafMessageId).toBe(follow.replyId);
    const count = published.length;
    await branches.switchBranch(user, { messageId: follow.replyId });
    expect(published).toHaveLength(count);
  });

  it('refuses while an execution runs, an edit of a reply, a regeneration of a user message, and another thread’s message', async () => {
    const threadId = await newThread();
    const done = await turn(threadId, 'x');
    const other = await newThread();
    await expect(branches.editMessage(user, { messageId: done.replyId }, { text: 'y' })).rejects.toThrow(InvalidInputError);
    await expect(branches.regenerateMessage(user, { messageId: done.userMessageId })).rejects.toThrow(InvalidInputError);
    await expect(branches.switchBranch(user, { messageId: done.userMessageId, threadId: other })).rejects.toThrow(InvalidInputError);
    await expect(branches.switchBranch(user, { messageId: 'missing' })).rejects.toThrow(NotFoundError);

    await server.parley.services.queue.enqueueOrAnswer(user, { threadId, text: 'running' });
    const running = await new Admission(server.parley.db.sql, server.parley.execution.running, 'unit').admitNext(threadId, new RunSlots({ perInstance: 9, perUser: 9, perProject: 9 }));
    if (running.kind !== 'admitted') throw new Error('expected an admission');
    server.parley.execution.running.unregister(running.run.execution.id);
    const before = await prisma().thread.findUniqueOrThrow({ where: { id: threadId } });
    await expect(branches.editMessage(user, { messageId: done.userMessageId }, { text: 'y' })).rejects.toThrow(ConflictError);
    await expect(branches.regenerateMessage(user, { messageId: done.replyId })).rejects.toThrow(ConflictError);
    await expect(branches.switchBranch(user, { messageId: done.userMessageId })).rejects.toThrow(ConflictError);
    await expect(life.deleteThread(user, threadId)).rejects.toThrow(ConflictError);
    const after = await prisma().thread.findUniqueOrThrow({ where: { id: threadId } });
    expect(after.lastEventSeq).toBe(before.lastEventSeq);
    expect(after.activeLeafMessageId).toBe(before.activeLeafMessageId);
  });

  it('renames and deletes a thread with all of it', async () => {
    const threadId = await newThread();
    await turn(threadId, 'bye');
    expect((await life.renameThread(user, threadId, ' New name ')).title).toBe('New name');
    await expect(life.renameThread(user, threadId, '')).rejects.toThrow(InvalidInputError);
    published.length = 0;
    await life.deleteThread(user, threadId);
    expect(published.map((event) => event.payload.type)).toEqual(['ThreadDeleted']);
    expect(await prisma().message.count({ where: { threadId } })).toBe(0);
    expect(await prisma().threadEvent.count({ where: { threadId } })).toBe(0);
    expect(await prisma().execution.count({ where: { threadId } })).toBe(0);
    await expect(life.deleteThreadAsOperator(threadId)).rejects.toThrow(NotFoundError);
  });
});
