import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLiveBus } from '../../src/events/live-bus.ts';
import type { ThreadEvent } from '../../src/events/thread-event.ts';
import { ListenerChain, type RunState } from '../../src/recording/run-listener.ts';
import { RunRecording } from '../../src/recording/run-recording.ts';
import type { RuntimeEvent } from '../../src/runtime/runtime-event.ts';
import type { SqlClient } from '../../src/storage/sql-client.ts';

function runState(): RunState {
  return {
    executionId: 'execution-1',
    threadId: 'thread-1',
    agentId: 'agent-1',
    userId: 'user-1',
    parentExecutionId: null,
    acceptedText: 'hi',
    assistantMessageId: 'message-1',
    textLength: 0,
    reasoningLength: 0,
  };
}

const called = (toolCallId: string): RuntimeEvent => ({ type: 'tool-call', toolCallId, toolName: 'work/steps', input: {}, state: 'CALLED', output: null });
const ended = (toolCallId: string): RuntimeEvent => ({ type: 'tool-call', toolCallId, toolName: 'work/steps', input: {}, state: 'SUCCEEDED', output: null });
const step = (toolCallId: string, progress: number): RuntimeEvent => ({ type: 'tool-progress', toolCallId, progress, total: 10, message: `step ${progress}` });

/** A recording over a live bus (no database: progress is live only) and what it published and told its listener. */
function recordingWith(windowMs: number) {
  const bus = createLiveBus(undefined, pino({ level: 'silent' }));
  const published: ThreadEvent[] = [];
  const stop = bus.subscribeThread('thread-1', (event) => published.push(event));
  const heard: RuntimeEvent[] = [];
  const chain = new ListenerChain([{ onEvent: (event: RuntimeEvent) => void heard.push(event) }]);
  const recording = new RunRecording({ sql: {} as SqlClient, bus, deltaWindowMs: windowMs }, chain, runState());
  const progressOut = () => published.flatMap((event) => (event.payload.type === 'ToolCallProgress' ? [`${event.payload.toolCallId}:${event.payload.progress}`] : []));
  const progressHeard = () => heard.flatMap((event) => (event.type === 'tool-progress' ? [`${event.toolCallId}:${event.progress}`] : []));
  return { recording, published, progressOut, progressHeard, stop };
}

describe('a running tool call’s progress', () => {
  it('within a window, only the latest report of each call goes out, at once for the first and at the window’s end for the rest', async () => {
    const { recording, published, progressOut, progressHeard, stop } = recordingWith(60_000);
    await recording.emit(called('a'));
    await recording.emit(called('b'));
    for (let progress = 1; progress <= 5; progress += 1) await recording.emit(step('a', progress));
    await recording.emit(step('b', 1));
    expect(progressOut()).toEqual(['a:1', 'b:1']);
    // Every report reaches the listeners (the reply keeps the last), however few go out.
    expect(progressHeard()).toEqual(['a:1', 'a:2', 'a:3', 'a:4', 'a:5', 'b:1']);
    // The call's end sends its last progress first, and nothing of it after.
    await recording.emit(ended('a'));
    await recording.emit(step('a', 6));
    expect(progressOut()).toEqual(['a:1', 'b:1', 'a:5']);
    expect(published.at(-1)!.payload).toMatchObject({ type: 'ToolCallProgress', messageId: 'message-1', toolCallId: 'a', progress: 5, total: 10, message: 'step 5' });
    expect(progressHeard()).not.toContain('a:6');
    stop();
  });

  it('reports before the call is recorded wait for it: the last of them goes out after it', async () => {
    const { recording, progressOut, progressHeard, stop } = recordingWith(0);
    await recording.emit(step('a', 1));
    await recording.emit(step('a', 2));
    expect(progressOut()).toEqual([]);
    expect(progressHeard()).toEqual([]);
    await recording.emit(called('a'));
    expect(progressOut()).toEqual(['a:2']);
    expect(progressHeard()).toEqual(['a:2']);
    stop();
  });

  it('a report held back goes out when its window ends', async () => {
    const { recording, progressOut, stop } = recordingWith(20);
    await recording.emit(called('a'));
    await recording.emit(step('a', 1));
    await recording.emit(step('a', 2));
    await recording.emit(step('a', 3));
    await vi.waitFor(() => expect(progressOut()).toEqual(['a:1', 'a:3']));
    stop();
  });
});
