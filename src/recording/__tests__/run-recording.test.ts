import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admission } from '../../execution/admission.ts';
import { RunSlots } from '../../execution/run-slots.ts';
import { ConversationLog } from '../conversation-log.ts';
import { rootRunRecording, runStateOf } from '../root-run-recording.ts';
import type { RunEnding } from '../run-ending.ts';
import { interruption } from '../../execution/ending.ts';
import type { RuntimeEvent } from '../../runtime/runtime-event.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * The recording hands a listener each runtime event (`onEvent`) and the run's end once (`onSettle`,
 * inside the settlement), and nothing after it: a second settlement and late events change nothing.
 */
describe('a run’s recording', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_CONSUMER_SWEEP_MS: '600000' } });
    await server.parley.execution.consumer.stop();
  });
  afterAll(async () => server?.stop());

  async function admittedRun() {
    const { db, instanceId } = server.parley;
    const { directory, queue } = server.parley.services;
    const { running } = server.parley.execution;
    const { user } = await directory.createUser({ email: `recording-${Math.random().toString(36).slice(2)}@example.test` });
    const project = await directory.createProject(null, { name: 'recording' });
    await directory.addMember(null, { projectId: project.id, user: user.id, role: 'member' });
    const agent = await directory.createAgent(null, project.id, { name: 'agent', model: 'demo:default' });
    const thread = await directory.createThread(user, { agentId: agent.id });
    await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'hello' });
    const admitted = await new Admission(db.sql, running, instanceId).admitNext(thread.id, new RunSlots({ perInstance: 1, perUser: 1, perProject: 1 }));
    if (admitted.kind !== 'admitted') throw new Error(`expected an admission, got ${admitted.kind}`);
    return admitted.run;
  }

  function recordingOf(run: Awaited<ReturnType<typeof admittedRun>>) {
    const heard: { events: RuntimeEvent['type'][]; ends: RunEnding[] } = { events: [], ends: [] };
    const { recording } = rootRunRecording({ sql: server.parley.db.sql, bus: server.parley.bus, flushPolicy: { flushMs: 60_000, flushChars: 1_000_000 } }, run.execution, {
      assistantMessageId: run.assistantMessageId,
      onFlushError: (error) => {
        throw error;
      },
      extraListeners: [{ onEvent: (event) => void heard.events.push(event.type), onEnded: (end) => void heard.ends.push(end) }],
    });
    return { recording, heard };
  }

  it('hears the events in order, then the end once, with its failure localized for the run’s user', async () => {
    const run = await admittedRun();
    const { recording, heard } = recordingOf(run);
    await recording.emit({ type: 'run-started' });
    await recording.emit({ type: 'text-delta', text: 'Teil' });
    await recording.emit({ type: 'boundary' });
    const ending = interruption('the instance stopped', 'de');
    await recording.settle(ending);
    await recording.settle(ending);
    await recording.emit({ type: 'text-delta', text: 'late' });
    expect(heard.events).toEqual(['run-started', 'text-delta', 'boundary']);
    expect(heard.ends).toHaveLength(1);
    expect(heard.ends[0]).toMatchObject({ status: 'INTERRUPTED', failure: { reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' } });
    expect(heard.ends[0]!.failure!.message).not.toBe(heard.ends[0]!.failure!.messageKey);
    const prisma = server.parley.db.prisma;
    const execution = await prisma.execution.findUniqueOrThrow({ where: { id: run.execution.id } });
    expect(execution.status).toBe('INTERRUPTED');
    const reply = await prisma.message.findUniqueOrThrow({ where: { id: run.assistantMessageId! } });
    expect((reply.parts as { type: string; text?: string }[]).map((part) => part.text ?? part.type)).toEqual(['Teil', 'error']);
  });

  it('writes a long reply in batches that grow with it: a few times its length in all, not its square', async () => {
    const run = await admittedRun();
    const prisma = server.parley.db.prisma;
    const writtenChars: number[] = [];
    // The real database, with each write of the reply's parts measured on its way.
    // The flush is one statement whose first value is the reply's parts as JSON.
    const sql = server.parley.db.sql;
    const measured = {
      ...sql,
      query: <Row>(statement: Parameters<typeof sql.query>[0]) => {
        writtenChars.push(String(statement.values[0]).length);
        return sql.query<Row>(statement);
      },
    };
    const log = new ConversationLog(measured, { flushMs: 600_000, flushChars: 1_000 }, (error) => {
      throw error;
    });
    const state = { ...runStateOf(run.execution), assistantMessageId: run.assistantMessageId ?? null };
    await log.onEvent({ type: 'run-started' }, state);
    const delta = 'word '.repeat(20);
    const deltas = 10_000;
    for (let index = 0; index < deltas; index++) await log.onEvent({ type: 'text-delta', text: delta }, state);
    await log.drain();
    const replyChars = delta.length * deltas;
    const total = writtenChars.reduce((sum, chars) => sum + chars, 0);
    const summary = JSON.stringify({ writes: writtenChars.length, total, replyChars });
    // A fixed batch of 1,000 characters would write this reply 1,000 times, 500 times its length in all.
    expect(total, summary).toBeLessThan(6 * replyChars);
    expect(writtenChars.length, summary).toBeGreaterThan(3);
    expect(writtenChars.length, summary).toBeLessThan(40);
    const stored = await prisma.message.findUniqueOrThrow({ where: { id: run.assistantMessageId! } });
    expect((stored.parts as { text: string }[])[0]!.text.length).toBeGreaterThan(replyChars * 0.7);
  });
});
