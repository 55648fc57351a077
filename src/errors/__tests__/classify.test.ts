import { APICallError, LoadAPIKeyError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classify } from '../classify.ts';
import { ApplicationError, ReasonedError, type ClassifiedFailure } from '../taxonomy.ts';

const OPENAI_URL = 'https://api.openai.com/v1/chat/completions';
const ANTHROPIC_URL = 'https://api.anthropic.com/v1/messages';
const COMPATIBLE_URL = 'http://localhost:11434/v1/chat/completions';

/** An APICallError built the way the provider packages' JSON error handlers build it. */
function openAIError(status: number, error: { message: string; type?: string; code?: string | null }, headers: Record<string, string> = {}) {
  const body = { error: { message: error.message, type: error.type ?? 'invalid_request_error', param: null, code: error.code ?? null } };
  return new APICallError({
    message: error.message,
    url: OPENAI_URL,
    requestBodyValues: { model: 'gpt-4.1-mini' },
    statusCode: status,
    responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_openai_1', ...headers },
    responseBody: JSON.stringify(body),
    data: body,
  });
}

function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  const body = { type: 'error', error: { type, message }, request_id: 'req_body_1' };
  return new APICallError({
    message,
    url: ANTHROPIC_URL,
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: { 'content-type': 'application/json', 'request-id': 'req_anthropic_1', ...headers },
    responseBody: JSON.stringify(body),
    data: body,
  });
}

function compatibleError(status: number, message: string, headers: Record<string, string> = {}) {
  const body = { error: { message, type: 'BadRequestError', code: status } };
  return new APICallError({
    message,
    url: COMPATIBLE_URL,
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
    data: body,
  });
}

function withCode(error: Error, code: string): Error {
  return Object.assign(error, { code });
}

type Expected = Partial<ClassifiedFailure>;

