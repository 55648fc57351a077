import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool, type LanguageModel } from 'ai';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { classify } from '../../src/errors/classify.ts';
import { logModelWarningsTo } from '../../src/observability/logging.ts';
import { startFakeProvider, type FakeBehaviour, type FakeProvider, type FakeProtocol } from '../support/fake-provider.ts';
import { eventually, testLogger } from '../support/server.ts';

/**
 * Drives the real provider packages against the local fake provider and checks that
 * what they throw or stream is classified correctly — the shapes here are whatever
 * the installed package versions really produce, not hand-made imitations.
 */

interface ModelUnderTest {
  label: string;
  protocol: FakeProtocol;
  provider: string;
  create: (baseURL: string) => LanguageModel;
}

const OPENAI_CHAT: ModelUnderTest = {
  label: 'openai chat',
  protocol: 'openai-chat',
  provider: 'openai',
  create: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-test' }).chat('gpt-test'),
};
const OPENAI_RESPONSES: ModelUnderTest = {
  label: 'openai responses',
  protocol: 'openai-responses',
  provider: 'openai',
  create: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-test' }).responses('gpt-test'),
};
const ANTHROPIC: ModelUnderTest = {
  label: 'anthropic',
  protocol: 'anthropic-messages',
  provider: 'anthropic',
  create: (baseURL) => createAnthropic({ baseURL, apiKey: 'sk-ant-test' })('claude-test'),
};
const OPENAI_COMPATIBLE: ModelUnderTest = {
  label: 'openai-compatible',
  protocol: 'openai-chat',
  provider: 'ollama',
  create: (baseURL) => createOpenAICompatible({ name: 'ollama', baseURL })('llama-test'),
};
const OPENAI_FAMILY = [OPENAI_CHAT, OPENAI_RESPONSES, OPENAI_COMPATIBLE];
const ALL_MODELS = [...OPENAI_FAMILY, ANTHROPIC];

let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider();
  // The models here are unknown to their packages: Anthropic's warns of a compatibility mode.
  logModelWarningsTo(testLogger());
});
afterAll(async () => {
  await provider.close();
});
beforeEach(() => {
  provider.reset();
});

interface StreamOutcome {
  text: string;
  errors: unknown[];
  toolCalls: Array<{ toolName: string; input: unknown }>;
}

async function streamOnce(model: ModelUnderTest, options: { abortSignal?: AbortSignal; withTools?: boolean; onText?: (textSoFar: string) => void } = {}): Promise<StreamOutcome> {
  const result = streamText({
    model: model.create(provider.url),
    prompt: 'Say hello',
    maxRetries: 0,
    abortSignal: options.abortSignal,
    // The errors are read from the stream below; the SDK's default would also print each one.
    onError: () => {},
    tools: options.withTools
      ? {
          lookup_weather: tool({
            description: 'Weather for a city',
            inputSchema: jsonSchema<{ city: string }>({
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            }),
          }),
        }
      : undefined,
  });
  const outcome: StreamOutcome = { text: '', errors: [], toolCalls: [] };
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        outcome.text += part.text;
        options.onText?.(outcome.text);
      }
      if (part.type === 'error') outcome.errors.push(part.error);
      if (part.type === 'tool-call') outcome.toolCalls.push({ toolName: part.toolName, input: part.input });
    }
  } catch (thrown) {
    // A connection that dies while the body streams is not an `error` part: the
    // iteration itself throws. An agent loop has to catch both.
    outcome.errors.push(thrown);
  }
  return outcome;
}

/** The single error a failing stream produced, classified as the agent boundary would. */
async function failureOf(model: ModelUnderTest, behaviour: FakeBehaviour) {
  provider.enqueue(behaviour);
  const outcome = await streamOnce(model);
  expect(outcome.errors).toHaveLength(1);
  return { outcome, failure: classify(outcome.errors[0], { provider: model.provider }) };
}

