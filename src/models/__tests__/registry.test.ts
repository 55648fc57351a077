import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APICallError } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDemoFailure } from '../demo/failures.ts';
import {
  ModelRegistry,
  ProviderConfigError,
  UnknownModelError,
  parseModelId,
  parseProvidersJson,
  type ProviderSettings,
} from '../registry.ts';

const demoOnly: ProviderSettings = { demo: true, compatible: {} };

describe('parseModelId', () => {
  it('splits at the first colon so model names may contain colons', () => {
    expect(parseModelId('openai:gpt-4.1-mini')).toEqual({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(parseModelId('ollama:llama3.2:3b')).toEqual({ provider: 'ollama', model: 'llama3.2:3b' });
  });

  it.each(['gpt-4.1', ':gpt-4.1', 'openai:', '', ' : '])('rejects %j with a message naming the format', (id) => {
    expect(() => parseModelId(id)).toThrow(UnknownModelError);
    expect(() => parseModelId(id)).toThrow(/expected "provider:model"/);
  });
});

describe('parseProvidersJson', () => {
  it('accepts named OpenAI-compatible endpoints', () => {
    expect(
      parseProvidersJson('{"ollama":{"baseURL":"http://127.0.0.1:11434/v1"},"router":{"baseURL":"https://openrouter.ai/api/v1","apiKey":"k"}}'),
    ).toEqual({
      ollama: { baseURL: 'http://127.0.0.1:11434/v1' },
      router: { baseURL: 'https://openrouter.ai/api/v1', apiKey: 'k' },
    });
  });

  it.each([
    ['not json', /PARLEY_PROVIDERS is not valid JSON/],
    ['[]', /PARLEY_PROVIDERS is invalid/],
    ['{"ollama":{}}', /PARLEY_PROVIDERS is invalid: ollama\.baseURL/],
    ['{"ollama":{"baseURL":"file:///etc/passwd"}}', /ollama\.baseURL: must be an http\(s\) URL/],
    ['{"ollama":{"baseURL":"http://x","extra":1}}', /PARLEY_PROVIDERS is invalid/],
    ['{"bad:name":{"baseURL":"http://x"}}', /PARLEY_PROVIDERS is invalid: bad:name/],
    ['{"openai":{"baseURL":"http://x"}}', /openai: is reserved/],
    ['{"demo":{"baseURL":"http://x"}}', /demo: is reserved/],
  ])('rejects %s', (text, message) => {
    expect(() => parseProvidersJson(text)).toThrow(ProviderConfigError);
    expect(() => parseProvidersJson(text)).toThrow(message);
  });

  it('never repeats an API key in its message', () => {
    expect(() => parseProvidersJson('{"x":{"baseURL":"nope","apiKey":"sk-secret-value"}}')).toThrow(
      /^(?!.*sk-secret-value).*$/s,
    );
  });
});

describe('ModelRegistry', () => {
  const settings: ProviderSettings = {
    demo: true,
    openai: { apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' },
    anthropic: { apiKey: 'ak-test', baseURL: 'http://127.0.0.1:9/v1' },
    compatible: { ollama: { baseURL: 'http://127.0.0.1:11434/v1' } },
  };

  it('knows the demo model while PARLEY_DEMO is on', () => {
    const registry = new ModelRegistry(demoOnly);
    expect(() => registry.validate('demo:default')).not.toThrow();
    const model = registry.resolve('demo:fast');
    expect(model).toMatchObject({ specificationVersion: 'v3', provider: 'demo', modelId: 'fast' });
    expect(registry.providerName('demo:default')).toBe('demo');
  });

  it('refuses the demo model while PARLEY_DEMO is off, saying so', () => {
    const registry = new ModelRegistry({ ...settings, demo: false });
    expect(() => registry.validate('demo:default')).toThrow(UnknownModelError);
    expect(() => registry.resolve('demo:default')).toThrow(/demo model "demo:default" is off on this server \(PARLEY_DEMO=false/);
    expect(registry.configuredProviders()).not.toContain('demo');
  });

  it('refuses providers that are not configured, saying how to configure them', () => {
    const registry = new ModelRegistry(demoOnly);
    expect(() => registry.validate('openai:gpt-4.1-mini')).toThrow(/provider "openai", which is not configured\. Set OPENAI_API_KEY/);
    expect(() => registry.resolve('anthropic:claude-sonnet-4-5')).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => registry.validate('ollama:llama3.2')).toThrow(/PARLEY_PROVIDERS/);
    expect(() => registry.validate('ollama:llama3.2')).toThrow(UnknownModelError);
    expect(() => registry.validate('no-colon')).toThrow(UnknownModelError);
  });

  it('does not treat inherited object keys as configured endpoints', () => {
    const registry = new ModelRegistry(demoOnly);
    expect(() => registry.resolve('constructor:x')).toThrow(UnknownModelError);
  });

  it('resolves each configured provider to a model that names it', () => {
    const registry = new ModelRegistry(settings);
    expect(registry.resolve('openai:gpt-4.1-mini')).toMatchObject({ provider: 'openai.chat', modelId: 'gpt-4.1-mini' });
    expect(registry.resolve('openai-responses:gpt-4.1')).toMatchObject({ provider: 'openai.responses', modelId: 'gpt-4.1' });
    expect(registry.resolve('anthropic:claude-sonnet-4-5')).toMatchObject({ provider: 'anthropic.messages' });
    expect(registry.resolve('ollama:llama3.2:3b')).toMatchObject({ provider: 'ollama.chat', modelId: 'llama3.2:3b' });
    expect(registry.providerName('openai-responses:gpt-4.1')).toBe('openai');
    expect(registry.providerName('ollama:llama3.2')).toBe('ollama');
    expect(registry.configuredProviders()).toEqual(['demo', 'openai', 'openai-responses', 'anthropic', 'ollama']);
  });
});

/** A loopback stand-in for api.openai.com and OpenAI-compatible servers. */
class FakeProviderServer {
  private server?: Server;
  readonly requests: Array<{ url: string; body: Record<string, unknown>; authorization?: string }> = [];
  respond: (response: ServerResponse) => void = (response) => response.end();

  async start(): Promise<string> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.requests.push({ url: request.url ?? '', body: JSON.parse(body || '{}'), authorization: request.headers.authorization });
        this.respond(response);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function sse(response: ServerResponse, events: unknown[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of [...events, finishChunk]) response.write(`data: ${JSON.stringify(event)}\n\n`);
  response.end('data: [DONE]\n\n');
}

const finishChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test',
  choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
};

function contentChunk(content: string) {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta: { content }, finish_reason: null }] };
}