const HTTP_CASES: Array<[string, unknown, Expected]> = [
  [
    'openai 400 context_length_exceeded',
    openAIError(400, {
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 140000 tokens.",
      code: 'context_length_exceeded',
    }),
    { reason: 'CONTEXT_LENGTH', retryable: false, httpStatus: 400, providerCode: 'context_length_exceeded', provider: 'openai' },
  ],
  [
    'anthropic 400 prompt is too long',
    anthropicError(400, 'invalid_request_error', 'prompt is too long: 215000 tokens > 200000 maximum'),
    { reason: 'CONTEXT_LENGTH', providerCode: 'invalid_request_error', provider: 'anthropic', requestId: 'req_anthropic_1' },
  ],
  [
    'vLLM 400 maximum context length (compatible)',
    compatibleError(400, "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."),
    { reason: 'CONTEXT_LENGTH', providerCode: '400' },
  ],
  [
    'openai 400 content_policy_violation',
    openAIError(400, { message: 'Your request was rejected as a result of our safety system.', code: 'content_policy_violation' }),
    { reason: 'CONTENT_POLICY', retryable: false },
  ],
  [
    'openai 400 invalid_prompt flagged',
    openAIError(400, { message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy.', code: 'invalid_prompt' }),
    { reason: 'CONTENT_POLICY' },
  ],
  [
    'azure 400 content_filter',
    openAIError(400, { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", code: 'content_filter' }),
    { reason: 'CONTENT_POLICY' },
  ],
  [
    'openai 400 plain invalid request',
    openAIError(400, { message: "Invalid value for 'temperature': expected a number." }),
    { reason: 'INVALID_REQUEST', retryable: false, retryAfterS: null, providerCode: 'invalid_request_error' },
  ],
  [
    'anthropic 400 credit balance too low',
    anthropicError(400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.'),
    { reason: 'QUOTA_EXCEEDED', retryable: false },
  ],
  [
    'openai 401 invalid_api_key',
    openAIError(401, { message: 'Incorrect API key provided: sk-abc.', code: 'invalid_api_key' }),
    { reason: 'AUTHENTICATION', retryable: false, httpStatus: 401, providerCode: 'invalid_api_key', requestId: 'req_openai_1' },
  ],
  [
    'anthropic 401 authentication_error',
    anthropicError(401, 'authentication_error', 'invalid x-api-key'),
    { reason: 'AUTHENTICATION', providerCode: 'authentication_error' },
  ],
  [
    'anthropic 403 permission_error',
    anthropicError(403, 'permission_error', 'Your API key does not have permission to use the specified resource.'),
    { reason: 'AUTHORIZATION', retryable: false, httpStatus: 403 },
  ],
  [
    'openai 403 unsupported_country_region_territory',
    openAIError(403, { message: 'Country, region, or territory not supported', code: 'unsupported_country_region_territory' }),
    { reason: 'AUTHORIZATION' },
  ],
  ['openrouter 402 insufficient credits', compatibleError(402, 'Insufficient credits'), { reason: 'QUOTA_EXCEEDED', retryable: false }],
  [
    'anthropic 404 not_found_error',
    anthropicError(404, 'not_found_error', 'model: claude-nope'),
    { reason: 'INVALID_REQUEST', retryable: false, httpStatus: 404 },
  ],
  [
    '408 request timeout is TRANSPORT',
    openAIError(408, { message: 'Request timed out.' }, { 'retry-after': '1' }),
    { reason: 'TRANSPORT', retryable: true, retryAfterS: 1, httpStatus: 408 },
  ],
  [
    'anthropic 413 request_too_large',
    anthropicError(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
    { reason: 'CONTEXT_LENGTH', httpStatus: 413 },
  ],
  [
    'compatible 422 unprocessable',
    compatibleError(422, 'Input validation error: `temperature` must be strictly positive'),
    { reason: 'INVALID_REQUEST', httpStatus: 422 },
  ],
  [
    'openai 429 rate limit with retry-after',
    openAIError(429, { message: 'Rate limit reached for gpt-4.1-mini on requests per min (RPM)', type: 'requests', code: 'rate_limit_exceeded' }, { 'retry-after': '7' }),
    { reason: 'RATE_LIMIT', retryable: true, retryAfterS: 7, httpStatus: 429, providerCode: 'rate_limit_exceeded' },
  ],
  [
    'openai 429 rate limit with only reset headers',
    openAIError(429, { message: 'Rate limit reached', code: 'rate_limit_exceeded' }, { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s' }),
    { reason: 'RATE_LIMIT', retryAfterS: 360 },
  ],
  [
    'openai 429 insufficient_quota',
    openAIError(429, { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' }, { 'retry-after': '20' }),
    { reason: 'QUOTA_EXCEEDED', retryable: false, retryAfterS: null, httpStatus: 429, providerCode: 'insufficient_quota' },
  ],
  [
    'anthropic 429 rate_limit_error',
    anthropicError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '15' }),
    { reason: 'RATE_LIMIT', retryable: true, retryAfterS: 15, providerCode: 'rate_limit_error' },
  ],
  [
    'openai 500 server_error',
    openAIError(500, { message: 'The server had an error while processing your request.', type: 'server_error' }),
    { reason: 'PROVIDER_INTERNAL', retryable: true, retryAfterS: null, httpStatus: 500, providerCode: 'server_error' },
  ],
  ['openai 502 bad gateway', openAIError(502, { message: 'Bad gateway.', type: 'server_error' }), { reason: 'PROVIDER_INTERNAL', retryable: true, httpStatus: 502 }],
  [
    'openai 503 overloaded with retry-after',
    openAIError(503, { message: 'The engine is currently overloaded, please try again later', type: 'server_error' }, { 'retry-after': '3' }),
    { reason: 'PROVIDER_INTERNAL', retryable: true, retryAfterS: 3 },
  ],
  ['compatible 504 gateway timeout', compatibleError(504, 'upstream timed out'), { reason: 'PROVIDER_INTERNAL', retryable: true, httpStatus: 504 }],
  [
    'anthropic 529 overloaded_error',
    anthropicError(529, 'overloaded_error', 'Overloaded'),
    { reason: 'PROVIDER_INTERNAL', retryable: true, httpStatus: 529, providerCode: 'overloaded_error' },
  ],
  [
    'anthropic first-event rate_limit_error reported as 500',
    new APICallError({
      message: 'Rate limited',
      url: ANTHROPIC_URL,
      requestBodyValues: {},
      statusCode: 500,
      responseHeaders: {},
      responseBody: JSON.stringify({ type: 'rate_limit_error', message: 'Rate limited' }),
      isRetryable: false,
    }),
    { reason: 'RATE_LIMIT', retryable: true, httpStatus: 500, providerCode: 'rate_limit_error' },
  ],
  [
    'a 5xx without a parsable body',
    new APICallError({ message: 'Internal Server Error', url: COMPATIBLE_URL, requestBodyValues: {}, statusCode: 500, responseBody: '<html>oops</html>' }),
    { reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: null, requestId: null },
  ],
];

const NETWORK_CASES: Array<[string, unknown]> = [
  [
    'APICallError without status (ECONNREFUSED cause)',
    new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:1',
      url: COMPATIBLE_URL,
      requestBodyValues: {},
      cause: withCode(new Error('connect ECONNREFUSED 127.0.0.1:1'), 'ECONNREFUSED'),
      isRetryable: true,
    }),
  ],
  ['Error with code ECONNRESET', withCode(new Error('read ECONNRESET'), 'ECONNRESET')],
  ['socket hang up', withCode(new Error('socket hang up'), 'ECONNRESET')],
  ['fetch failed with an undici cause', new TypeError('fetch failed', { cause: withCode(new Error('Connect Timeout Error'), 'UND_ERR_CONNECT_TIMEOUT') })],
  ['body terminated mid-stream', new TypeError('terminated', { cause: withCode(new Error('other side closed'), 'UND_ERR_SOCKET') })],
  ['DNS failure', withCode(new Error('getaddrinfo ENOTFOUND api.example.invalid'), 'ENOTFOUND')],
  ['EPIPE', withCode(new Error('write EPIPE'), 'EPIPE')],
  ['an AbortSignal.timeout() expiry', new DOMException('The operation was aborted due to timeout', 'TimeoutError')],
];

describe('classify: HTTP errors as the provider packages throw them', () => {
  it.each(HTTP_CASES)('%s', (_name, error, expected) => {
    expect(classify(error)).toMatchObject(expected);
  });

  it('keeps the raw provider message as detail only', () => {
    const failure = classify(openAIError(401, { message: 'Incorrect API key provided: sk-abc.' }));
    expect(failure.detail).toBe('Incorrect API key provided: sk-abc.');
  });

  it('prefers the configured provider name over the URL host, and guesses from the host without one', () => {
    const error = anthropicError(401, 'authentication_error', 'invalid x-api-key');
    expect(classify(error, { provider: 'corp-gateway' }).provider).toBe('corp-gateway');
    expect(classify(error).provider).toBe('anthropic');
    expect(classify(compatibleError(400, 'bad')).provider).toBeNull();
    expect(classify(compatibleError(400, 'bad'), { provider: 'ollama' }).provider).toBe('ollama');
  });

  it('takes the request id from the body when no header carries one', () => {
    const error = anthropicError(500, 'api_error', 'Internal server error');
    delete (error.responseHeaders as Record<string, string>)['request-id'];
    expect(classify(error).requestId).toBe('req_body_1');
  });

  it('parses the body when the package did not attach parsed data', () => {
    const error = new APICallError({
      message: 'Bad Request',
      url: OPENAI_URL,
      requestBodyValues: {},
      statusCode: 400,
      responseBody: JSON.stringify({ error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } }),
    });
    expect(classify(error)).toMatchObject({ reason: 'CONTEXT_LENGTH', providerCode: 'context_length_exceeded' });
  });
});

describe('classify: network failures', () => {
  it.each(NETWORK_CASES)('%s → TRANSPORT, retryable', (_name, error) => {
    expect(classify(error, { provider: 'openai' })).toMatchObject({ reason: 'TRANSPORT', retryable: true, httpStatus: null, provider: 'openai' });
  });

  it('does not treat a user abort (AbortError) as a network failure', () => {
    expect(classify(new DOMException('This operation was aborted', 'AbortError'))).toMatchObject({ reason: 'UNKNOWN', retryable: false });
  });
});

describe('classify: wrapped errors', () => {
  it('unwraps an AI SDK RetryError to its last error', () => {
    const retryError = new RetryError({
      message: 'Failed after 3 attempts. Last error: Overloaded',
      reason: 'maxRetriesExceeded',
      errors: [openAIError(500, { message: 'boom', type: 'server_error' }), anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': '4' })],
    });
    expect(classify(retryError)).toMatchObject({ reason: 'RATE_LIMIT', retryAfterS: 4, httpStatus: 429, provider: 'anthropic' });
  });

  it('unwraps a RetryError that gave up on a non-retryable error', () => {
    const retryError = new RetryError({
      message: 'Failed',
      reason: 'errorNotRetryable',
      errors: [openAIError(401, { message: 'Incorrect API key provided', code: 'invalid_api_key' })],
    });
    expect(classify(retryError)).toMatchObject({ reason: 'AUTHENTICATION', retryable: false });
  });

  it('follows cause chains to a provider error', () => {
    const wrapped = new Error('step failed', { cause: anthropicError(529, 'overloaded_error', 'Overloaded') });
    expect(classify(wrapped)).toMatchObject({ reason: 'PROVIDER_INTERNAL', httpStatus: 529 });
  });

  it('survives a cause cycle', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(classify(first).reason).toBe('UNKNOWN');
  });
});

describe('classify: mid-stream plain objects', () => {
  const cases: Array<[string, unknown, Expected]> = [
    [
      'openai chat {error:{…}} server_error',
      { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } },
      { reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: 'server_error' },
    ],
    [
      'openai chat {message,type,code} rate limit',
      { message: 'Rate limit reached', type: 'tokens', code: 'rate_limit_exceeded' },
      { reason: 'RATE_LIMIT', retryable: true, providerCode: 'rate_limit_exceeded' },
    ],
    [
      'openai chat context_length_exceeded',
      { message: 'maximum context length exceeded', type: 'invalid_request_error', code: 'context_length_exceeded' },
      { reason: 'CONTEXT_LENGTH', retryable: false },
    ],
    [
      'openai responses error event',
      { type: 'error', sequence_number: 3, code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null },
      { reason: 'QUOTA_EXCEEDED', retryable: false, providerCode: 'insufficient_quota' },
    ],
    [
      'openai responses response.failed',
      { type: 'response.failed', sequence_number: 9, response: { error: { code: 'server_error', message: 'Something went wrong' } } },
      { reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: 'server_error' },
    ],
    [
      'openai responses error as the AI SDK hands it over',
      { message: 'Too many requests', type: undefined, code: 'rate_limit_exceeded', statusCode: 429, isRetryable: true, data: {} },
      { reason: 'RATE_LIMIT', httpStatus: null },
    ],
    [
      'anthropic full error event overloaded_error',
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_011' },
      { reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: 'overloaded_error', requestId: 'req_011' },
    ],
    [
      'anthropic inner error overloaded_error',
      { type: 'overloaded_error', message: 'Overloaded' },
      { reason: 'PROVIDER_INTERNAL', retryable: true, providerCode: 'overloaded_error' },
    ],
    ['anthropic rate_limit_error', { type: 'rate_limit_error', message: 'Rate limited' }, { reason: 'RATE_LIMIT', retryable: true }],
    ['anthropic api_error', { type: 'api_error', message: 'Internal server error' }, { reason: 'PROVIDER_INTERNAL', retryable: true }],
    ['anthropic authentication_error', { type: 'authentication_error', message: 'invalid x-api-key' }, { reason: 'AUTHENTICATION', retryable: false }],
    ['anthropic permission_error', { type: 'permission_error', message: 'no' }, { reason: 'AUTHORIZATION' }],
    ['anthropic not_found_error', { type: 'not_found_error', message: 'no such model' }, { reason: 'INVALID_REQUEST' }],
    ['anthropic request_too_large', { type: 'request_too_large', message: 'too big' }, { reason: 'CONTEXT_LENGTH' }],
    [
      'anthropic invalid_request_error with prompt too long',
      { type: 'invalid_request_error', message: 'prompt is too long: 300000 tokens > 200000 maximum' },
      { reason: 'CONTEXT_LENGTH' },
    ],
  ];

  it.each(cases)('%s', (_name, error, expected) => {
    const failure = classify(error, { provider: 'x' });
    expect(failure).toMatchObject({ httpStatus: null, retryAfterS: null, provider: 'x', ...expected });
    expect(failure.detail).not.toBe('');
  });
});

describe('classify: errors that already carry a reason', () => {
  it('returns a ReasonedError unchanged, even when its message suggests something else', () => {
    const error = new ReasonedError({
      reason: 'CONTEXT_LENGTH',
      message: 'rate limit exceeded (but we decided otherwise)',
      retryable: false,
      retryAfterS: null,
      provider: 'openai',
      httpStatus: 400,
      providerCode: 'custom',
      requestId: 'req_1',
    });
    expect(classify(error)).toEqual({
      reason: 'CONTEXT_LENGTH',
      retryable: false,
      retryAfterS: null,
      provider: 'openai',
      httpStatus: 400,
      providerCode: 'custom',
      requestId: 'req_1',
      detail: 'rate limit exceeded (but we decided otherwise)',
    });
  });

  it('keeps retryAfterS of a retryable ReasonedError and ignores the context provider', () => {
    const error = new ReasonedError({ reason: 'RATE_LIMIT', retryAfterS: 7, provider: 'demo' });
    expect(classify(error, { provider: 'openai' })).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, retryAfterS: 7, provider: 'demo' });
  });

  it('keeps an ApplicationError with its message key and params', () => {
    const error = new ApplicationError({ messageKey: 'error.tool_failed', messageParams: { tool: 'search' }, message: 'TypeError: x is undefined' });
    expect(classify(error)).toEqual({
      reason: 'APPLICATION_ERROR',
      retryable: false,
      retryAfterS: null,
      provider: null,
      httpStatus: null,
      providerCode: null,
      requestId: null,
      detail: 'TypeError: x is undefined',
      messageKey: 'error.tool_failed',
      messageParams: { tool: 'search' },
    });
  });

  it('finds a ReasonedError inside a cause chain', () => {
    const inner = new ReasonedError({ reason: 'QUOTA_EXCEEDED', message: 'budget' });
    expect(classify(new Error('tool wrapper', { cause: inner })).reason).toBe('QUOTA_EXCEEDED');
  });

  it('accepts a plain object with a valid reason (a failure that crossed a process boundary)', () => {
    const failure = classify({ reason: 'RATE_LIMIT', retryable: true, retryAfterS: 5, detail: 'from another instance', messageKey: 'error.rate_limit' });
    expect(failure).toMatchObject({ reason: 'RATE_LIMIT', retryable: true, retryAfterS: 5, detail: 'from another instance', messageKey: 'error.rate_limit' });
  });

  it('ignores a reason field that is not one of ours', () => {
    expect(classify({ reason: 'maxRetriesExceeded', message: 'nope' }).reason).toBe('UNKNOWN');
  });
});

describe('classify: message markers and fallbacks', () => {
  it.each([
    ['Rate limit exceeded, please retry', 'RATE_LIMIT', true],
    ['The model is overloaded right now', 'PROVIDER_INTERNAL', true],
    ['prompt is too long for this model', 'CONTEXT_LENGTH', false],
    ['Output blocked by content filter', 'CONTENT_POLICY', false],
    ['You exceeded your current quota', 'QUOTA_EXCEEDED', false],
  ] as const)('Error(%j) → %s', (message, reason, retryable) => {
    expect(classify(new Error(message))).toMatchObject({ reason, retryable, detail: message });
  });

  it('treats a missing API key from the SDK as AUTHENTICATION', () => {
    const error = new LoadAPIKeyError({ message: 'OpenAI API key is missing. Pass it using the apiKey parameter.' });
    expect(classify(error).reason).toBe('AUTHENTICATION');
  });

  it.each([
    ['an Error without markers', new Error('boom')],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'something odd'],
    ['an empty object', {}],
  ])('%s → UNKNOWN, not retryable', (_name, error) => {
    expect(classify(error)).toMatchObject({ reason: 'UNKNOWN', retryable: false, retryAfterS: null, httpStatus: null });
  });
});
