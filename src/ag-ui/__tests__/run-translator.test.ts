import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../events/subscriber-ledger.ts';
import type { ThreadEventPayload } from '../../events/thread-event.ts';
import { RunTranslator } from '../run-translator.ts';

const RUN = 'exec-1';
const REPLY = 'reply-1';

function event(payload: ThreadEventPayload, executionId: string | null = RUN): RunEvent {
  const record = { threadId: 't', seq: null, executionId, parentExecutionId: null, createdAt: '', payload };
  return { ...record, cursor: '0.1', origin: record };
}

const isRunEvent = (item: ThreadEventPayload | RunEvent): item is RunEvent => 'cursor' in item;

/** Every AG-UI event of the given thread events, and the end if one came. */
function translateAll(translator: RunTranslator, payloads: (ThreadEventPayload | RunEvent)[]) {
  const out = [];
  let end = null;
  for (const item of payloads) {
    const translated = translator.translate(isRunEvent(item) ? item : event(item));
    out.push(...translated.events);
    end ??= translated.end;
  }
  return { events: [...out, ...translator.close()], end };
}

const started: ThreadEventPayload = { type: 'ExecutionStarted', queueId: 'q1', acceptedText: 'hi', userMessageId: 'u1' };
const text = (offset: number, value: string): ThreadEventPayload => ({ type: 'TextDelta', messageId: REPLY, offset, text: value });
const call = (state: 'CALLED' | 'SUCCEEDED'): ThreadEventPayload => ({
  type: 'ToolCallEvent', messageId: REPLY, toolCallId: 'c1', toolName: 'lookup', state, input: { q: 1 }, output: state === 'SUCCEEDED' ? 'found' : null,
});

describe('RunTranslator', () => {
  it('follows the turn of its queued message only, and streams its text once, whatever the offsets repeat', () => {
    const translator = new RunTranslator({ queueId: 'q1' });
    const { events, end } = translateAll(translator, [
      event(text(0, 'other run'), 'exec-0'),
      started,
      text(0, 'Hel'),
      text(0, 'Hello'),
      { type: 'MessageSnapshot', messageId: REPLY, parts: [{ type: 'text', text: 'Hello, wor' }], textLength: 10 },
      text(5, ', world'),
      { type: 'ExecutionFinished', status: 'COMPLETED' },
    ]);
    expect(end).toEqual({ executionId: RUN, status: 'COMPLETED', failure: null });
    expect(events.map((item) => item.type)).toEqual([
      'STEP_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED',
    ]);
    expect(events.flatMap((item) => (item.type === 'TEXT_MESSAGE_CONTENT' ? [item.delta] : [])).join('')).toBe('Hello, world');
  });

  it('closes the text for a tool call, gives its result, and starts a step when the model speaks again', () => {
    const translator = new RunTranslator({ executionId: RUN });
    const { events } = translateAll(translator, [started, text(0, 'Let me look. '), call('CALLED'), call('SUCCEEDED'), text(13, 'Found it.')]);
    expect(events.map((item) => item.type)).toEqual([
      'STEP_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
      'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
      'STEP_FINISHED', 'STEP_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED',
    ]);
    expect(events.find((item) => item.type === 'TOOL_CALL_ARGS')).toMatchObject({ delta: '{"q":1}' });
    expect(events.find((item) => item.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'c1', content: 'found', messageId: 'c1-result' });
  });

  it('gives a resumed run only what its client lacks, and ends on a suspension', () => {
    const translator = new RunTranslator({ executionId: RUN }, { text: 5, reasoning: 0, toolCalls: new Set(['c1']), results: new Set() });
    const { events, end } = translateAll(translator, [
      { type: 'MessageSnapshot', messageId: REPLY, parts: [{ type: 'text', text: 'Hello' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: {}, state: 'SUCCEEDED', output: 'ok' }], textLength: 5 },
      { type: 'ExecutionUpdated', status: 'SUSPENDED' },
    ]);
    expect(events.map((item) => item.type)).toEqual(['STEP_STARTED', 'TOOL_CALL_RESULT', 'STEP_FINISHED']);
    expect(end).toMatchObject({ status: 'SUSPENDED' });
  });

  it('streams reasoning as a reasoning message in its own span, closed before the text', () => {
    const translator = new RunTranslator({ executionId: RUN });
    const reasoning: ThreadEventPayload = { type: 'ReasoningDelta', messageId: REPLY, offset: 0, text: 'Thinking.' };
    const { events } = translateAll(translator, [started, reasoning, text(0, 'Done.')]);
    expect(events.map((item) => item.type)).toEqual([
      'STEP_STARTED', 'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
      'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'STEP_FINISHED',
    ]);
    expect(events[1]).toMatchObject({ messageId: `${REPLY}-reasoning-1` });
  });

  it('keeps the failure for the end, with its reason', () => {
    const translator = new RunTranslator({ executionId: RUN });
    const failure = { reason: 'RATE_LIMIT', retryable: true, retryAfterS: 7, message: 'Slow down.' };
    const { end } = translateAll(translator, [{ type: 'ErrorEvent', ...failure } as ThreadEventPayload, { type: 'ExecutionFinished', status: 'FAILED' }]);
    expect(end).toEqual({ executionId: RUN, status: 'FAILED', failure });
  });
});