describe('fake provider: normal replies through the real packages', () => {
  it.each(ALL_MODELS)('$label streams the scripted chunks and records the request', async (model) => {
    provider.enqueue({ kind: 'reply', chunks: ['Hello', ', ', 'world'] });

    const outcome = await streamOnce(model);

    expect(outcome.errors).toEqual([]);
    expect(outcome.text).toBe('Hello, world');
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0].protocol).toBe(model.protocol);
    expect(provider.requests[0].body.stream).toBe(true);
    expect(JSON.stringify(provider.requests[0].body)).toContain('Say hello');
    expect(provider.pending()).toBe(0);
  });

  it.each(ALL_MODELS)('$label answers a non-streaming generateText call', async (model) => {
    provider.enqueue({ kind: 'reply', chunks: ['Plain', ' answer'] });

    const result = await generateText({ model: model.create(provider.url), prompt: 'Hi', maxRetries: 0 });

    expect(result.text).toBe('Plain answer');
  });

  it.each(ALL_MODELS)('$label receives scripted tool calls', async (model) => {
    provider.enqueue({ kind: 'tool-calls', textBefore: ['Let me check.'], calls: [{ name: 'lookup_weather', input: { city: 'Berlin' } }] });

    const outcome = await streamOnce(model, { withTools: true });

    expect(outcome.errors).toEqual([]);
    expect(outcome.text).toBe('Let me check.');
    expect(outcome.toolCalls).toEqual([{ toolName: 'lookup_weather', input: { city: 'Berlin' } }]);
  });

  it("a provider's warning goes to Parley's log at warn, not to the console", async () => {
    const lines: Array<{ level: number; msg: string; provider: string; model: string; warnings: unknown[] }> = [];
    logModelWarningsTo(pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) }));
    const consoleWarn = vi.spyOn(console, 'warn');
    try {
      provider.enqueue({ kind: 'reply', chunks: ['Hello'] });
      expect((await streamOnce(ANTHROPIC)).text).toBe('Hello');
      expect(consoleWarn).not.toHaveBeenCalled();
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'model provider warning',
          provider: 'anthropic.messages',
          model: 'claude-test',
          warnings: [expect.objectContaining({ feature: 'maxOutputTokens' })],
        }),
      ]);
    } finally {
      consoleWarn.mockRestore();
      logModelWarningsTo(testLogger());
    }
  });

  it('answers with the default reply once the queue is empty, and in queue order before that', async () => {
    provider.enqueue({ kind: 'reply', chunks: ['first'] }, { kind: 'reply', chunks: ['second'] });

    const texts = [];
    for (let i = 0; i < 3; i += 1) texts.push((await streamOnce(OPENAI_CHAT)).text);

    expect(texts).toEqual(['first', 'second', 'Hello from the fake provider.']);
  });

  it('answers a non-model path with 404 without consuming the script', async () => {
    provider.enqueue({ kind: 'reply', chunks: ['scripted'] });

    const response = await fetch(`${provider.url}/files`);

    expect(response.status).toBe(404);
    expect(provider.pending()).toBe(1);
    expect((await streamOnce(OPENAI_CHAT)).text).toBe('scripted');
    expect(provider.requests.map((request) => request.behaviour?.kind ?? null)).toEqual([null, 'reply']);
  });

  it('keeps a hanging stream open until the client aborts', async () => {
    provider.enqueue({ kind: 'hang', chunksBefore: ['partial'] });
    const controller = new AbortController();
    let received = '';
    let ended = false;
    const resultPromise = streamOnce(ANTHROPIC, { abortSignal: controller.signal, onText: (text) => (received = text) });
    const end = () => (ended = true);
    void resultPromise.then(end, end);
    await eventually(() => received === 'partial', 15_000, 'the chunk before the hang');
    // Deliberate delay: time passes with the stream hanging; it must stay open all the same.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
    controller.abort();

    const outcome = await resultPromise;

    expect(outcome.text).toBe('partial');
  });
});

