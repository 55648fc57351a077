import { describe, expect, it } from 'vitest';
import { applyToThread, initialThreadState, type MessagePart, type RunEvent, type ThreadState } from '../../packages/client/src/thread-state.ts';

// A running tool call's progress in the client's thread state: live events update the call's part.

const at = '2026-01-01T00:00:00.000Z';
const execution = { threadId: 't', createdAt: at, executionId: 'e1', parentExecutionId: null };

function apply(state: ThreadState, events: RunEvent[]): ThreadState {
  return events.reduce((next, event) => applyToThread(next, { type: 'event', event }), state);
}

const started = { __typename: 'ExecutionStarted', cursor: '1', acceptedText: 'go', queueId: 'q1', userMessageId: 'm0', ...execution } as RunEvent;
const toolCall = (cursor: string, state: 'CALLED' | 'SUCCEEDED') =>
  ({ __typename: 'ToolCallEvent', cursor, messageId: 'm1', toolCallId: 'c1', toolName: 'work/steps', state, input: {}, output: null, error: null, durationMs: null, ...execution }) as RunEvent;
const progress = (cursor: string, value: number, toolCallId = 'c1') =>
  ({ __typename: 'ToolCallProgress', cursor, messageId: 'm1', toolCallId, progress: { progress: value, total: 4, message: `step ${value}` }, ...execution }) as RunEvent;

function callOf(state: ThreadState) {
  const parts = state.messages.find((message) => message.role === 'ASSISTANT')?.parts ?? [];
  return parts.find((part): part is Extract<MessagePart, { __typename: 'ToolCallPart' }> => part.__typename === 'ToolCallPart');
}

describe('tool-call progress in the thread state', () => {
  it('updates the running call’s part; the call keeps it when it ends; reports of other calls or after the end change nothing', () => {
    let state = apply(initialThreadState('t'), [started, toolCall('2', 'CALLED'), progress('2.1', 1), progress('2.2', 3)]);
    expect(callOf(state)?.progress).toEqual({ progress: 3, total: 4, message: 'step 3' });
    const unchanged = apply(state, [progress('2.3', 9, 'other')]);
    expect(unchanged).toBe(state);
    state = apply(state, [toolCall('3', 'SUCCEEDED')]);
    expect(callOf(state)).toMatchObject({ state: 'SUCCEEDED', progress: { progress: 3, total: 4, message: 'step 3' } });
    expect(apply(state, [progress('3.1', 4)])).toBe(state);
  });
});
