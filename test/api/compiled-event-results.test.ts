import { execute, type DocumentNode, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { ThreadRunEventsDocument } from '../../packages/client/src/documents.ts';
import { classify } from '../../src/errors/classify.ts';
import { recordedFailure } from '../../src/errors/recorded-failure.ts';
import { ReasonedError } from '../../src/errors/taxonomy.ts';
import type { RunEvent } from '../../src/events/subscriber-ledger.ts';
import type { ThreadEvent, ThreadEventPayload } from '../../src/events/thread-event.ts';
import { schema } from '../../src/schema/index.ts';
import { RunEventsDocument } from '../support/documents.ts';

/**
 * Live events are executed through graphql-jit (src/server/plugins/use-shared-event-results.ts),
 * which falls back to graphql-js on an error. Pinned here: for the documents clients send (the
 * shipped client's and the tests'), every kind of event executes compiled, without an error, to
 * exactly what graphql-js makes of it — a compiled path that quietly fell back would be slower, one
 * that differed would be wrong.
 */
const failure = recordedFailure(classify(new ReasonedError({ reason: 'RATE_LIMIT', retryable: true, message: 'slow down', retryAfterS: 3 })), 'en');
const toolCall = { toolCallId: 'call-1', toolName: 'work/sum', input: { a: 1, b: 2 }, output: { text: '3', truncated: false }, error: null, durationMs: 12 };
const payloads: ThreadEventPayload[] = [
  { type: 'TextDelta', messageId: 'm-2', text: 'Hello', offset: 0 },
  { type: 'ReasoningDelta', messageId: 'm-2', text: 'Hmm', offset: 0 },
  { type: 'ToolCallProgress', messageId: 'm-2', toolCallId: 'call-1', progress: 2, total: 5, message: 'two of five' },
  {
    type: 'MessageSnapshot',
    messageId: 'm-2',
    textLength: 5,
    parts: [
      { type: 'reasoning', text: 'Hmm' },
      { type: 'tool-call', state: 'SUCCEEDED', ...toolCall },
      { type: 'text', text: 'Hello' },
      { type: 'error', ...failure },
    ],
  },
  { type: 'MessageQueued', queueId: 'q-1', text: 'hi', idempotencyKey: null },
  { type: 'ExecutionStarted', acceptedText: 'hi', userMessageId: 'm-1', queueId: 'q-1' },
  { type: 'ToolCallEvent', messageId: 'm-2', state: 'SUCCEEDED', ...toolCall },
  { type: 'SuspensionOpened', suspensionId: 's-1', kind: 'APPROVAL', toolCallId: 'call-1', payload: { action: 'deploy' } },
  { type: 'ErrorEvent', ...failure },
  { type: 'ExecutionFinished', status: 'FAILED' },
  { type: 'QueueUpdated' },
];
const events: RunEvent[] = payloads.map((payload, index) => {
  const live = payload.type.endsWith('Delta') || payload.type === 'MessageSnapshot' || payload.type === 'ToolCallProgress';
  const record: ThreadEvent = {
    threadId: 'thread-1',
    seq: live ? null : index + 1,
    executionId: payload.type === 'MessageQueued' || payload.type === 'QueueUpdated' ? null : 'execution-1',
    parentExecutionId: null,
    createdAt: '2026-12-06T10:00:00.000Z',
    payload,
  };
  return { ...record, cursor: live ? `3.${index}` : String(index + 1), origin: record };
});
const context = { viewer: { id: 'user-1' }, viewerRefusal: null };
const variables = { threadId: 'VGhyZWFkOnRocmVhZC0x', after: null };

describe.each([
  ['the shipped client', ThreadRunEventsDocument as unknown as DocumentNode],
  ['the tests’ document', RunEventsDocument as unknown as DocumentNode],
])('events compiled for %s', (_name, document) => {
  const compiled = compileQuery(schema, document);

  it.each(events.map((event) => [event.payload.type, event] as const))('%s: the same result as graphql-js, without an error', async (_type, event) => {
    if (!isCompiledQuery(compiled)) throw new Error(`did not compile: ${JSON.stringify(compiled)}`);
    const fast = (await compiled.query(event, context, variables)) as ExecutionResult;
    const reference = await execute({ schema, document, rootValue: event, contextValue: context, variableValues: variables });
    expect(fast.errors).toBeUndefined();
    expect(reference.errors).toBeUndefined();
    expect(JSON.parse(JSON.stringify(fast))).toEqual(JSON.parse(JSON.stringify(reference)));
  });
});