describe('HTTP error statuses', () => {
  it.each(OPENAI_FAMILY)('$label: 429 with Retry-After 7 is a retryable RATE_LIMIT after 7 s', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 429,
      error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after': '7', 'x-ratelimit-reset-requests': '20s' },
    });

    expect(failure).toMatchObject({
      reason: 'RATE_LIMIT',
      retryable: true,
      retryAfterS: 7,
      httpStatus: 429,
      providerCode: 'rate_limit_exceeded',
      requestId: 'req_fake_1',
      provider: model.provider,
      detail: 'Rate limit reached for requests',
    });
  });

  it('anthropic: 429 rate_limit_error with retry-after', async () => {
    const { failure } = await failureOf(ANTHROPIC, {
      kind: 'http-error',
      status: 429,
      error: { message: 'Number of request tokens has exceeded your per-minute rate limit' },
      headers: { 'retry-after': '12' },
    });

    expect(failure).toMatchObject({
      reason: 'RATE_LIMIT',
      retryable: true,
      retryAfterS: 12,
      httpStatus: 429,
      providerCode: 'rate_limit_error',
      requestId: 'req_fake_1',
      provider: 'anthropic',
    });
  });

  it('openai: 429 without retry-after falls back to x-ratelimit-reset-requests', async () => {
    const { failure } = await failureOf(OPENAI_CHAT, {
      kind: 'http-error',
      status: 429,
      error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '1.5s' },
    });

    expect(failure.retryAfterS).toBe(360);
  });

  it('anthropic: 429 without retry-after falls back to anthropic-ratelimit-requests-reset', async () => {
    const resetAt = new Date(Date.now() + 30_000).toISOString();
    const { failure } = await failureOf(ANTHROPIC, {
      kind: 'http-error',
      status: 429,
      error: { message: 'rate limited' },
      headers: { 'anthropic-ratelimit-requests-reset': resetAt },
    });

    expect(failure.reason).toBe('RATE_LIMIT');
    expect(failure.retryAfterS).toBeGreaterThan(28);
    expect(failure.retryAfterS).toBeLessThanOrEqual(30);
  });

  it.each([OPENAI_CHAT, OPENAI_RESPONSES])('$label: 429 insufficient_quota is a fatal QUOTA_EXCEEDED', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 429,
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
      headers: { 'retry-after': '1' },
    });

    expect(failure).toMatchObject({ reason: 'QUOTA_EXCEEDED', retryable: false, retryAfterS: null, providerCode: 'insufficient_quota' });
  });

  it('anthropic: 400 "credit balance is too low" is a fatal QUOTA_EXCEEDED', async () => {
    const { failure } = await failureOf(ANTHROPIC, {
      kind: 'http-error',
      status: 400,
      error: { message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' },
    });

    expect(failure).toMatchObject({ reason: 'QUOTA_EXCEEDED', retryable: false, httpStatus: 400, providerCode: 'invalid_request_error' });
  });

  it.each(ALL_MODELS)('$label: 401 is a fatal AUTHENTICATION', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 401,
      error: { message: 'Incorrect API key provided: sk-test.', code: 'invalid_api_key' },
    });

    expect(failure).toMatchObject({ reason: 'AUTHENTICATION', retryable: false, retryAfterS: null, httpStatus: 401 });
  });

  it.each(ALL_MODELS)('$label: 403 is a fatal AUTHORIZATION', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 403,
      error: { message: 'Your API key does not have permission to use the specified resource.' },
    });

    expect(failure).toMatchObject({ reason: 'AUTHORIZATION', retryable: false, httpStatus: 403 });
  });

  it.each(OPENAI_FAMILY)('$label: 400 context_length_exceeded is a fatal CONTEXT_LENGTH', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 400,
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      },
    });

    expect(failure).toMatchObject({ reason: 'CONTEXT_LENGTH', retryable: false, httpStatus: 400, providerCode: 'context_length_exceeded' });
  });

  it('anthropic: 400 "prompt is too long" is CONTEXT_LENGTH', async () => {
    const { failure } = await failureOf(ANTHROPIC, {
      kind: 'http-error',
      status: 400,
      error: { message: 'prompt is too long: 215482 tokens > 200000 maximum' },
    });

    expect(failure).toMatchObject({ reason: 'CONTEXT_LENGTH', retryable: false, providerCode: 'invalid_request_error' });
  });

  it('anthropic: 413 request_too_large is CONTEXT_LENGTH', async () => {
    const { failure } = await failureOf(ANTHROPIC, {
      kind: 'http-error',
      status: 413,
      error: { message: 'Request exceeds the maximum allowed number of bytes.' },
    });

    expect(failure).toMatchObject({ reason: 'CONTEXT_LENGTH', httpStatus: 413, providerCode: 'request_too_large' });
  });

  it('openai: 400 content_policy_violation is CONTENT_POLICY', async () => {
    const { failure } = await failureOf(OPENAI_RESPONSES, {
      kind: 'http-error',
      status: 400,
      error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', code: 'content_policy_violation' },
    });

    expect(failure).toMatchObject({ reason: 'CONTENT_POLICY', retryable: false });
  });

  it.each(ALL_MODELS)('$label: 404 unknown model is INVALID_REQUEST', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 404,
      error: { message: 'The model `gpt-test` does not exist or you do not have access to it.', code: 'model_not_found' },
    });

    expect(failure).toMatchObject({ reason: 'INVALID_REQUEST', retryable: false, httpStatus: 404 });
  });

  it('anthropic: 529 overloaded_error is a retryable PROVIDER_INTERNAL', async () => {
    const { failure } = await failureOf(ANTHROPIC, { kind: 'http-error', status: 529, error: { message: 'Overloaded' } });

    expect(failure).toMatchObject({
      reason: 'PROVIDER_INTERNAL',
      retryable: true,
      httpStatus: 529,
      providerCode: 'overloaded_error',
      requestId: 'req_fake_1',
    });
  });

  it.each(OPENAI_FAMILY)('$label: 503 is a retryable PROVIDER_INTERNAL honouring retry-after', async (model) => {
    const { failure } = await failureOf(model, {
      kind: 'http-error',
      status: 503,
      error: { message: 'The server is overloaded or not ready yet.' },
      headers: { 'retry-after': '2' },
    });

    expect(failure).toMatchObject({ reason: 'PROVIDER_INTERNAL', retryable: true, retryAfterS: 2, httpStatus: 503, providerCode: 'server_error' });
  });
});

