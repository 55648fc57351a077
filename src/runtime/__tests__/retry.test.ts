import { APICallError, type LanguageModelV3StreamPart, type LanguageModelV3StreamResult } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { RetryPolicy } from '../../errors/retry-policy.ts';
import { createDemoModel } from '../../models/demo/model.ts';
import type { AgentRunInput } from '../agent-run-input.ts';
import { runAgent, type RunOutcome } from '../agent-runtime.ts';
import type { RuntimeEvent } from '../runtime-event.ts';

/**
 * The agent loop's retries (docs/errors.md, retries): a retryable failure is retried only while nothing of the attempt
 * was streamed, each retry is announced with its delay (never sooner than the server asked), and a Stop
 * during the backoff ends the run at once.
 */

const FAST: RetryPolicy = { maxAttempts: 3, baseDelayS: 0.001, maxDelayS: 0.01, deadlineS: 60 };

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function streamOf(parts: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult {
  return { stream: convertArrayToReadableStream(parts) };
}

function reply(...chunks: string[]): LanguageModelV3StreamResult {
  return streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...chunks.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE },
  ]);
}

/** A stream that streams `chunks` of text, then carries a provider's mid-stream error event. */
function textThenError(chunks: string[], error: unknown): LanguageModelV3StreamResult {
  return streamOf([
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...chunks.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'error', error },
  ]);
}

function httpError(statusCode: number, headers: Record<string, string> = {}, code = 'server_error'): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://api.openai.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: { 'x-request-id': `req_${statusCode}`, ...headers },
    responseBody: JSON.stringify({ error: { message: `HTTP ${statusCode}`, type: code, code } }),
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
}

