import { describe, expect, it } from 'vitest';
import { interruption } from '../../execution/ending.ts';
import type { SqlRunner } from '../../storage/sql-client.ts';
import { ConversationLog } from '../conversation-log.ts';
import { DelegationCard } from '../delegation-card.ts';
import type { RunEnding } from '../run-ending.ts';
import type { RunState } from '../run-listener.ts';
import { nextTurnQueued, recordedEnding, settlementOf, type SettlementFacts } from '../run-recording.ts';

/**
 * What a run's end writes, decided without a database: the settlement's plan from the ending, the
 * facts read under the lock and what each listener contributes (the reply's parts, closed calls).
 */

/** Takes the reply's timed writes and answers nothing: there is no database here. */
const noDatabase: SqlRunner = { query: async () => [] };
const at = new Date('2026-12-04T12:00:00.000Z');
const running: SettlementFacts = { status: 'RUNNING', reserved: false, queued: false, cancelRequested: false };
const usage = { inputTokens: 3, outputTokens: 4 };
const completed: RunEnding = { status: 'COMPLETED', usage, failure: null, checkpoint: null };

function runState(overrides: Partial<RunState> = {}): RunState {
  return {
    executionId: 'e1',
    threadId: 't1',
    agentId: 'a1',
    userId: 'u1',
    parentExecutionId: null,
    acceptedText: 'hello',
    assistantMessageId: 'm1',
    textLength: 0,
    reasoningLength: 0,
    ...overrides,
  };
}

/** A reply log that has streamed some text. */
async function logWithOpenCall(run: RunState): Promise<ConversationLog> {
  const log = new ConversationLog(noDatabase, { flushMs: 60_000, flushChars: 1_000_000 }, () => {});
  await log.open(run);
  await log.onEvent({ type: 'text-delta', text: 'Looking it up' }, run);
  return log;
}