describe('errors inside an HTTP 200 stream', () => {
  it('openai chat: data {"error":…} after text arrives as a plain object and is classified by its type', async () => {
    const { outcome, failure } = await failureOf(OPENAI_CHAT, {
      kind: 'stream-error',
      chunksBefore: ['Partial', ' answer'],
      error: { message: 'The server had an error while processing your request.', type: 'server_error' },
    });

    expect(outcome.text).toBe('Partial answer');
    expect(outcome.errors[0]).not.toBeInstanceOf(Error);
    expect(failure).toMatchObject({ reason: 'PROVIDER_INTERNAL', retryable: true, httpStatus: null, providerCode: 'server_error' });
  });

  it('openai-compatible: a mid-stream rate-limit error object is RATE_LIMIT', async () => {
    const { outcome, failure } = await failureOf(OPENAI_COMPATIBLE, {
      kind: 'stream-error',
      chunksBefore: ['Hi'],
      error: { message: 'Rate limit exceeded: free-models-per-min', type: 'rate_limit_error', code: '429' },
    });

    expect(outcome.text).toBe('Hi');
    expect(failure).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, provider: 'ollama' });
  });

  it('openai responses: an error event after text is classified by its code', async () => {
    const { outcome, failure } = await failureOf(OPENAI_RESPONSES, {
      kind: 'stream-error',
      chunksBefore: ['Working'],
      error: { message: 'Rate limit reached for gpt-test', code: 'rate_limit_exceeded' },
    });

    expect(outcome.text).toBe('Working');
    expect(failure).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, providerCode: 'rate_limit_exceeded', httpStatus: null });
  });

  it('openai responses: response.failed after text is classified by its error code', async () => {
    const { failure } = await failureOf(OPENAI_RESPONSES, {
      kind: 'stream-error',
      chunksBefore: ['Working'],
      error: { message: 'The model produced too much output.', code: 'server_error' },
      responsesFailedEvent: true,
    });

    expect(failure).toMatchObject({ reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: 'server_error' });
  });

  it('openai chat: an error frame before any text is thrown as an APICallError with a derived status', async () => {
    const { failure } = await failureOf(OPENAI_CHAT, {
      kind: 'stream-error',
      error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
    });

    expect(failure).toMatchObject({ reason: 'QUOTA_EXCEEDED', retryable: false, httpStatus: 429, providerCode: 'insufficient_quota' });
  });

  it.each([
    ['overloaded_error', 'PROVIDER_INTERNAL', true],
    ['rate_limit_error', 'RATE_LIMIT', true],
    ['api_error', 'PROVIDER_INTERNAL', true],
    ['invalid_request_error', 'INVALID_REQUEST', false],
  ] as const)('anthropic: event: error %s after text → %s', async (type, reason, retryable) => {
    const { outcome, failure } = await failureOf(ANTHROPIC, {
      kind: 'stream-error',
      chunksBefore: ['Half a'],
      error: { type, message: `Anthropic says ${type}` },
    });

    expect(outcome.text).toBe('Half a');
    expect(outcome.errors[0]).not.toBeInstanceOf(Error);
    expect(failure).toMatchObject({ reason, retryable, providerCode: type, httpStatus: null, provider: 'anthropic' });
  });

  it('anthropic: overloaded_error as the first event becomes an APICallError 529', async () => {
    const { outcome, failure } = await failureOf(ANTHROPIC, { kind: 'stream-error', error: { type: 'overloaded_error', message: 'Overloaded' } });

    expect(outcome.text).toBe('');
    expect(failure).toMatchObject({ reason: 'PROVIDER_INTERNAL', retryable: true, httpStatus: 529, providerCode: 'overloaded_error' });
  });

  it('anthropic: rate_limit_error as the first event keeps RATE_LIMIT although the package reports status 500', async () => {
    const { failure } = await failureOf(ANTHROPIC, { kind: 'stream-error', error: { type: 'rate_limit_error', message: 'Rate limited' } });

    expect(failure).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, httpStatus: 500, providerCode: 'rate_limit_error' });
  });
});