async function firstStreamFailure(model: ReturnType<ModelRegistry['resolve']>, prompt: string) {
  const result = streamText({ model, prompt, maxRetries: 0, onError: () => {} });
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') deltas.push(part.text);
    if (part.type === 'error') return { deltas, error: part.error };
  }
  return { deltas, error: undefined };
}

describe('real providers against a loopback server', () => {
  const fake = new FakeProviderServer();
  let registry: ModelRegistry;

  beforeAll(async () => {
    const baseURL = await fake.start();
    registry = new ModelRegistry({
      demo: true,
      openai: { apiKey: 'sk-test', baseURL },
      compatible: { local: { baseURL } },
    });
  });
  afterAll(() => fake.stop());

  it('streams from OPENAI_BASE_URL through chat completions', async () => {
    fake.respond = (response) => sse(response, [contentChunk('Hello'), contentChunk(' world')]);
    const result = streamText({ model: registry.resolve('openai:gpt-test'), prompt: 'hi', maxRetries: 0, onError: () => {} });
    expect(await result.text).toBe('Hello world');
    const request = fake.requests.at(-1)!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer sk-test');
  });

  it('asks a named compatible endpoint for streamed usage and sends no key it was not given', async () => {
    fake.respond = (response) => sse(response, [contentChunk('ok')]);
    const result = streamText({ model: registry.resolve('local:llama3.2:3b'), prompt: 'hi', maxRetries: 0, onError: () => {} });
    expect(await result.text).toBe('ok');
    const request = fake.requests.at(-1)!;
    expect(request.body).toMatchObject({ model: 'llama3.2:3b', stream: true, stream_options: { include_usage: true } });
    expect(request.authorization).toBeUndefined();
  });

  it('raises for an HTTP 429 the same APICallError the demo model raises for /fail rate_limit', async () => {
    const demoFailure = describeDemoFailure('rate_limit');
    if (demoFailure.via !== 'provider') throw new Error('rate_limit is a provider failure');
    const demoError = demoFailure.createError() as APICallError;
    fake.respond = (response) => {
      response.writeHead(429, demoError.responseHeaders);
      response.end(demoError.responseBody);
    };
    const real = await firstStreamFailure(registry.resolve('openai:gpt-test'), 'hi');
    const demo = await firstStreamFailure(registry.resolve('demo:default'), '/fail rate_limit');
    for (const run of [real, demo]) expect(APICallError.isInstance(run.error)).toBe(true);
    const realError = real.error as APICallError;
    const demoRaised = demo.error as APICallError;
    expect(demoRaised.statusCode).toBe(realError.statusCode);
    expect(demoRaised.isRetryable).toBe(realError.isRetryable);
    expect(demoRaised.message).toBe(realError.message);
    expect(demoRaised.responseBody).toBe(realError.responseBody);
    expect(demoRaised.data).toEqual(realError.data);
    expect(realError.responseHeaders?.['retry-after']).toBe('7');
    expect(demoRaised.responseHeaders?.['retry-after']).toBe('7');
  });

  it('carries a mid-stream SSE error as the same plain object the demo model emits', async () => {
    const demoFailure = describeDemoFailure('context_length');
    if (demoFailure.via !== 'provider' || demoFailure.midStream.kind !== 'error-part') {
      throw new Error('context_length fails mid-stream with an error part');
    }
    const payload = demoFailure.midStream.payload;
    fake.respond = (response) =>
      sse(response, [contentChunk('t1 '), contentChunk('t2 '), { error: payload }]);
    const real = await firstStreamFailure(registry.resolve('openai:gpt-test'), 'hi');
    const demo = await firstStreamFailure(registry.resolve('demo:default'), '/fail context_length after 2');
    expect(real.deltas).toEqual(['t1 ', 't2 ']);
    expect(demo.deltas).toEqual(real.deltas);
    expect(real.error).not.toBeInstanceOf(Error);
    expect(demo.error).toEqual(real.error);
  });
});