describe('the settlement, without a database', () => {
  it('a completed turn: its status, usage, reply and ExecutionFinished; nothing else', async () => {
    const run = runState();
    const log = await logWithOpenCall(run);
    const write = settlementOf(completed, run, running, [log.contribute(completed, run)], at);
    expect(write).toEqual({
      threadId: 't1',
      executionId: 'e1',
      status: 'COMPLETED',
      finishedAt: at,
      usage,
      failure: null,
      reply: { messageId: 'm1', parts: [{ type: 'text', text: 'Looking it up' }] },
      releaseReservations: false,
      interruptChildren: false,
      card: null,
      events: [{ executionId: 'e1', parentExecutionId: null, payload: { type: 'ExecutionFinished', status: 'COMPLETED' } }],
      modelCalls: [],
      at,
    });
  });

  it('writes the model calls its listeners contribute, in their order, with the end', () => {
    const run = runState();
    const call = (id: string) => ({
      id, projectId: 'p1', threadId: 't1', executionId: 'e1', rootExecutionId: 'e1', agentId: 'a1', userId: 'u1', modelId: 'demo:default',
      inputTokens: 3, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 4, reasoningTokens: 1, cost: '0.000000011000', priceSource: 'demo', at,
    });
    const write = settlementOf(completed, run, running, [{ modelCalls: [call('c1'), call('c2')] }, {}, { modelCalls: [call('c3')] }], at);
    expect(write.modelCalls.map((recorded) => recorded.id)).toEqual(['c1', 'c2', 'c3']);
  });

  it('an interruption: open calls closed with their events, the error part last, returned reservations, children interrupted', () => {
    const run = runState();
    const log = new ConversationLog(noDatabase, { flushMs: 60_000, flushChars: 1_000_000 }, () => {});
    // The reply as its dead instance last wrote it, read back (here: given) before the settlement.
    Object.assign(log, {
      messageId: 'm1',
      parts: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'tools/slow', input: {}, state: 'CALLED', output: null, error: null, durationMs: null }],
    });
    const ending = interruption('instance x stopped', 'en');
    const write = settlementOf(ending, run, { ...running, reserved: true }, [log.contribute(ending, run)], at);
    expect(write.reply!.parts.map((part) => (part.type === 'tool-call' ? `${part.type}:${part.state}` : part.type))).toEqual(['tool-call:INTERRUPTED', 'error']);
    expect(write.events.map((event) => event.payload.type)).toEqual(['ToolCallEvent', 'QueueUpdated', 'ErrorEvent', 'ExecutionFinished']);
    expect([write.status, write.releaseReservations, write.interruptChildren]).toEqual(['INTERRUPTED', true, true]);
  });

  it('a suspension: its card, SuspensionOpened first, the turn updated (not finished), no finish time', () => {
    const pending = { kind: 'APPROVAL' as const, toolCallId: 'c1', toolName: 'approve_action', input: { action: 'deploy' }, approvalId: 'ap1' };
    const suspended: RunEnding = { status: 'SUSPENDED', usage, failure: null, checkpoint: { messages: [], pending } };
    const write = settlementOf(suspended, runState(), running, [], at);
    expect(write.card).toMatchObject({ kind: 'APPROVAL', toolCallId: 'c1', toolName: 'approve_action', payload: { action: 'deploy' } });
    expect(write.events.map((event) => event.payload)).toEqual([
      { type: 'SuspensionOpened', suspensionId: write.card!.id, kind: 'APPROVAL', toolCallId: 'c1', payload: { action: 'deploy' } },
      { type: 'ExecutionUpdated', status: 'SUSPENDED' },
    ]);
    expect(write.finishedAt).toBeNull();
    expect(nextTurnQueued(suspended, { ...running, queued: true })).toBe(false);
  });

  it('a Stop recorded before a suspension’s end cancels it: no card, its open call cancelled', async () => {
    const pending = { kind: 'QUESTION' as const, toolCallId: 'c1', toolName: 'ask_user', input: { question: '?' }, approvalId: null };
    const suspended: RunEnding = { status: 'SUSPENDED', usage, failure: null, checkpoint: { messages: [], pending } };
    const recorded = recordedEnding(suspended, { ...running, cancelRequested: true })!;
    expect(recorded).toEqual({ status: 'CANCELLED', usage, failure: null, checkpoint: null });
    const run = runState();
    const log = await logWithOpenCall(run);
    await log.onEvent({ type: 'tool-call', toolCallId: 'c1', toolName: 'ask_user', input: {}, state: 'AWAITING_APPROVAL', output: null }, run);
    const write = settlementOf(recorded, run, running, [log.contribute(recorded, run)], at);
    expect(write.card).toBeNull();
    expect(write.reply!.parts.at(-1)).toMatchObject({ type: 'tool-call', toolCallId: 'c1', state: 'CANCELLED' });
    expect(write.events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ type: 'ToolCallEvent', toolCallId: 'c1', state: 'CANCELLED' }),
      { type: 'ExecutionFinished', status: 'CANCELLED' },
    ]);
  });

  it('writes nothing for a run someone else ended (an interruption elsewhere, a Stop of its card)', () => {
    for (const status of ['INTERRUPTED', 'CANCELLED', 'COMPLETED', null]) {
      expect(recordedEnding(completed, { ...running, status })).toBeNull();
    }
    expect(nextTurnQueued(null, running)).toBe(true);
  });

  it('a delegated child: ExecutionUpdated (not a turn’s end), the parent’s reply with the child’s failure on its card', async () => {
    const parentRun = runState();
    const parentLog = new ConversationLog(noDatabase, { flushMs: 60_000, flushChars: 1_000_000 }, () => {});
    await parentLog.open(parentRun);
    const child = runState({ executionId: 'c-1', parentExecutionId: 'e1' });
    const card = new DelegationCard(parentLog, 'call-9');
    const failed: RunEnding = { ...completed, status: 'FAILED', failure: interruption('x', 'en').failure };
    const write = settlementOf(failed, child, { ...running, reserved: true }, [card.contribute(failed, child)], at);
    expect(write.reply!.messageId).toBe('m1');
    expect(write.reply!.parts).toEqual([expect.objectContaining({ type: 'delegation', toolCallId: 'call-9', childExecutionId: 'c-1', error: failed.failure })]);
    expect(write.events.map((event) => [event.payload.type, event.parentExecutionId])).toEqual([
      ['ErrorEvent', 'e1'],
      ['ExecutionUpdated', 'e1'],
    ]);
    expect([write.releaseReservations, write.interruptChildren]).toEqual([false, false]);
  });

  it('the next turn: queued or reserved messages wait for it once the end is committed', () => {
    expect(nextTurnQueued(completed, running)).toBe(false);
    expect(nextTurnQueued(completed, { ...running, queued: true })).toBe(true);
    expect(nextTurnQueued(completed, { ...running, reserved: true })).toBe(true);
  });
});
