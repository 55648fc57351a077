import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate, type MessageKey, type MessageParams } from '../../src/i18n/catalog.ts';
import { conversation, messagesOf, send, type Message } from '../support/client.ts';
import { startFakeProvider, type FakeBehaviour, type FakeProvider, type FakeProviderError } from '../support/fake-provider.ts';
import { follow } from '../support/follower.ts';
import { errorParts, expectOneRecordedFailure } from '../support/recorded-failure.ts';
import { is, ofKind, replyTexts, type RunEvent } from '../support/run-events.ts';
import { addAgent, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Parley against real provider packages talking to a local fake provider: every failure a provider can
 * produce reaches the client as one categorized ErrorEvent live and one equal ErrorPart on reload, and
 * retries happen (announced) only while nothing of the attempt was streamed.
 */

type AgentKind = 'openai' | 'anthropic' | 'local';

const MODELS: Record<AgentKind, string> = {
  openai: 'openai:gpt-test',
  anthropic: 'anthropic:claude-test',
  local: 'local:model-x',
};

interface Parley {
  server: TestServer;
  token: string;
  agents: Record<AgentKind, string>;
}

interface RunResult {
  threadId: string;
  text: string;
  events: RunEvent[];
  messages: Message[];
}

let fake: FakeProvider;
const started: Parley[] = [];

async function startParley(retryEnv: Record<string, string>): Promise<Parley> {
  const server = await startTestServer({
    env: {
      OPENAI_API_KEY: 'sk-test-openai',
      OPENAI_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.url,
      PARLEY_PROVIDERS: JSON.stringify({ local: { baseURL: fake.url } }),
      ...retryEnv,
    },
  });
  // Agents without tools: the provider gets the conversation only.
  const agent = (kind: AgentKind) => ({ name: `Agent ${kind}`, model: MODELS[kind], tools: [] });
  const { token, projectId, agentId } = await setUpAgent(server, { project: 'Providers', ...agent('openai') });
  const agents = {
    openai: agentId,
    anthropic: await addAgent(server, projectId, agent('anthropic')),
    local: await addAgent(server, projectId, agent('local')),
  };
  const parley: Parley = { server, token, agents };
  started.push(parley);
  return parley;
}

/** Sends one message on a fresh thread and follows its events live until the execution finished; then reloads. */
async function run(parley: Parley, kind: AgentKind, text: string): Promise<RunResult> {
  const { server, token } = parley;
  const threadId = await newThread(server, token, parley.agents[kind]);
  const events = await sendAndFollow(server, token, threadId, text);
  return { threadId, text, events, messages: messagesOf(await conversation(server, token, threadId)) };
}

/** The reply as a client shows it from the live events (each run here has one execution). */
function liveText(events: RunEvent[]): string {
  return [...replyTexts(events).values()].join('');
}

function finishedStatus(events: RunEvent[]): string | undefined {
  const finished = ofKind(events, 'ExecutionFinished');
  expect(finished).toHaveLength(1);
  return finished[0]?.status;
}

interface ExpectedFailure {
  reason: string;
  retryable: boolean;
  retryAfterS?: number | null;
  httpStatus: number | null;
  provider: string;
  providerCode?: string | null;
  requestId?: string | null;
  messageKey: MessageKey;
  params?: MessageParams;
}

/**
 * Exactly one ErrorEvent live, exactly one ErrorPart in the reloaded conversation and the execution's
 * error, all three equal, with the expected taxonomy and the English copy for it.
 */
async function expectFailure(parley: Parley, result: RunResult, expected: ExpectedFailure) {
  const { shown } = await expectOneRecordedFailure(parley.server, parley.token, result.threadId, result.text, result.events);
  const params = expected.params ?? {};
  expect(shown).toMatchObject({
    reason: expected.reason,
    retryable: expected.retryable,
    retryAfterS: expected.retryAfterS ?? null,
    httpStatus: expected.httpStatus,
    provider: expected.provider,
    messageKey: expected.messageKey,
    params,
    message: translate('en', expected.messageKey, params),
  });
  if (expected.providerCode !== undefined) expect(shown.providerCode).toBe(expected.providerCode);
  if (expected.requestId !== undefined) expect(shown.requestId).toBe(expected.requestId);
  expect(shown.detail.length).toBeGreaterThan(0);
  return shown;
}

beforeAll(async () => {
  fake = await startFakeProvider();
});

afterAll(async () => {
  for (const parley of started) await parley.server.stop();
  await fake?.close();
});

beforeEach(() => {
  fake.reset();
});

interface FailureCase {
  name: string;
  kind: AgentKind;
  behaviour: FakeBehaviour;
  expected: ExpectedFailure;
}

const QUOTA_EXCEEDED = {
  message: 'You exceeded your current quota, please check your plan and billing details.',
  type: 'insufficient_quota',
  code: 'insufficient_quota',
};

/** The provider and request id every first request to the fake provider reports. */
function fromFake(provider: 'openai' | 'anthropic', expected: Omit<ExpectedFailure, 'provider' | 'requestId'>): ExpectedFailure {
  return { ...expected, provider, requestId: 'req_fake_1' };
}

/** The fake provider answering with one HTTP error, no headers. */
function httpError(status: number, error: FakeProviderError): FakeBehaviour {
  return { kind: 'http-error', status, error };
}

/** Failures that one attempt makes final: each is recorded once, after exactly one request. */
const FINAL_FAILURES: FailureCase[] = [
  {
    name: 'openai 401 → AUTHENTICATION, fatal, naming OpenAI',
    kind: 'openai',
    behaviour: httpError(401, { message: 'Incorrect API key provided: sk-test***', type: 'invalid_request_error', code: 'invalid_api_key' }),
    expected: fromFake('openai', {
      reason: 'AUTHENTICATION',
      retryable: false,
      httpStatus: 401,
      providerCode: 'invalid_api_key',
      messageKey: 'error.authentication',
      params: { provider: 'OpenAI' },
    }),
  },
  {
    name: 'openai 429 with Retry-After: 7 → RATE_LIMIT, retryable, retryAfterS 7',
    kind: 'openai',
    behaviour: {
      kind: 'http-error',
      status: 429,
      error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after': '7' },
    },
    expected: fromFake('openai', {
      reason: 'RATE_LIMIT',
      retryable: true,
      retryAfterS: 7,
      httpStatus: 429,
      providerCode: 'rate_limit_exceeded',
      messageKey: 'error.rate_limit',
      params: { retryAfterS: 7 },
    }),
  },
  {
    name: 'openai 400 context_length_exceeded → CONTEXT_LENGTH',
    kind: 'openai',
    behaviour: {
      kind: 'http-error',
      status: 400,
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      },
    },
    expected: fromFake('openai', {
      reason: 'CONTEXT_LENGTH',
      retryable: false,
      httpStatus: 400,
      providerCode: 'context_length_exceeded',
      messageKey: 'error.context_length',
    }),
  },
  {
    name: 'openai 429 insufficient_quota → QUOTA_EXCEEDED, fatal',
    kind: 'openai',
    behaviour: { kind: 'http-error', status: 429, error: QUOTA_EXCEEDED, headers: { 'retry-after': '20' } },
    expected: {
      reason: 'QUOTA_EXCEEDED',
      retryable: false,
      // A fatal failure has no retry-after, whatever the server said.
      retryAfterS: null,
      httpStatus: 429,
      provider: 'openai',
      providerCode: 'insufficient_quota',
      messageKey: 'error.quota_exceeded',
      params: { provider: 'OpenAI' },
    },
  },
  {
    name: 'anthropic 403 permission_error → AUTHORIZATION, naming Anthropic',
    kind: 'anthropic',
    behaviour: { kind: 'http-error', status: 403, error: { message: 'Your API key does not have permission to use the specified resource.' } },
    expected: fromFake('anthropic', {
      reason: 'AUTHORIZATION',
      retryable: false,
      httpStatus: 403,
      providerCode: 'permission_error',
      messageKey: 'error.authorization',
      params: { provider: 'Anthropic' },
    }),
  },
  {
    name: 'openai 403 → AUTHORIZATION',
    kind: 'openai',
    behaviour: httpError(403, { message: 'Country, region, or territory not supported', type: 'request_forbidden', code: 'unsupported_country_region_territory' }),
    expected: {
      reason: 'AUTHORIZATION',
      retryable: false,
      httpStatus: 403,
      provider: 'openai',
      messageKey: 'error.authorization',
      params: { provider: 'OpenAI' },
    },
  },
  ...(
    [
      { kind: 'openai', status: 500, providerCode: 'server_error' },
      { kind: 'openai', status: 503, providerCode: 'server_error' },
      { kind: 'anthropic', status: 500, providerCode: 'api_error' },
      { kind: 'anthropic', status: 529, providerCode: 'overloaded_error' },
      { kind: 'local', status: 503, providerCode: 'server_error' },
    ] as const
  ).map(({ kind, status, providerCode }): FailureCase => ({
    name: `${kind} ${status} → PROVIDER_INTERNAL, retryable (final with one attempt)`,
    kind,
    behaviour: { kind: 'http-error', status, error: { message: `The server had an error (${status})` } },
    expected: {
      reason: 'PROVIDER_INTERNAL',
      retryable: true,
      httpStatus: status,
      provider: kind,
      providerCode,
      requestId: 'req_fake_1',
      messageKey: 'error.provider_internal',
    },
  })),
  ...(['openai', 'anthropic', 'local'] as const).map(
    (kind): FailureCase => ({
      name: `${kind}: a socket dropped before any response → TRANSPORT`,
      kind,
      behaviour: { kind: 'drop' },
      expected: {
        reason: 'TRANSPORT',
        retryable: true,
        httpStatus: null,
        provider: kind,
        providerCode: null,
        requestId: null,
        messageKey: 'error.transport',
      },
    }),
  ),
  {
    name: 'OpenAI-compatible endpoint 401 → AUTHENTICATION naming the endpoint',
    kind: 'local',
    behaviour: { kind: 'http-error', status: 401, error: { message: 'Unauthorized', type: 'authentication_error' } },
    expected: {
      reason: 'AUTHENTICATION',
      retryable: false,
      httpStatus: 401,
      provider: 'local',
      requestId: 'req_fake_1',
      messageKey: 'error.authentication',
      params: { provider: 'local' },
    },
  },
  {
    name: 'OpenAI-compatible endpoint 400 with a context-length message (vLLM style) → CONTEXT_LENGTH',
    kind: 'local',
    behaviour: {
      kind: 'http-error',
      status: 400,
      error: {
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens. Please reduce the length of the messages.",
        type: 'BadRequestError',
        code: '400',
      },
    },
    expected: { reason: 'CONTEXT_LENGTH', retryable: false, httpStatus: 400, provider: 'local', messageKey: 'error.context_length' },
  },
];