/** A mock model whose successive calls get the successive outcomes (a stream, or an error thrown by doStream). */
function scriptedModel(outcomes: Array<LanguageModelV3StreamResult | Error>) {
  const callTimes: number[] = [];
  const model = new MockLanguageModelV3({
    provider: 'openai.chat',
    modelId: 'gpt-test',
    doStream: async () => {
      callTimes.push(performance.now());
      const outcome = outcomes[callTimes.length - 1];
      if (outcome === undefined) throw new Error(`unexpected model call #${callTimes.length}`);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  });
  return { model, callTimes };
}

function drive(
  model: AgentRunInput['model'],
  options: { policy?: RetryPolicy; text?: string; onEvent?: (event: RuntimeEvent, controller: AbortController) => void } = {},
) {
  const controller = new AbortController();
  const events: RuntimeEvent[] = [];
  const messages: ModelMessage[] = [{ role: 'user', content: options.text ?? 'Hello' }];
  const promise: Promise<RunOutcome> = runAgent({
    model,
    provider: 'openai',
    system: '',
    messages,
    tools: {},
    signal: controller.signal,
    retryPolicy: options.policy ?? FAST,
    maxSteps: 4,
    emit: async (event) => {
      events.push(event);
      options.onEvent?.(event, controller);
    },
  });
  return { controller, events, promise };
}

const retriesIn = (events: RuntimeEvent[]) =>
  events.flatMap((event) => (event.type === 'retry-scheduled' ? [event] : []));
const textOf = (events: RuntimeEvent[]) =>
  events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');

/** A failed run is returned with its classified failure, never thrown. */
async function failureOf(promise: Promise<RunOutcome>): Promise<Extract<RunOutcome, { outcome: 'FAILED' }>> {
  const result = await promise;
  expect(result.outcome).toBe('FAILED');
  return result as Extract<RunOutcome, { outcome: 'FAILED' }>;
}

describe('cancellation during a backoff wait', () => {
  it('a Stop while waiting a 30 s retry-after ends the run at once (ABORTED: the Stop is the signal’s reason)', async () => {
    const { model, callTimes } = scriptedModel([httpError(429, { 'retry-after': '30' }, 'rate_limit_exceeded'), reply('never')]);
    const started = performance.now();
    const { events, promise } = drive(model, {
      policy: { maxAttempts: 3, baseDelayS: 0.001, maxDelayS: 1, deadlineS: 120 },
      // Stop once the backoff wait has begun: the runtime starts waiting right after this emit returns.
      onEvent: (event, controller) => {
        if (event.type === 'retry-scheduled') setImmediate(() => controller.abort());
      },
    });
    const result = await promise;
    const elapsedMs = performance.now() - started;

    expect(result.outcome).toBe('ABORTED');
    expect(retriesIn(events)).toEqual([{ type: 'retry-scheduled', attempt: 1, delayS: 30, reason: 'RATE_LIMIT' }]);
    // Resolved while the 30 s retry-after was still far away, and without a second attempt.
    expect(elapsedMs).toBeLessThan(5_000);
    expect(callTimes).toHaveLength(1);
    expect('failure' in result).toBe(false);
  });

  it('the same with the demo model’s rate limit (retry-after 7 s)', async () => {
    const started = performance.now();
    const { events, promise } = drive(createDemoModel('default'), {
      text: '/fail rate_limit',
      onEvent: (event, controller) => {
        if (event.type === 'retry-scheduled') setImmediate(() => controller.abort());
      },
    });
    const result = await promise;
    expect(result.outcome).toBe('ABORTED');
    const [retry] = retriesIn(events);
    expect(retry).toMatchObject({ attempt: 1, reason: 'RATE_LIMIT' });
    expect(retry!.delayS).toBeGreaterThanOrEqual(7);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a Stop the moment the retry is announced cancels without a second attempt', async () => {
    const { model, callTimes } = scriptedModel([httpError(503, { 'retry-after': '30' }), reply('never')]);
    const { events, promise } = drive(model, {
      onEvent: (event, controller) => {
        if (event.type === 'retry-scheduled') controller.abort();
      },
    });
    expect((await promise).outcome).toBe('ABORTED');
    expect(retriesIn(events)).toHaveLength(1);
    expect(callTimes).toHaveLength(1);
  });
});

describe('retries only while nothing was streamed', () => {
  it('a retryable failure before any output is retried, announced, and the reply follows', async () => {
    const { model, callTimes } = scriptedModel([httpError(503), httpError(500), reply('Hello', ' again')]);
    const { events, promise } = drive(model);
    const result = await promise;
    expect(result.outcome).toBe('COMPLETED');
    expect(retriesIn(events).map(({ attempt, reason }) => ({ attempt, reason }))).toEqual([
      { attempt: 1, reason: 'PROVIDER_INTERNAL' },
      { attempt: 2, reason: 'PROVIDER_INTERNAL' },
    ]);
    expect(textOf(events)).toBe('Hello again');
    expect(callTimes).toHaveLength(3);
    // Every retry is announced before the text of the attempt that succeeds.
    const lastRetry = events.findLastIndex((event) => event.type === 'retry-scheduled');
    const firstText = events.findIndex((event) => event.type === 'text-delta');
    expect(lastRetry).toBeLessThan(firstText);
  });

  it('an error event as the first thing in the stream (nothing streamed yet) is retried', async () => {
    const { model, callTimes } = scriptedModel([
      textThenError([], { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      reply('Fine'),
    ]);
    const { events, promise } = drive(model);
    expect((await promise).outcome).toBe('COMPLETED');
    expect(retriesIn(events)).toHaveLength(1);
    expect(textOf(events)).toBe('Fine');
    expect(callTimes).toHaveLength(2);
  });

  it.each([
    ['an overloaded_error event', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'PROVIDER_INTERNAL'],
    ['a rate_limit error event', { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, 'RATE_LIMIT'],
    ['a dropped connection', Object.assign(new TypeError('terminated'), { cause: { code: 'UND_ERR_SOCKET' } }), 'TRANSPORT'],
  ])('%s after text is never retried: the run fails with the text kept', async (_label, error, reason) => {
    const { model, callTimes } = scriptedModel([textThenError(['Partial', ' answer'], error), reply('must not be asked')]);
    const { events, promise } = drive(model);
    const failure = await failureOf(promise);
    expect(failure.failure).toMatchObject({ reason, retryable: true });
    expect(retriesIn(events)).toEqual([]);
    expect(textOf(events)).toBe('Partial answer');
    expect(callTimes).toHaveLength(1);
  });

  it('reasoning counts as streamed: an error after a reasoning delta is not retried', async () => {
    const { model, callTimes } = scriptedModel([
      streamOf([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Thinking…' },
        { type: 'error', error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ]),
      reply('must not be asked'),
    ]);
    const { events, promise } = drive(model);
    await failureOf(promise);
    expect(retriesIn(events)).toEqual([]);
    expect(callTimes).toHaveLength(1);
  });

  it('the demo model failing after streamed chunks is not retried', async () => {
    const { events, promise } = drive(createDemoModel('default'), { text: '/fail provider_internal after 2' });
    const failure = await failureOf(promise);
    expect(failure.failure.reason).toBe('PROVIDER_INTERNAL');
    expect(retriesIn(events)).toEqual([]);
    expect(textOf(events)).toBe('t1 t2 ');
  });

  it('a fatal failure is not retried', async () => {
    const { model, callTimes } = scriptedModel([httpError(401, {}, 'invalid_api_key'), reply('must not be asked')]);
    const { events, promise } = drive(model);
    expect((await failureOf(promise)).failure).toMatchObject({ reason: 'AUTHENTICATION', retryable: false });
    expect(retriesIn(events)).toEqual([]);
    expect(callTimes).toHaveLength(1);
  });

  it('attempts are bounded by maxAttempts; the final failure is the last attempt’s', async () => {
    const { model, callTimes } = scriptedModel([httpError(503), httpError(502), httpError(500)]);
    const { events, promise } = drive(model);
    const failure = await failureOf(promise);
    expect(failure.failure).toMatchObject({ reason: 'PROVIDER_INTERNAL', httpStatus: 500, requestId: 'req_500' });
    expect(retriesIn(events).map((retry) => retry.attempt)).toEqual([1, 2]);
    expect(callTimes).toHaveLength(3);
  });
});

describe('the announced delay is never below the server’s retry-after', () => {
  it.each([
    { label: 'retry-after-ms 40 above the backoff', headers: { 'retry-after-ms': '40' }, policy: FAST, atLeastS: 0.04 },
    {
      label: 'retry-after-ms 60 above maxDelayS',
      headers: { 'retry-after-ms': '60' },
      policy: { ...FAST, maxDelayS: 0.005 },
      atLeastS: 0.06,
    },
    { label: 'backoff above a small retry-after', headers: { 'retry-after-ms': '1' }, policy: { ...FAST, baseDelayS: 0.05, maxDelayS: 1 }, atLeastS: 0.025 },
  ])('$label', async ({ headers, policy, atLeastS }) => {
    const { model, callTimes } = scriptedModel([httpError(429, headers, 'rate_limit_exceeded'), reply('ok')]);
    const { events, promise } = drive(model, { policy });
    expect((await promise).outcome).toBe('COMPLETED');
    const [retry] = retriesIn(events);
    expect(retry).toMatchObject({ attempt: 1, reason: 'RATE_LIMIT' });
    expect(retry!.delayS).toBeGreaterThanOrEqual(atLeastS);
    const retryAfterS = headers['retry-after-ms'] ? Number(headers['retry-after-ms']) / 1000 : 0;
    expect(retry!.delayS).toBeGreaterThanOrEqual(retryAfterS);
    // And the runtime really waited that long before asking again (timers may fire a little early).
    expect(callTimes[1]! - callTimes[0]!).toBeGreaterThanOrEqual(retry!.delayS * 1000 - 2);
  });

  it('a retry-after that would end past the deadline means no retry: the failure is final at once', async () => {
    const { model, callTimes } = scriptedModel([httpError(429, { 'retry-after': '30' }, 'rate_limit_exceeded'), reply('never')]);
    const started = performance.now();
    const { events, promise } = drive(model, { policy: { ...FAST, deadlineS: 5 } });
    const failure = await failureOf(promise);
    expect(failure.failure).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, retryAfterS: 30 });
    expect(retriesIn(events)).toEqual([]);
    expect(callTimes).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
