import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate, type MessageKey, type MessageParams } from '../../src/i18n/catalog.ts';
import type { ConversationQuery, RunEventsSubscription } from '../gql/graphql.ts';
import {
  ConversationDocument,
  CreateAgentDocument,
  CreateProjectDocument,
  CreateThreadDocument,
  ExecutionDocument,
  RunEventsDocument,
  SendMessageDocument,
} from '../support/documents.ts';
import { startFakeProvider, type FakeBehaviour, type FakeProvider } from '../support/fake-provider.ts';
import { requestData, startTestServer, subscribe, wsClient, type TestServer } from '../support/server.ts';

/**
 * Parley against real provider packages talking to a local fake provider: every failure a provider can
 * produce reaches the client as one categorized ErrorEvent live and one equal ErrorPart on reload, and
 * retries happen (announced) only while nothing of the attempt was streamed.
 */

type RunEvent = RunEventsSubscription['runEvents'];
type ErrorEventOf = Extract<RunEvent, { __typename: 'ErrorEvent' }>;
type Message = ConversationQuery['conversation']['messages']['edges'][number]['node'];
type Part = Message['parts'][number];
type ErrorPartOf = Extract<Part, { __typename: 'ErrorPart' }>;

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
  const parley: Parley = { server, token: '', agents: { openai: '', anthropic: '', local: '' } };
  started.push(parley);
  parley.token = (await server.createUser({ locale: 'en' })).token;
  const project = await requestData(server, CreateProjectDocument, { name: 'Providers' }, parley.token);
  if (project.createProject.__typename !== 'Project') throw new Error(JSON.stringify(project));
  for (const kind of Object.keys(MODELS) as AgentKind[]) {
    const agent = await requestData(
      server,
      CreateAgentDocument,
      { projectId: project.createProject.id, name: `Agent ${kind}`, model: MODELS[kind] },
      parley.token,
    );
    if (agent.createAgent.__typename !== 'Agent') throw new Error(JSON.stringify(agent));
    parley.agents[kind] = agent.createAgent.id;
  }
  return parley;
}

/** Sends one message on a fresh thread and follows its events live until the execution finished; then reloads. */
async function run(parley: Parley, kind: AgentKind, text: string): Promise<RunResult> {
  const { server, token } = parley;
  const created = await requestData(server, CreateThreadDocument, { agentId: parley.agents[kind] }, token);
  if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
  const threadId = created.createThread.id;
  const client = wsClient(server, token);
  const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
  try {
    await requestData(server, SendMessageDocument, { threadId, text }, token);
    await subscription.waitFor((all) => all.some((event) => event.runEvents.__typename === 'ExecutionFinished'));
  } finally {
    subscription.close();
    await client.dispose();
  }
  const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
  return {
    threadId,
    events: subscription.events.map((event) => event.runEvents),
    messages: conversation.messages.edges.map((edge) => edge.node),
  };
}

/** The reply as a client shows it from the live events: snapshots replace, deltas append at their offset. */
function liveText(events: RunEvent[]): string {
  let text = '';
  for (const event of events) {
    if (event.__typename === 'MessageSnapshot') {
      text = event.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
    } else if (event.__typename === 'TextDelta') {
      if (event.offset > text.length) throw new Error(`gap: have ${text.length}, delta at ${event.offset}`);
      text = text.slice(0, event.offset) + event.text + text.slice(event.offset + event.text.length);
    }
  }
  return text;
}

function finishedStatus(events: RunEvent[]): string | undefined {
  const finished = events.filter((event) => event.__typename === 'ExecutionFinished');
  expect(finished).toHaveLength(1);
  return finished[0]!.__typename === 'ExecutionFinished' ? finished[0]!.status : undefined;
}

function errorEvents(events: RunEvent[]): ErrorEventOf[] {
  return events.filter((event): event is ErrorEventOf => event.__typename === 'ErrorEvent');
}

function retries(events: RunEvent[]) {
  return events.flatMap((event) => (event.__typename === 'RetryScheduled' ? [event] : []));
}

