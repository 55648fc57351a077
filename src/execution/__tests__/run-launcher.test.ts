import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admission } from '../admission.ts';
import { RunSlots } from '../run-slots.ts';
import { RunLauncher } from '../run-launcher.ts';
import { ServerShutdown } from '../running-executions.ts';
import { Steering } from '../steering.ts';
import { classify } from '../../errors/classify.ts';
import type { AgentRunInput } from '../../runtime/agent-run-input.ts';
import type { RunOutcome } from '../../runtime/agent-runtime.ts';
import type { ThreadEvent } from '../../events/thread-event.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

/**
 * The launcher settles exactly what the runtime returned (or threw), once: each outcome ends the
 * execution with its status, the reply's parts, and at most one ErrorEvent before the end's event.
 */
describe('a run’s ending, from the runtime’s result', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_CONSUMER_SWEEP_MS: '600000' } });
    // This test admits and launches the runs itself.
    await server.parley.execution.consumer.stop();
  });
  afterAll(async () => server?.stop());

  /** Admits one message on a new thread and runs it with `runtime` in place of the agent loop. */
  async function runWith(runtime: (input: AgentRunInput, abort: (reason: unknown) => void) => Promise<RunOutcome>) {
    const { db, bus, models, tracing, instanceId } = server.parley;
    const { directory, queue } = server.parley.services;
    const { running } = server.parley.execution;
    const { user } = await directory.createUser({ email: `ending-${Math.random().toString(36).slice(2)}@example.test` });
    const project = await directory.createProject(null, { name: 'endings' });
    await directory.addMember(null, { projectId: project.id, user: user.id, role: 'member' });
    const agent = await directory.createAgent(null, project.id, { name: 'agent', model: 'demo:default' });
    const thread = await directory.createThread(user, { agentId: agent.id });
    await queue.enqueueOrAnswer(user, { threadId: thread.id, text: 'hello' });
    const slots = new RunSlots({ perInstance: 1, perUser: 1, perProject: 1 });
    const admitted = await new Admission(db.sql, running, instanceId).admitNext(thread.id, slots);
    if (admitted.kind !== 'admitted') throw new Error(`expected an admission, got ${admitted.kind}`);
    const published: ThreadEvent[] = [];
    const stop = bus.subscribeThread(thread.id, (event) => {
      if (event.seq !== null) published.push(event);
    });
    const launcher = new RunLauncher({
      prisma: db.prisma,
      sql: db.sql,
      bus,
      models,
      running,
      retryPolicy: { maxAttempts: 1, baseDelayS: 0, maxDelayS: 0, deadlineS: 1 },
      flushPolicy: { flushMs: 60_000, flushChars: 1_000_000 },
      logger: pino({ level: 'silent' }),
      instanceId,
      steering: new Steering(db.sql, bus),
      tracing,
      runtime: (input) => runtime(input, (reason) => admitted.run.handle.controller.abort(reason)),
      slots,
    });
    launcher.launch(admitted.run);
    expect(await launcher.waitForRuns(30_000)).toBe(true);
    stop();
    const execution = await db.prisma.execution.findUniqueOrThrow({ where: { id: admitted.run.execution.id } });
    const reply = await db.prisma.message.findUniqueOrThrow({ where: { id: admitted.run.assistantMessageId! } });
    const ended = published.filter((event) => event.executionId === execution.id).map((event) => event.payload.type);
    return { execution, parts: reply.parts as { type: string; text?: string }[], ended };
  }

  const usage = { inputTokens: 2, outputTokens: 3 };

  it('COMPLETED: the status, the usage, the text, and ExecutionFinished', async () => {
    const { execution, parts, ended } = await runWith(async (input) => {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'Hi there' });
      return { outcome: 'COMPLETED', usage, messages: input.messages };
    });
    expect([execution.status, execution.inputTokens, execution.outputTokens, execution.error]).toEqual(['COMPLETED', 2, 3, null]);
    expect(parts).toEqual([{ type: 'text', text: 'Hi there' }]);
    expect(ended).toEqual(['ExecutionFinished']);
  });

  it('FAILED with the failure the runtime classified: recorded once, after the text', async () => {
    const failure = classify(Object.assign(new Error('HTTP 500'), { statusCode: 500 }), { provider: 'openai' });
    const { execution, parts, ended } = await runWith(async (input) => {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'Partial' });
      return { outcome: 'FAILED', usage, messages: input.messages, failure };
    });
    expect([execution.status, execution.errorReason]).toEqual(['FAILED', failure.reason]);
    expect(parts.map((part) => part.type)).toEqual(['text', 'error']);
    expect(ended).toEqual(['ErrorEvent', 'ExecutionFinished']);
  });

  it('a crash between two steps: the first step’s text stays, and the crash is the one APPLICATION_ERROR', async () => {
    const { execution, parts, ended } = await runWith(async (input) => {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'Step one.' });
      await input.emit({ type: 'boundary' });
      throw new Error('the loop broke between steps');
    });
    expect([execution.status, execution.errorReason]).toEqual(['FAILED', 'APPLICATION_ERROR']);
    expect((execution.error as { detail: string }).detail).toBe('the loop broke between steps');
    expect(parts).toEqual([{ type: 'text', text: 'Step one.' }, expect.objectContaining({ type: 'error', reason: 'APPLICATION_ERROR' })]);
    expect(ended).toEqual(['ErrorEvent', 'ExecutionFinished']);
  });

  it('SUSPENDED: the checkpoint is kept and the card opened; the turn is updated, not finished', async () => {
    const pending = { kind: 'QUESTION' as const, toolCallId: 'call-1', toolName: 'ask_user', input: { question: 'Which?' }, approvalId: null };
    const { execution, ended } = await runWith(async (input) => {
      await input.emit({ type: 'run-started' });
      return { outcome: 'SUSPENDED', usage, messages: input.messages, checkpoint: { messages: input.messages, pending } };
    });
    expect([execution.status, execution.finishedAt]).toEqual(['SUSPENDED', null]);
    const suspension = await server.parley.db.prisma.suspension.findFirstOrThrow({ where: { executionId: execution.id } });
    expect([suspension.kind, suspension.toolCallId, suspension.status]).toEqual(['QUESTION', 'call-1', 'OPEN']);
    expect(ended).toEqual(['SuspensionOpened', 'ExecutionUpdated']);
  });

  it('CANCELLED by a Stop while it ran: what streamed stays, no error', async () => {
    const { execution, parts, ended } = await runWith(async (input, abort) => {
      await input.emit({ type: 'run-started' });
      await input.emit({ type: 'text-delta', text: 'Until the stop' });
      abort(new Error('stopped'));
      return { outcome: 'ABORTED', usage, messages: input.messages };
    });
    expect([execution.status, execution.error]).toEqual(['CANCELLED', null]);
    expect(parts).toEqual([{ type: 'text', text: 'Until the stop' }]);
    expect(ended).toEqual(['ExecutionFinished']);
  });

  it('INTERRUPTED by a shutdown, whatever the runtime returned: one retryable error.interrupted', async () => {
    const { execution, ended } = await runWith(async (input, abort) => {
      await input.emit({ type: 'run-started' });
      abort(new ServerShutdown());
      return { outcome: 'ABORTED', usage, messages: input.messages };
    });
    expect(execution.status).toBe('INTERRUPTED');
    expect(execution.error).toMatchObject({ reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' });
    expect(ended).toEqual(['ErrorEvent', 'ExecutionFinished']);
  });
});