describe('network failures', () => {
  it.each(ALL_MODELS)('$label: a socket dropped before the response is a retryable TRANSPORT without status', async (model) => {
    const { failure } = await failureOf(model, { kind: 'drop' });

    expect(failure).toMatchObject({ reason: 'TRANSPORT', retryable: true, httpStatus: null, retryAfterS: null });
  });

  it.each(ALL_MODELS)('$label: a socket dropped mid-stream is a retryable TRANSPORT', async (model) => {
    const { outcome, failure } = await failureOf(model, { kind: 'drop', chunksBefore: ['Some', ' text'] });

    expect(outcome.text).toBe('Some text');
    expect(failure).toMatchObject({ reason: 'TRANSPORT', retryable: true, retryAfterS: null });
    expect(failure.detail).toContain('other side closed');
  });

  it('a closed port is a retryable TRANSPORT', async () => {
    const closed = await startFakeProvider();
    const url = closed.url;
    await closed.close();

    const result = streamText({
      model: createOpenAI({ baseURL: url, apiKey: 'sk-test' }).chat('gpt-test'),
      prompt: 'Hi',
      maxRetries: 0,
      onError: () => {},
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);

    expect(errors).toHaveLength(1);
    expect(classify(errors[0])).toMatchObject({ reason: 'TRANSPORT', retryable: true });
  });
});

describe('built-in retries', () => {
  it('a RetryError after the SDK retried is classified by its last error', async () => {
    provider.enqueue(
      { kind: 'http-error', status: 503, error: { message: 'busy' }, headers: { 'retry-after-ms': '10' } },
      { kind: 'http-error', status: 429, error: { message: 'slow down', code: 'rate_limit_exceeded' }, headers: { 'retry-after-ms': '10' } },
    );

    const error = await generateText({ model: OPENAI_CHAT.create(provider.url), prompt: 'Hi', maxRetries: 1 }).then(
      () => null,
      (thrown: unknown) => thrown,
    );

    expect(error).toMatchObject({ name: 'AI_RetryError' });
    expect(classify(error)).toMatchObject({ reason: 'RATE_LIMIT', retryAfterS: 0.01, requestId: 'req_fake_2', httpStatus: 429 });
    expect(provider.requests).toHaveLength(2);
  });
});