function errorParts(messages: Message[]): ErrorPartOf[] {
  return messages.flatMap((message) => message.parts).filter((part): part is ErrorPartOf => part.__typename === 'ErrorPart');
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
async function expectOneRecordedFailure(parley: Parley, result: RunResult, expected: ExpectedFailure) {
  const live = errorEvents(result.events);
  expect(live).toHaveLength(1);
  const { __typename, cursor: _cursor, executionId, ...shown } = live[0]!;
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
  expect(finishedStatus(result.events)).toBe('FAILED');

  expect(result.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
  const stored = errorParts(result.messages);
  expect(stored).toHaveLength(1);
  const { __typename: _part, ...storedFields } = stored[0]!;
  expect(storedFields).toEqual(shown);

  const execution = await requestData(parley.server, ExecutionDocument, { id: executionId! }, parley.token);
  expect(execution.node).toMatchObject({ __typename: 'Execution', status: 'FAILED' });
  if (execution.node?.__typename !== 'Execution') throw new Error('not an execution');
  expect(execution.node.error).toEqual(shown);
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
    const created = await requestData(server, CreateThreadDocument, { agentId: parley.agents[kind] }, token);
    if (created.createThread.__typename !== 'Thread') throw new Error(JSON.stringify(created));
    const threadId = created.createThread.id;
    const client = wsClient(server, token);
    const subscription = subscribe(client, RunEventsDocument, { threadId, after: '0' });
    const finishedCount = (all: RunEventsSubscription[]) =>
      all.filter((event) => event.runEvents.__typename === 'ExecutionFinished').length;
    try {
      // A first exchange (the fake's default reply): once its end arrived, the subscription is live,
      // so the second reply must arrive as deltas, not only as a recovery snapshot.
      await requestData(server, SendMessageDocument, { threadId, text: 'Warm up' }, token);
      await subscription.waitFor((all) => finishedCount(all) === 1);
      const before = subscription.events.length;
      fake.enqueue({ kind: 'reply', chunks: ['Hello', ' from', ' the fake.'] });
      await requestData(server, SendMessageDocument, { threadId, text: 'Say hello' }, token);
      await subscription.waitFor((all) => finishedCount(all) === 2);
      const second = subscription.events.slice(before).map((event) => event.runEvents);
      const deltas = second.flatMap((event) => (event.__typename === 'TextDelta' ? [event.text] : []));
      expect(deltas.join('')).toBe('Hello from the fake.');
      expect(liveText(second)).toBe('Hello from the fake.');
      expect(finishedStatus(second)).toBe('COMPLETED');
      expect(errorEvents(subscription.events.map((event) => event.runEvents))).toEqual([]);
    } finally {
      subscription.close();
      await client.dispose();
    }

    const { conversation } = await requestData(server, ConversationDocument, { threadId }, token);
    expect(conversation.messages.edges.map(({ node }) => [node.role, node.parts])).toEqual([
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

  it('openai 401 → AUTHENTICATION, fatal, naming OpenAI', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 401,
      error: { message: 'Incorrect API key provided: sk-test***', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    const result = await run(parley, 'openai', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'AUTHENTICATION',
      retryable: false,
      httpStatus: 401,
      provider: 'openai',
      providerCode: 'invalid_api_key',
      requestId: 'req_fake_1',
      messageKey: 'error.authentication',
      params: { provider: 'OpenAI' },
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('openai 429 with Retry-After: 7 → RATE_LIMIT, retryable, retryAfterS 7', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 429,
      error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after': '7' },
    });
    const result = await run(parley, 'openai', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'RATE_LIMIT',
      retryable: true,
      retryAfterS: 7,
      httpStatus: 429,
      provider: 'openai',
      providerCode: 'rate_limit_exceeded',
      requestId: 'req_fake_1',
      messageKey: 'error.rate_limit',
      params: { retryAfterS: 7 },
    });
    expect(retries(result.events)).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('openai 400 context_length_exceeded → CONTEXT_LENGTH', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 400,
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        param: 'messages',
      },
    });
    const result = await run(parley, 'openai', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'CONTEXT_LENGTH',
      retryable: false,
      httpStatus: 400,
      provider: 'openai',
      providerCode: 'context_length_exceeded',
      requestId: 'req_fake_1',
      messageKey: 'error.context_length',
    });
  });

  it('openai 429 insufficient_quota → QUOTA_EXCEEDED, fatal', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 429,
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
      headers: { 'retry-after': '20' },
    });
    const result = await run(parley, 'openai', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'QUOTA_EXCEEDED',
      retryable: false,
      // A fatal failure has no retry-after, whatever the server said.
      retryAfterS: null,
      httpStatus: 429,
      provider: 'openai',
      providerCode: 'insufficient_quota',
      messageKey: 'error.quota_exceeded',
      params: { provider: 'OpenAI' },
    });
  });

  it('anthropic 403 permission_error → AUTHORIZATION, naming Anthropic', async () => {
    fake.enqueue({ kind: 'http-error', status: 403, error: { message: 'Your API key does not have permission to use the specified resource.' } });
    const result = await run(parley, 'anthropic', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'AUTHORIZATION',
      retryable: false,
      httpStatus: 403,
      provider: 'anthropic',
      providerCode: 'permission_error',
      requestId: 'req_fake_1',
      messageKey: 'error.authorization',
      params: { provider: 'Anthropic' },
    });
  });

  it('openai 403 → AUTHORIZATION', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 403,
      error: { message: 'Country, region, or territory not supported', type: 'request_forbidden', code: 'unsupported_country_region_territory' },
    });
    const result = await run(parley, 'openai', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'AUTHORIZATION',
      retryable: false,
      httpStatus: 403,
      provider: 'openai',
      messageKey: 'error.authorization',
      params: { provider: 'OpenAI' },
    });
  });

  it.each([
    { kind: 'openai' as const, status: 500, providerCode: 'server_error' },
    { kind: 'openai' as const, status: 503, providerCode: 'server_error' },
    { kind: 'anthropic' as const, status: 500, providerCode: 'api_error' },
    { kind: 'anthropic' as const, status: 529, providerCode: 'overloaded_error' },
    { kind: 'local' as const, status: 503, providerCode: 'server_error' },
  ])('$kind $status → PROVIDER_INTERNAL, retryable (final with one attempt)', async ({ kind, status, providerCode }) => {
    fake.enqueue({ kind: 'http-error', status, error: { message: `The server had an error (${status})` } });
    const result = await run(parley, kind, 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'PROVIDER_INTERNAL',
      retryable: true,
      httpStatus: status,
      provider: kind,
      providerCode,
      requestId: 'req_fake_1',
      messageKey: 'error.provider_internal',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it.each(['openai', 'anthropic', 'local'] as const)('%s: a socket dropped before any response → TRANSPORT', async (kind) => {
    fake.enqueue({ kind: 'drop' });
    const result = await run(parley, kind, 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'TRANSPORT',
      retryable: true,
      httpStatus: null,
      provider: kind,
      providerCode: null,
      requestId: null,
      messageKey: 'error.transport',
    });
  });

  it('OpenAI-compatible endpoint 401 → AUTHENTICATION naming the endpoint', async () => {
    fake.enqueue({ kind: 'http-error', status: 401, error: { message: 'Unauthorized', type: 'authentication_error' } });
    const result = await run(parley, 'local', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'AUTHENTICATION',
      retryable: false,
      httpStatus: 401,
      provider: 'local',
      requestId: 'req_fake_1',
      messageKey: 'error.authentication',
      params: { provider: 'local' },
    });
  });

  it('OpenAI-compatible endpoint 400 with a context-length message (vLLM style) → CONTEXT_LENGTH', async () => {
    fake.enqueue({
      kind: 'http-error',
      status: 400,
      error: {
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens. Please reduce the length of the messages.",
        type: 'BadRequestError',
        code: '400',
      },
    });
    const result = await run(parley, 'local', 'Hi');
    await expectOneRecordedFailure(parley, result, {
      reason: 'CONTEXT_LENGTH',
      retryable: false,
      httpStatus: 400,
      provider: 'local',
      messageKey: 'error.context_length',
    });
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

    const scheduled = retries(result.events);
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
    expect(errorEvents(result.events)).toEqual([]);
    expect(errorParts(result.messages)).toEqual([]);
    expect(result.messages.map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ __typename: 'TextPart', text: 'Try hard' }]],
      ['ASSISTANT', [{ __typename: 'TextPart', text: 'Third time lucky.' }]],
    ]);
    expect(fake.requests).toHaveLength(3);
    // Each attempt is the same request again.
    expect(fake.requests[2]!.body.messages).toEqual(fake.requests[0]!.body.messages);

    // RetryScheduled is durable: a client that reconnects from the start replays the same two.
    const client = wsClient(parley.server, parley.token);
    const replay = subscribe(client, RunEventsDocument, { threadId: result.threadId, after: '0' });
    try {
      const replayed = await replay.waitFor((all) => all.some((event) => event.runEvents.__typename === 'ExecutionFinished'));
      expect(retries(replayed.map((event) => event.runEvents))).toEqual(scheduled);
    } finally {
      replay.close();
      await client.dispose();
    }
  });

  it('anthropic overloaded_error mid-stream after text → PROVIDER_INTERNAL, the text kept, no retry', async () => {
    fake.enqueue({
      kind: 'stream-error',
      chunksBefore: ['Partial', ' answer'],
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const result = await run(parley, 'anthropic', 'Hi');
    expect(liveText(result.events)).toBe('Partial answer');
    expect(retries(result.events)).toEqual([]);
    await expectOneRecordedFailure(parley, result, {
      reason: 'PROVIDER_INTERNAL',
      retryable: true,
      // The HTTP exchange itself succeeded; the error came inside the stream.
      httpStatus: null,
      provider: 'anthropic',
      providerCode: 'overloaded_error',
      messageKey: 'error.provider_internal',
    });
    const reply = result.messages[1]!.parts;
    expect(reply.map((part) => part.__typename)).toEqual(['TextPart', 'ErrorPart']);
    expect(reply[0]).toEqual({ __typename: 'TextPart', text: 'Partial answer' });
    expect(fake.requests).toHaveLength(1);
  });

  it('openai server_error mid-stream after text is never retried', async () => {
    fake.enqueue({
      kind: 'stream-error',
      chunksBefore: ['Half', ' a reply'],
      error: { message: 'The server had an error while processing your request.', type: 'server_error' },
    });
    const result = await run(parley, 'openai', 'Hi');
    expect(liveText(result.events)).toBe('Half a reply');
    expect(retries(result.events)).toEqual([]);
    await expectOneRecordedFailure(parley, result, {
      reason: 'PROVIDER_INTERNAL',
      retryable: true,
      httpStatus: null,
      provider: 'openai',
      messageKey: 'error.provider_internal',
    });
    expect(result.messages[1]!.parts[0]).toEqual({ __typename: 'TextPart', text: 'Half a reply' });
    expect(fake.requests).toHaveLength(1);
  });

  it('a socket dropped mid-stream after text → TRANSPORT, the text kept, no retry', async () => {
    fake.enqueue({ kind: 'drop', chunksBefore: ['Some', ' text'] });
    const result = await run(parley, 'local', 'Hi');
    expect(liveText(result.events)).toBe('Some text');
    expect(retries(result.events)).toEqual([]);
    await expectOneRecordedFailure(parley, result, {
      reason: 'TRANSPORT',
      retryable: true,
      httpStatus: null,
      provider: 'local',
      messageKey: 'error.transport',
    });
    expect(result.messages[1]!.parts[0]).toEqual({ __typename: 'TextPart', text: 'Some text' });
    expect(fake.requests).toHaveLength(1);
  });

  it('a dropped socket before any response is retried, then the reply', async () => {
    fake.enqueue({ kind: 'drop' }, { kind: 'reply', chunks: ['Back', ' again.'] });
    const result = await run(parley, 'anthropic', 'Hi');
    expect(retries(result.events).map(({ attempt, reason }) => ({ attempt, reason }))).toEqual([{ attempt: 1, reason: 'TRANSPORT' }]);
    expect(liveText(result.events)).toBe('Back again.');
    expect(finishedStatus(result.events)).toBe('COMPLETED');
    expect(errorParts(result.messages)).toEqual([]);
    expect(fake.requests).toHaveLength(2);
  });

  it('a fatal failure is not retried even with attempts left', async () => {
    fake.enqueue({ kind: 'http-error', status: 401, error: { message: 'Invalid API key', code: 'invalid_api_key' } });
    const result = await run(parley, 'openai', 'Hi');
    expect(retries(result.events)).toEqual([]);
    await expectOneRecordedFailure(parley, result, {
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
    const scheduled = retries(result.events);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({ attempt: 1, reason: 'RATE_LIMIT' });
    expect(scheduled[0]!.delayS).toBeGreaterThanOrEqual(0.03);
    const retryAt = result.events.indexOf(scheduled[0]!);
    const errorAt = result.events.findIndex((event) => event.__typename === 'ErrorEvent');
    expect(retryAt).toBeLessThan(errorAt);
    await expectOneRecordedFailure(parley, result, {
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
