import { describe, expect, it } from 'vitest';
import type { MessagePart } from '../../conversation/parts.ts';
import { InvalidInputError } from '../../domain/errors.ts';
import type { ThreadEvent } from '../thread-event.ts';
import { parseCursor, resumeAfter, SNAPSHOT_WAIT_MS, SubscriberLedger } from '../subscriber-ledger.ts';

const THREAD = 'thread-1';
const createdAt = '2025-01-01T00:00:00.000Z';

function textDelta(executionId: string, offset: number, text: string): ThreadEvent {
  return {
    threadId: THREAD,
    seq: null,
    executionId,
    parentExecutionId: null,
    createdAt,
    payload: { type: 'TextDelta', messageId: `m-${executionId}`, text, offset },
  };
}

function reasoningDelta(executionId: string, offset: number, text: string): ThreadEvent {
  return {
    threadId: THREAD,
    seq: null,
    executionId,
    parentExecutionId: null,
    createdAt,
    payload: { type: 'ReasoningDelta', messageId: `m-${executionId}`, text, offset },
  };
}

function snapshot(executionId: string, parts: MessagePart[]): ThreadEvent {
  const textLength = parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  return {
    threadId: THREAD,
    seq: null,
    executionId,
    parentExecutionId: null,
    createdAt,
    payload: { type: 'MessageSnapshot', messageId: `m-${executionId}`, parts, textLength },
  };
}

function card(childExecutionId: string, text: string, reasoning = ''): MessagePart {
  const toolCallId = `call-${childExecutionId}`;
  return { type: 'delegation', toolCallId, childExecutionId, text, reasoning, truncated: false, error: null };
}

function durable(seq: number, executionId: string | null = null): ThreadEvent {
  return { threadId: THREAD, seq, executionId, parentExecutionId: null, createdAt, payload: { type: 'QueueUpdated' } };
}

/** Text and offset of delivered deltas, to compare without cursors and ids. */
function deltas(events: readonly ThreadEvent[]): { text: string; offset: number }[] {
  return events.flatMap((event) =>
    event.payload.type === 'TextDelta' || event.payload.type === 'ReasoningDelta'
      ? [{ text: event.payload.text, offset: event.payload.offset }]
      : [],
  );
}

describe('cursors', () => {
  it('a durable event’s cursor is its seq; live-only events count on from the last durable one', () => {
    const ledger = new SubscriberLedger();
    ledger.startAfter(7);
    expect(ledger.snapshot(snapshot('e1', [])).cursor).toBe('7.1');
    expect(ledger.live(textDelta('e1', 0, 'a'), 0).deliver.map((event) => event.cursor)).toEqual(['7.2']);
    expect(ledger.durable(durable(8)).cursor).toBe('8');
    expect(ledger.lastSeq).toBe(8);
    expect(ledger.live(textDelta('e1', 1, 'b'), 0).deliver.map((event) => event.cursor)).toEqual(['8.1']);
  });

  it('every cursor parses back to the durable position it continues after', () => {
    expect(parseCursor('12')).toEqual({ seq: 12 });
    expect(parseCursor('12.3')).toEqual({ seq: 12 });
    for (const bad of ['', 'abc', '1.2.3', '-1', '1.', '1234567890123456']) {
      expect(() => parseCursor(bad), bad).toThrow(InvalidInputError);
    }
  });

  it('resumes at any cursor up to the end of the log, and refuses one beyond it, saying where the log ends', () => {
    expect(resumeAfter('0', 0)).toEqual({ seq: 0 });
    expect(resumeAfter('5', 5)).toEqual({ seq: 5 });
    expect(resumeAfter('5.9', 5)).toEqual({ seq: 5 });
    expect(() => resumeAfter('6', 5)).toThrow(/ends at cursor "5"/);
    expect(() => resumeAfter('999.1', 5)).toThrow(InvalidInputError);
  });
});

describe('streamed text', () => {
  it('delivers a delta at the end of the client’s text as it is, and only the new part of an overlapping one', () => {
    const ledger = new SubscriberLedger();
    ledger.snapshot(snapshot('e1', [{ type: 'text', text: 'Hello' }]));
    expect(deltas(ledger.live(textDelta('e1', 5, ' wor'), 0).deliver)).toEqual([{ text: ' wor', offset: 5 }]);
    expect(deltas(ledger.live(textDelta('e1', 7, 'orld'), 0).deliver)).toEqual([{ text: 'ld', offset: 9 }]);
    expect(ledger.live(textDelta('e1', 3, 'lo'), 0).deliver).toEqual([]);
  });

  it('counts text and reasoning apart, over every text part of a snapshot', () => {
    const ledger = new SubscriberLedger();
    ledger.snapshot(
      snapshot('e1', [
        { type: 'reasoning', text: 'think' },
        { type: 'text', text: 'ab' },
        { type: 'tool-call', toolCallId: 't', toolName: 'x', input: {}, state: 'SUCCEEDED', output: null },
        { type: 'text', text: 'cd' },
      ]),
    );
    expect(deltas(ledger.live(textDelta('e1', 4, 'e'), 0).deliver)).toEqual([{ text: 'e', offset: 4 }]);
    expect(deltas(ledger.live(reasoningDelta('e1', 5, '!'), 0).deliver)).toEqual([{ text: '!', offset: 5 }]);
  });

  it('takes a delegated child’s text from its card in the parent’s snapshot', () => {
    const ledger = new SubscriberLedger();
    ledger.snapshot(snapshot('parent', [{ type: 'text', text: 'P' }, card('child', 'child text', 'why')]));
    expect(deltas(ledger.live(textDelta('child', 6, 'text more'), 0).deliver)).toEqual([{ text: ' more', offset: 10 }]);
    expect(deltas(ledger.live(reasoningDelta('child', 3, '?'), 0).deliver)).toEqual([{ text: '?', offset: 3 }]);
  });

  it('passes other live events through untouched', () => {
    const ledger = new SubscriberLedger();
    const event = { ...durable(0), seq: null };
    expect(ledger.live(event, 0)).toEqual({ deliver: [{ ...event, cursor: '0.1', origin: event }], askForSnapshot: null });
  });
});

