import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createLiveBus } from '../../src/events/live-bus.ts';
import type { ThreadEvent } from '../../src/events/thread-event.ts';
import type { SqlClient } from '../../src/storage/sql-client.ts';
import { ListenerChain, type RunState } from '../../src/recording/run-listener.ts';
import { RunRecording } from '../../src/recording/run-recording.ts';
import type { RuntimeEvent } from '../../src/runtime/runtime-event.ts';

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

describe('a run’s deltas', () => {
  it('reach the bus before any listener records them, with offsets that count what came before', async () => {
    const bus = createLiveBus(undefined, pino({ level: 'silent' }));
    const published: ThreadEvent[] = [];
    const stop = bus.subscribeThread('thread-1', (event) => published.push(event));
    // What the bus had delivered when each listener got each delta.
    const seenByListener: number[] = [];
    const chain = new ListenerChain([
      {
        onEvent: async (event: RuntimeEvent) => {
          if (event.type === 'text-delta' || event.type === 'reasoning-delta') seenByListener.push(published.length);
        },
      },
    ]);
    // No event here touches the database: deltas are live only.
    const recording = new RunRecording({ sql: {} as SqlClient, bus }, chain, runState());

    await recording.emit({ type: 'text-delta', text: 'Hel' });
    await recording.emit({ type: 'reasoning-delta', text: 'hmm' });
    await recording.emit({ type: 'text-delta', text: 'lo' });

    expect(seenByListener).toEqual([1, 2, 3]);
    expect(published.map((event) => event.payload)).toEqual([
      { type: 'TextDelta', messageId: 'message-1', text: 'Hel', offset: 0 },
      { type: 'ReasoningDelta', messageId: 'message-1', text: 'hmm', offset: 0 },
      { type: 'TextDelta', messageId: 'message-1', text: 'lo', offset: 3 },
    ]);
    expect(recording.run.textLength).toBe(5);
    expect(recording.run.reasoningLength).toBe(3);
    stop();
  });

  it('within the window, join into one delta that goes out at the window’s end, or before anything else the run says', async () => {
    const bus = createLiveBus(undefined, pino({ level: 'silent' }));
    const published: ThreadEvent[] = [];
    const stop = bus.subscribeThread('thread-1', (event) => published.push(event));
    const recording = new RunRecording({ sql: {} as SqlClient, bus, deltaWindowMs: 60_000 }, new ListenerChain([]), runState());
    const payloads = () => published.map((event) => event.payload);

    // The first after a quiet window goes out at once; the next ones wait for the window's end…
    await recording.emit({ type: 'text-delta', text: 'He' });
    await recording.emit({ type: 'text-delta', text: 'l' });
    await recording.emit({ type: 'text-delta', text: 'lo' });
    expect(payloads()).toEqual([{ type: 'TextDelta', messageId: 'message-1', text: 'He', offset: 0 }]);
    // …or for a change of kind, which sends what was joined first, in order.
    await recording.emit({ type: 'reasoning-delta', text: 'hmm' });
    // Anything else the run says comes after the text before it.
    await recording.emit({ type: 'retry-scheduled', attempt: 1, delayS: 1, reason: 'RATE_LIMIT' });
    expect(payloads()).toEqual([
      { type: 'TextDelta', messageId: 'message-1', text: 'He', offset: 0 },
      { type: 'TextDelta', messageId: 'message-1', text: 'llo', offset: 2 },
      { type: 'ReasoningDelta', messageId: 'message-1', text: 'hmm', offset: 0 },
    ]);
    stop();
  });

  it('a joined delta goes out when its window ends', async () => {
    const bus = createLiveBus(undefined, pino({ level: 'silent' }));
    const published: ThreadEvent[] = [];
    const stop = bus.subscribeThread('thread-1', (event) => published.push(event));
    const recording = new RunRecording({ sql: {} as SqlClient, bus, deltaWindowMs: 20 }, new ListenerChain([]), runState());
    await recording.emit({ type: 'text-delta', text: 'a' });
    await recording.emit({ type: 'text-delta', text: 'b' });
    await recording.emit({ type: 'text-delta', text: 'c' });
    await vi.waitFor(() => expect(published).toHaveLength(2));
    expect(published.map((event) => event.payload)).toEqual([
      { type: 'TextDelta', messageId: 'message-1', text: 'a', offset: 0 },
      { type: 'TextDelta', messageId: 'message-1', text: 'bc', offset: 1 },
    ]);
    stop();
  });
});