describe('provider replies and failures reach the client (no retries)', () => {
  let parley: Parley;

  beforeAll(async () => {
    parley = await startParley({ PARLEY_RETRY_MAX_ATTEMPTS: '1' });
  });

  it.each([
    { kind: 'openai' as const, protocol: 'openai-chat', model: 'gpt-test' },
    { kind: 'anthropic' as const, protocol: 'anthropic-messages', model: 'claude-test' },
    { kind: 'local' as const, protocol: 'openai-chat', model: 'model-x' },
  ])('$kind: a normal reply streams live as text deltas and is stored, COMPLETED', async ({ kind, protocol, model }) => {
    const { server, token } = parley;
    const threadId = await newThread(server, token, parley.agents[kind]);
    const follower = follow(server, token, threadId);
    const finishedTurns = (count: number) => (events: RunEvent[]) => ofKind(events, 'ExecutionFinished').length === count;
    try {
      // A first exchange (the fake's default reply): once its end arrived, the subscription is live,
      // so the second reply must arrive as deltas, not only as a recovery snapshot.
      await send(server, token, threadId, 'Warm up');
      const before = (await follower.waitUntil(finishedTurns(1))).length;
      fake.enqueue({ kind: 'reply', chunks: ['Hello', ' from', ' the fake.'] });
      await send(server, token, threadId, 'Say hello');
      const all = await follower.waitUntil(finishedTurns(2));
      const second = all.slice(before);
      expect(ofKind(second, 'TextDelta').map((event) => event.text).join('')).toBe('Hello from the fake.');
      expect(liveText(second)).toBe('Hello from the fake.');
      expect(finishedStatus(second)).toBe('COMPLETED');
      expect(ofKind(all, 'ErrorEvent')).toEqual([]);
    } finally {
      await follower.close();
    }

    const messages = messagesOf(await conversation(server, token, threadId));
    expect(messages.map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ __typename: 'TextPart', text: 'Warm up' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: 'Hello from the fake provider.' }]],
      ['USER', [{ __typename: 'TextPart', text: 'Say hello' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: 'Hello from the fake.' }]],
    ]);
    expect(fake.requests).toHaveLength(2);
    const request = fake.requests[1]!;
    expect(request.protocol).toBe(protocol);
    expect(request.body).toMatchObject({ model, stream: true });
    // The history goes along: the first exchange, then the new question.
    const sent = JSON.stringify(request.body.messages);
    expect(sent).toContain('Warm up');
    expect(sent).toContain('Hello from the fake provider.');
    expect(sent.indexOf('Warm up')).toBeLessThan(sent.indexOf('Say hello'));
    if (kind === 'openai') expect(request.headers.authorization).toBe('Bearer sk-test-openai');
    if (kind === 'anthropic') expect(request.headers['x-api-key']).toBe('sk-ant-test');
  });

  it.each(FINAL_FAILURES)('$name', async ({ kind, behaviour, expected }) => {
    fake.enqueue(behaviour);
    const result = await run(parley, kind, 'Hi');
    await expectFailure(parley, result, expected);
    expect(ofKind(result.events, 'RetryScheduled')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('retries (announced, only while nothing was streamed)', () => {
  let parley: Parley;

  beforeAll(async () => {
    parley = await startParley({
      PARLEY_RETRY_MAX_ATTEMPTS: '3',
      PARLEY_RETRY_BASE_DELAY_S: '0.01',
      PARLEY_RETRY_MAX_DELAY_S: '0.05',
    });
  });

  it('a 503, a 503, then a reply: two RetryScheduled, the reply, COMPLETED, no error', async () => {
    const overloaded: FakeBehaviour = {
      kind: 'http-error',
      status: 503,
      error: { message: 'Service unavailable' },
      headers: { 'retry-after-ms': '20' },
    };
    fake.enqueue(overloaded, overloaded, { kind: 'reply', chunks: ['Third', ' time', ' lucky.'] });
    const result = await run(parley, 'openai', 'Try hard');

    const scheduled = ofKind(result.events, 'RetryScheduled');
    expect(scheduled.map(({ attempt, reason }) => ({ attempt, reason }))).toEqual([
      { attempt: 1, reason: 'PROVIDER_INTERNAL' },
      { attempt: 2, reason: 'PROVIDER_INTERNAL' },
    ]);
    for (const retry of scheduled) expect(retry.delayS).toBeGreaterThanOrEqual(0.02);
    // The retries come before any text of the reply.
    const firstText = result.events.findIndex(
      (event) => event.__typename === 'TextDelta' || (event.__typename === 'MessageSnapshot' && event.textLength > 0),
    );
    const lastRetry = result.events.findIndex((event) => event === scheduled[1]);
    expect(firstText).toBeGreaterThan(-1);
    expect(lastRetry).toBeLessThan(firstText);

    expect(liveText(result.events)).toBe('Third time lucky.');
    expect(finishedStatus(result.events)).toBe('COMPLETED');
    expect(ofKind(result.events, 'ErrorEvent')).toEqual([]);
    expect(errorParts(result.messages)).toEqual([]);
    expect(result.messages.map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ __typename: 'TextPart', text: 'Try hard' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: 'Third time lucky.' }]],
    ]);
    expect(fake.requests).toHaveLength(3);
    // Each attempt is the same request again.
    expect(fake.requests[2]!.body.messages).toEqual(fake.requests[0]!.body.messages);

    // RetryScheduled is durable: a client that reconnects from the start replays the same two.
    const replay = follow(parley.server, parley.token, result.threadId);
    try {
      const replayed = await replay.waitUntil((events) => events.some(is('ExecutionFinished')));
      expect(ofKind(replayed, 'RetryScheduled')).toEqual(scheduled);
    } finally {
      await replay.close();
    }
  });

  it.each([
    {
      name: 'anthropic overloaded_error mid-stream after text → PROVIDER_INTERNAL, the text kept, no retry',
      kind: 'anthropic' as const,
      behaviour: { kind: 'stream-error', chunksBefore: ['Partial', ' answer'], error: { type: 'overloaded_error', message: 'Overloaded' } },
      text: 'Partial answer',
      // The HTTP exchange itself succeeded; the error came inside the stream.
      expected: { reason: 'PROVIDER_INTERNAL', providerCode: 'overloaded_error', messageKey: 'error.provider_internal' },
    },
    {
      name: 'openai server_error mid-stream after text is never retried',
      kind: 'openai' as const,
      behaviour: {
        kind: 'stream-error',
        chunksBefore: ['Half', ' a reply'],
        error: { message: 'The server had an error while processing your request.', type: 'server_error' },
      },
      text: 'Half a reply',
      expected: { reason: 'PROVIDER_INTERNAL', messageKey: 'error.provider_internal' },
    },
    {
      name: 'a socket dropped mid-stream after text → TRANSPORT, the text kept, no retry',
      kind: 'local' as const,
      behaviour: { kind: 'drop', chunksBefore: ['Some', ' text'] },
      text: 'Some text',
      expected: { reason: 'TRANSPORT', messageKey: 'error.transport' },
    },
  ] satisfies (Omit<FailureCase, 'expected'> & {
    text: string;
    expected: Omit<ExpectedFailure, 'retryable' | 'httpStatus' | 'provider'>;
  })[])('$name', async ({ kind, behaviour, text, expected }) => {
    fake.enqueue(behaviour);
    const result = await run(parley, kind, 'Hi');
    expect(liveText(result.events)).toBe(text);
    expect(ofKind(result.events, 'RetryScheduled')).toEqual([]);
    await expectFailure(parley, result, { ...expected, retryable: true, httpStatus: null, provider: kind });
    const reply = result.messages[1]!.parts;
    expect(reply.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(reply[0]).toEqual({ __typename: 'TextPart', text });
    expect(fake.requests).toHaveLength(1);
  });

  it('a dropped socket before any response is retried, then the reply', async () => {
    fake.enqueue({ kind: 'drop' }, { kind: 'reply', chunks: ['Back', ' again.'] });
    const result = await run(parley, 'anthropic', 'Hi');
    const scheduled = ofKind(result.events, 'RetryScheduled');
    expect(scheduled.map(({ attempt, reason }) => ({ attempt, reason }))).toEqual([{ attempt: 1, reason: 'TRANSPORT' }]);
    expect(liveText(result.events)).toBe('Back again.');
    expect(finishedStatus(result.events)).toBe('COMPLETED');
    expect(errorParts(result.messages)).toEqual([]);
    expect(fake.requests).toHaveLength(2);
  });

  it('a fatal failure is not retried even with attempts left', async () => {
    fake.enqueue({ kind: 'http-error', status: 401, error: { message: 'Invalid API key', code: 'invalid_api_key' } });
    const result = await run(parley, 'openai', 'Hi');
    expect(ofKind(result.events, 'RetryScheduled')).toEqual([]);
    await expectFailure(parley, result, {
      reason: 'AUTHENTICATION',
      retryable: false,
      httpStatus: 401,
      provider: 'openai',
      messageKey: 'error.authentication',
      params: { provider: 'OpenAI' },
    });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('retries run out', () => {
  let parley: Parley;

  beforeAll(async () => {
    parley = await startParley({ PARLEY_RETRY_MAX_ATTEMPTS: '2', PARLEY_RETRY_BASE_DELAY_S: '0.01' });
  });

  it('a 429 with retry-after-ms: 30 twice: one RetryScheduled ≥ 0.03 s, then one RATE_LIMIT error', async () => {
    const limited: FakeBehaviour = {
      kind: 'http-error',
      status: 429,
      error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after-ms': '30' },
    };
    fake.enqueue(limited, limited);
    const result = await run(parley, 'openai', 'Hi');
    const scheduled = ofKind(result.events, 'RetryScheduled');
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({ attempt: 1, reason: 'RATE_LIMIT' });
    expect(scheduled[0]!.delayS).toBeGreaterThanOrEqual(0.03);
    const retryAt = result.events.indexOf(scheduled[0]!);
    const errorAt = result.events.findIndex(is('ErrorEvent'));
    expect(retryAt).toBeLessThan(errorAt);
    await expectFailure(parley, result, {
      reason: 'RATE_LIMIT',
      retryable: true,
      retryAfterS: 0.03,
      httpStatus: 429,
      provider: 'openai',
      providerCode: 'rate_limit_exceeded',
      // The final failure is the last attempt's.
      requestId: 'req_fake_2',
      messageKey: 'error.rate_limit',
      params: { retryAfterS: 1 },
    });
    expect(result.messages[1]!.parts.map((part) => part.__typename)).toEqual(['ErrorPart']);
    expect(fake.requests).toHaveLength(2);
  });
});