describe('a hole before a delta', () => {
  it('holds the delta and those after it, and asks for a snapshot of that execution only once', () => {
    const ledger = new SubscriberLedger();
    expect(ledger.live(textDelta('e1', 3, 'def'), 100)).toEqual({ deliver: [], askForSnapshot: 'e1' });
    expect(ledger.live(textDelta('e1', 6, 'gh'), 110)).toEqual({ deliver: [], askForSnapshot: null });
    // Another execution is not held back by it.
    expect(deltas(ledger.live(textDelta('e2', 0, 'x'), 120).deliver)).toEqual([{ text: 'x', offset: 0 }]);
    expect(ledger.heldExecutions()).toEqual(['e1']);
    expect(ledger.nextDeadline()).toBe(100 + SNAPSHOT_WAIT_MS);
  });

  it('a snapshot of the execution closes it: the snapshot, then what of the held deltas it does not cover', () => {
    const ledger = new SubscriberLedger();
    ledger.live(textDelta('e1', 3, 'def'), 0);
    ledger.live(textDelta('e1', 6, 'gh'), 0);
    const { deliver } = ledger.live(snapshot('e1', [{ type: 'text', text: 'abcde' }]), 0);
    expect(deliver.map((event) => event.payload.type)).toEqual(['MessageSnapshot', 'TextDelta', 'TextDelta']);
    expect(deltas(deliver)).toEqual([
      { text: 'f', offset: 5 },
      { text: 'gh', offset: 6 },
    ]);
    expect(ledger.heldExecutions()).toEqual([]);
    expect(ledger.nextDeadline()).toBe(Infinity);
  });

  it('waits until its deadline, then settles with the best snapshot there is', () => {
    const ledger = new SubscriberLedger();
    ledger.live(textDelta('e1', 2, 'cd'), 1_000);
    expect(ledger.isOverdue('e1', 1_000 + SNAPSHOT_WAIT_MS - 1)).toBe(false);
    expect(ledger.isOverdue('e1', 1_000 + SNAPSHOT_WAIT_MS)).toBe(true);
    const settled = ledger.settle('e1', snapshot('e1', [{ type: 'text', text: 'abc' }]));
    expect(settled.map((event) => event.payload.type)).toEqual(['MessageSnapshot', 'TextDelta']);
    expect(deltas(settled)).toEqual([{ text: 'd', offset: 3 }]);
    expect(ledger.isOverdue('e1', Infinity)).toBe(false);
  });

  it('a hole that no snapshot covers is delivered as it is: the client sees what was lost', () => {
    const ledger = new SubscriberLedger();
    ledger.live(textDelta('e1', 5, 'fg'), 0);
    ledger.live(textDelta('e1', 7, 'h'), 0);
    expect(deltas(ledger.settle('e1', null))).toEqual([
      { text: 'fg', offset: 5 },
      { text: 'h', offset: 7 },
    ]);
  });

  it('a snapshot behind what the client has replaces its text: a delta beyond it is a hole again', () => {
    const ledger = new SubscriberLedger();
    ledger.live(textDelta('e1', 0, 'abcdef'), 0);
    ledger.snapshot(snapshot('e1', [{ type: 'text', text: 'abc' }]));
    expect(ledger.live(textDelta('e1', 6, 'g'), 0)).toEqual({ deliver: [], askForSnapshot: 'e1' });
  });
});

describe('a delegated child’s text', () => {
  it('asks for its parent’s snapshot when text before a delta is missing, and the parent’s snapshot releases it', () => {
    const ledger = new SubscriberLedger();
    const childDelta = { ...textDelta('child', 3, 'def'), parentExecutionId: 'root' };
    const held = ledger.live(childDelta, 0);
    // Only the instance running the root answers snapshot requests; the child is not registered there.
    expect(held).toEqual({ deliver: [], askForSnapshot: 'root' });
    expect(ledger.heldExecutions()).toEqual(['root']);
    const card: MessagePart = {
      type: 'delegation',
      toolCallId: 'call',
      childExecutionId: 'child',
      text: 'abc',
      reasoning: '',
      truncated: false,
      error: null,
    };
    const released = ledger.live(snapshot('root', [card]), 0).deliver;
    expect(released.map((event) => event.payload.type)).toEqual(['MessageSnapshot', 'TextDelta']);
    expect(released[1]!.payload).toMatchObject({ offset: 3, text: 'def' });
    expect(ledger.heldExecutions()).toEqual([]);
  });
});
