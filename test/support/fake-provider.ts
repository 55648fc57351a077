/**
 * A scriptable fake model provider on 127.0.0.1 that speaks the three wire protocols
 * our real provider packages use:
 *
 *   - OpenAI chat completions   POST …/chat/completions  (`createOpenAI().chat()`, `createOpenAICompatible()`)
 *   - OpenAI responses          POST …/responses         (`createOpenAI().responses()`, `createOpenAI()(model)`)
 *   - Anthropic messages        POST …/messages          (`createAnthropic()`)
 *
 * Point any of them at `provider.url` (it ends in `/v1`, like the real base URLs):
 *
 *   const provider = await startFakeProvider();
 *   const openai = createOpenAI({ baseURL: provider.url, apiKey: 'test' });
 *   provider.enqueue(
 *     { kind: 'http-error', status: 429, error: { message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' },
 *       headers: { 'retry-after': '7' } },
 *     { kind: 'reply', chunks: ['Hello', ' world'] },
 *   );
 *   … // first model request gets the 429, the second the streamed reply
 *   expect(provider.requests[1].body).toMatchObject({ model: 'gpt-test' });
 *   await provider.close();
 *
 * Each model request consumes the next scripted behaviour, whatever its protocol; the
 * behaviour is rendered in the protocol of the request. With the queue empty the
 * default behaviour answers (a short text reply unless `setDefault` changed it).
 * Streaming (`"stream": true`) and non-streaming requests are both served; failure
 * behaviours that only make sense in a stream (`stream-error`, `hang` with chunks)
 * also work for non-streaming requests in the closest equivalent way.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

/** An error as the provider reports it; rendered into the protocol's own JSON shape. */
export interface FakeProviderError {
  message: string;
  /** OpenAI `type` (e.g. `invalid_request_error`) or Anthropic `error.type` (e.g. `overloaded_error`). Defaults by status. */
  type?: string;
  /** OpenAI `code` (e.g. `context_length_exceeded`, `insufficient_quota`); Anthropic has none. */
  code?: string | null;
  param?: string | null;
}

/**
 * Tokens as a provider reports them, rendered in each protocol's shape: `input` is the input not
 * read from a cache, `output` every output token with `reasoning` among them. OpenAI has no cache
 * writes: `cacheWrite` is Anthropic's only.
 */
export interface FakeUsage {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface FakeToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a generated `call_<n>`. */
  id?: string;
}

export type FakeBehaviour =
  /** A normal reply; `chunks` are streamed as separate text deltas. */
  | {
      kind: 'reply';
      chunks: string[];
      chunkDelayMs?: number;
      /** Paced instead: chunk i is written at the stream's start plus i/rate seconds (several per timer tick when due). */
      chunksPerSecond?: number;
      headers?: Record<string, string>;
      /** The usage the stream's end reports (streaming only); by default 10 input tokens and one output token per chunk. */
      usage?: FakeUsage;
    }
  /** The model calls tools (finish reason tool-calls / tool_use), optionally after some text. */
  | { kind: 'tool-calls'; calls: FakeToolCall[]; textBefore?: string[]; headers?: Record<string, string> }
  /**
   * An HTTP error status with the protocol's JSON error body. `body` replaces the
   * generated body verbatim (for odd shapes). A request-id header is always added
   * unless `headers` overrides it.
   */
  | { kind: 'http-error'; status: number; error?: FakeProviderError; body?: unknown; headers?: Record<string, string> }
  /**
   * HTTP 200, `chunksBefore` streamed, then the protocol's SSE error event: OpenAI chat
   * `data: {"error":{…}}`, OpenAI responses `{"type":"error",…}` (or `response.failed`
   * with `responsesFailedEvent`), Anthropic `event: error`. With no chunks before it,
   * the packages turn it into an APICallError instead of an `error` stream part.
   */
  | {
      kind: 'stream-error';
      error: FakeProviderError;
      chunksBefore?: string[];
      chunkDelayMs?: number;
      responsesFailedEvent?: boolean;
      headers?: Record<string, string>;
    }
  /**
   * Destroys the socket: before any response without `chunksBefore`, else after
   * streaming them and waiting `dropDelayMs` (default 50) — a fetch body stream that
   * errors discards what the client has not read yet, so the pause lets the chunks
   * reach the caller first, as they would on a real connection that dies later.
   */
  | { kind: 'drop'; chunksBefore?: string[]; dropDelayMs?: number }
  /** Streams `chunksBefore` and then keeps the response open until the client goes away or the server closes (for Stop tests). */
  | { kind: 'hang'; chunksBefore?: string[] };

export interface RecordedRequest {
  protocol: FakeProtocol | 'unknown';
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when it was not JSON); `any` so tests can reach into it without casts. */
  body: any;
  /** The behaviour this request was answered with; null for a path that is no model endpoint (answered 404). */
  behaviour: FakeBehaviour | null;
}

export interface FakeProvider {
  /** Base URL for all three packages, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every model request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Appends scripted behaviours; each model request consumes one, in order. */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** Same as `enqueue(behaviour)`. */
  setNext(behaviour: FakeBehaviour): void;
  /** What answers when the queue is empty. */
  setDefault(behaviour: FakeBehaviour): void;
  /** Number of scripted behaviours not consumed yet. */
  pending(): number;
  /** Resolves once `count` requests in total have been received. */
  waitForRequests(count: number, timeoutMs?: number): Promise<readonly RecordedRequest[]>;
  /** Empties the queue and the request log and restores the default reply. */
  reset(): void;
  /** Stops the server, ending hanging responses. */
  close(): Promise<void>;
}

export const DEFAULT_FAKE_REPLY: FakeBehaviour = { kind: 'reply', chunks: ['Hello', ' from the', ' fake provider.'] };

export interface StartFakeProviderOptions {
  defaultBehaviour?: FakeBehaviour;
  /** Model name echoed in responses when the request names none. */
  model?: string;
  /**
   * The only key `GET …/models` accepts (as `Authorization: Bearer` or Anthropic's `x-api-key`);
   * any other gets 401 in the provider's error shape. Without it every key is accepted.
   */
  apiKey?: string;
}

export async function startFakeProvider(options: StartFakeProviderOptions = {}): Promise<FakeProvider> {
  const queue: FakeBehaviour[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const openResponses = new Set<ServerResponse>();
  const requestWaiters: Array<{ count: number; resolve: () => void }> = [];
  let defaultBehaviour = options.defaultBehaviour ?? DEFAULT_FAKE_REPLY;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
      }
      res.end(`fake provider failed: ${String(error)}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    const protocol = protocolOf(path);
    if (req.method === 'GET' && path.endsWith('/models')) {
      listModels(req, res, options);
      return;
    }
    // Only model requests consume a scripted behaviour; a stray request elsewhere must not shift the script.
    const behaviour = protocol === 'unknown' ? null : (queue.shift() ?? defaultBehaviour);
    requests.push({
      protocol,
      method: req.method ?? 'GET',
      path,
      headers: flattenHeaders(req),
      body: parseJson(rawBody),
      behaviour,
    });
    for (const waiter of requestWaiters.filter((w) => requests.length >= w.count)) {
      requestWaiters.splice(requestWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }

    if (protocol === 'unknown' || behaviour === null) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake provider: no route for ${path}`, type: 'invalid_request_error' } }));
      return;
    }

    const body = requests[requests.length - 1].body as Record<string, unknown> | undefined;
    const session: Session = {
      protocol,
      id: requests.length,
      model: typeof body?.model === 'string' ? body.model : (options.model ?? 'fake-model'),
      streaming: body?.stream === true,
      req,
      res,
    };
    openResponses.add(res);
    res.on('close', () => openResponses.delete(res));
    await respond(session, behaviour);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...behaviours) => {
      queue.push(...behaviours);
    },
    setNext: (behaviour) => {
      queue.push(behaviour);
    },
    setDefault: (behaviour) => {
      defaultBehaviour = behaviour;
    },
    pending: () => queue.length,
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) {
          resolve(requests);
          return;
        }
        const timer = setTimeout(
          () => reject(new Error(`fake provider: ${requests.length} of ${count} requests after ${timeoutMs} ms`)),
          timeoutMs,
        );
        requestWaiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      }),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      defaultBehaviour = options.defaultBehaviour ?? DEFAULT_FAKE_REPLY;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of openResponses) res.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------
// Rendering

interface Session {
  protocol: FakeProtocol;
  /** 1-based position in the request log; also makes the request id `req_fake_<id>`. */
  id: number;
  model: string;
  streaming: boolean;
  req: IncomingMessage;
  res: ServerResponse;
}

async function respond(session: Session, behaviour: FakeBehaviour): Promise<void> {
  switch (behaviour.kind) {
    case 'http-error':
      return sendHttpError(session, behaviour);
    case 'drop':
      if ((behaviour.chunksBefore ?? []).length === 0 || !session.streaming) {
        session.req.socket.destroy();
        return;
      }
      await streamText(session, behaviour.chunksBefore ?? [], 0, {});
      await flushed(session);
      await sleep(behaviour.dropDelayMs ?? 50);
      session.req.socket.destroy();
      return;
    case 'hang':
      if (session.streaming) {
        await streamText(session, behaviour.chunksBefore ?? [], 0, {});
      }
      // Left open on purpose: ends when the client aborts or the fake provider closes.
      return;
    case 'reply':
      if (!session.streaming) return sendJson(session, 200, completeReply(session, behaviour.chunks.join(''), []), behaviour.headers);
      await streamText(session, behaviour.chunks, behaviour.chunkDelayMs ?? 0, behaviour.headers ?? {}, { chunksPerSecond: behaviour.chunksPerSecond });
      if (session.res.destroyed) return;
      closeTextBlock(session, behaviour.chunks.join(''));
      writeStreamEnd(session, 'stop', behaviour.chunks.length, behaviour.usage);
      session.res.end();
      return;
    case 'tool-calls': {
      const calls = behaviour.calls.map((call, index) => ({ ...call, id: call.id ?? `call_${session.id}_${index}` }));
      const textBefore = behaviour.textBefore ?? [];
      if (!session.streaming) return sendJson(session, 200, completeReply(session, textBefore.join(''), calls), behaviour.headers);
      await streamText(session, textBefore, 0, behaviour.headers ?? {}, { keepTextOpen: false });
      writeToolCalls(session, calls, textBefore.length > 0 ? 1 : 0);
      writeStreamEnd(session, 'tool_calls', textBefore.length + calls.length);
      session.res.end();
      return;
    }
    case 'stream-error':
      if (!session.streaming) {
        return sendHttpError(session, { kind: 'http-error', status: 500, error: behaviour.error, headers: behaviour.headers });
      }
      if ((behaviour.chunksBefore ?? []).length === 0) {
        // No preamble at all: the error is the first event of the stream, which the
        // packages check for and throw as an APICallError (Anthropic: 529/500).
        startStream(session, behaviour.headers ?? {});
      } else {
        await streamText(session, behaviour.chunksBefore ?? [], behaviour.chunkDelayMs ?? 0, behaviour.headers ?? {});
      }
      writeStreamError(session, behaviour);
      session.res.end();
      return;
  }
}

function requestIdHeaders(session: Session): Record<string, string> {
  const requestId = `req_fake_${session.id}`;
  return session.protocol === 'anthropic-messages' ? { 'request-id': requestId } : { 'x-request-id': requestId };
}

function sendJson(session: Session, status: number, body: unknown, headers: Record<string, string> = {}): void {
  session.res.writeHead(status, { 'content-type': 'application/json', ...requestIdHeaders(session), ...headers });
  session.res.end(JSON.stringify(body));
}

function sendHttpError(session: Session, behaviour: Extract<FakeBehaviour, { kind: 'http-error' }>): void {
  const error = behaviour.error ?? { message: `Fake provider error ${behaviour.status}` };
  const body = behaviour.body ?? errorBody(session, behaviour.status, error);
  sendJson(session, behaviour.status, body, behaviour.headers);
}

function errorBody(session: Session, status: number, error: FakeProviderError): unknown {
  if (session.protocol === 'anthropic-messages') {
    return {
      type: 'error',
      error: { type: error.type ?? anthropicErrorType(status), message: error.message },
      request_id: `req_fake_${session.id}`,
    };
  }
  return {
    error: {
      message: error.message,
      type: error.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: error.param ?? null,
      code: error.code ?? null,
    },
  };
}

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function startStream(session: Session, headers: Record<string, string>): void {
  if (session.res.headersSent) return;
  session.res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...requestIdHeaders(session),
    ...headers,
  });
}

function sse(session: Session, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  session.res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`);
}

const created = (): number => Math.floor(Date.now() / 1000);

/**
 * Opens the stream and writes the preamble and text deltas. The text block is left
 * open (Anthropic content block, OpenAI responses message item) so that either a
 * normal end or an error event can follow.
 */
async function streamText(
  session: Session,
  chunks: string[],
  delayMs: number,
  headers: Record<string, string>,
  { keepTextOpen = true, chunksPerSecond }: { keepTextOpen?: boolean; chunksPerSecond?: number } = {},
): Promise<void> {
  startStream(session, headers);
  const id = session.id;
  switch (session.protocol) {
    case 'openai-chat':
      sse(session, chatChunk(session, { role: 'assistant', content: '' }, null));
      break;
    case 'openai-responses':
      sse(session, {
        type: 'response.created',
        sequence_number: 0,
        response: { id: `resp_${id}`, object: 'response', created_at: created(), status: 'in_progress', model: session.model, output: [] },
      });
      if (chunks.length > 0 || keepTextOpen) {
        sse(session, {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'message', id: `msg_${id}`, status: 'in_progress', role: 'assistant', content: [] },
        });
      }
      break;
    case 'anthropic-messages':
      sse(
        session,
        {
          type: 'message_start',
          message: {
            id: `msg_${id}`,
            type: 'message',
            role: 'assistant',
            model: session.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
        'message_start',
      );
      if (chunks.length > 0 || keepTextOpen) {
        sse(session, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
      }
      break;
  }

  const started = performance.now();
  for (const [index, chunk] of chunks.entries()) {
    if (delayMs > 0) await sleep(delayMs);
    else if (chunksPerSecond) {
      const wait = started + (index * 1000) / chunksPerSecond - performance.now();
      if (wait >= 1) await sleep(wait);
    }
    if (session.res.destroyed) return;
    switch (session.protocol) {
      case 'openai-chat':
        sse(session, chatChunk(session, { content: chunk }, null));
        break;
      case 'openai-responses':
        sse(session, { type: 'response.output_text.delta', item_id: `msg_${id}`, output_index: 0, content_index: 0, delta: chunk });
        break;
      case 'anthropic-messages':
        sse(session, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } }, 'content_block_delta');
        break;
    }
  }
  if (!keepTextOpen && chunks.length > 0) closeTextBlock(session, chunks.join(''));
}

function closeTextBlock(session: Session, text: string): void {
  if (session.protocol === 'openai-responses') {
    sse(session, {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'message',
        id: `msg_${session.id}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    });
  } else if (session.protocol === 'anthropic-messages') {
    sse(session, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  }
}

function chatChunk(session: Session, delta: Record<string, unknown>, finishReason: string | null): unknown {
  return {
    id: `chatcmpl-${session.id}`,
    object: 'chat.completion.chunk',
    created: created(),
    model: session.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function writeToolCalls(session: Session, calls: Array<FakeToolCall & { id: string }>, firstIndex: number): void {
  calls.forEach((call, offset) => {
    const args = JSON.stringify(call.input);
    const index = firstIndex + offset;
    switch (session.protocol) {
      case 'openai-chat':
        sse(
          session,
          chatChunk(session, { tool_calls: [{ index: offset, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null),
        );
        sse(session, chatChunk(session, { tool_calls: [{ index: offset, function: { arguments: args } }] }, null));
        break;
      case 'openai-responses': {
        const item = { type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name, arguments: '' };
        sse(session, { type: 'response.output_item.added', output_index: index, item: { ...item, status: 'in_progress' } });
        sse(session, { type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: args });
        sse(session, { type: 'response.output_item.done', output_index: index, item: { ...item, arguments: args, status: 'completed' } });
        break;
      }
      case 'anthropic-messages':
        sse(
          session,
          { type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } },
          'content_block_start',
        );
        sse(session, { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } }, 'content_block_delta');
        sse(session, { type: 'content_block_stop', index }, 'content_block_stop');
        break;
    }
  });
}

/** Ends the stream normally; any open text block must already be closed (`closeTextBlock`). */
function writeStreamEnd(session: Session, finish: 'stop' | 'tool_calls', outputTokens: number, reported?: FakeUsage): void {
  const usage = { input: 10, output: Math.max(1, outputTokens), cachedInput: 0, cacheWrite: 0, reasoning: 0, ...reported };
  switch (session.protocol) {
    case 'openai-chat':
      sse(session, chatChunk(session, {}, finish));
      sse(session, {
        id: `chatcmpl-${session.id}`,
        object: 'chat.completion.chunk',
        created: created(),
        model: session.model,
        choices: [],
        usage: {
          prompt_tokens: usage.input + usage.cachedInput,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.cachedInput + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cachedInput },
          completion_tokens_details: { reasoning_tokens: usage.reasoning },
        },
      });
      sse(session, '[DONE]');
      break;
    case 'openai-responses':
      sse(session, {
        type: 'response.completed',
        sequence_number: 99,
        response: {
          id: `resp_${session.id}`,
          object: 'response',
          created_at: created(),
          status: 'completed',
          model: session.model,
          usage: responsesUsage(usage.input + usage.cachedInput, usage.output, usage.cachedInput, usage.reasoning),
        },
      });
      break;
    case 'anthropic-messages':
      sse(
        session,
        {
          type: 'message_delta',
          delta: { stop_reason: finish === 'stop' ? 'end_turn' : 'tool_use', stop_sequence: null },
          usage: {
            output_tokens: usage.output,
            ...(reported
              ? {
                  input_tokens: usage.input,
                  cache_read_input_tokens: usage.cachedInput,
                  cache_creation_input_tokens: usage.cacheWrite,
                  output_tokens_details: { thinking_tokens: usage.reasoning },
                }
              : {}),
          },
        },
        'message_delta',
      );
      sse(session, { type: 'message_stop' }, 'message_stop');
      break;
  }
}

function writeStreamError(session: Session, behaviour: Extract<FakeBehaviour, { kind: 'stream-error' }>): void {
  const { error } = behaviour;
  switch (session.protocol) {
    case 'openai-chat':
      sse(session, {
        error: { message: error.message, type: error.type ?? 'server_error', param: error.param ?? null, code: error.code ?? null },
      });
      break;
    case 'openai-responses':
      if (behaviour.responsesFailedEvent === true) {
        sse(session, {
          type: 'response.failed',
          sequence_number: 50,
          response: {
            id: `resp_${session.id}`,
            object: 'response',
            created_at: created(),
            status: 'failed',
            model: session.model,
            error: { code: error.code ?? error.type ?? 'server_error', message: error.message },
          },
        });
      } else {
        sse(session, { type: 'error', sequence_number: 50, code: error.code ?? error.type ?? null, message: error.message, param: error.param ?? null });
      }
      break;
    case 'anthropic-messages':
      sse(session, { type: 'error', error: { type: error.type ?? 'api_error', message: error.message } }, 'error');
      break;
  }
}

function responsesUsage(input: number, output: number, cached = 0, reasoning = 0): unknown {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

function completeReply(session: Session, text: string, calls: Array<FakeToolCall & { id: string }>): unknown {
  const outputTokens = 1 + calls.length;
  switch (session.protocol) {
    case 'openai-chat':
      return {
        id: `chatcmpl-${session.id}`,
        object: 'chat.completion',
        created: created(),
        model: session.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: text === '' && calls.length > 0 ? null : text,
              ...(calls.length > 0
                ? {
                    tool_calls: calls.map((call) => ({
                      id: call.id,
                      type: 'function',
                      function: { name: call.name, arguments: JSON.stringify(call.input) },
                    })),
                  }
                : {}),
            },
            finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: outputTokens, total_tokens: 10 + outputTokens },
      };
    case 'openai-responses':
      return {
        id: `resp_${session.id}`,
        object: 'response',
        created_at: created(),
        status: 'completed',
        model: session.model,
        output: [
          ...(text === ''
            ? []
            : [
                {
                  type: 'message',
                  id: `msg_${session.id}`,
                  status: 'completed',
                  role: 'assistant',
                  content: [{ type: 'output_text', text, annotations: [] }],
                },
              ]),
          ...calls.map((call) => ({
            type: 'function_call',
            id: `fc_${call.id}`,
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.input),
            status: 'completed',
          })),
        ],
        usage: responsesUsage(10, outputTokens),
      };
    case 'anthropic-messages':
      return {
        id: `msg_${session.id}`,
        type: 'message',
        role: 'assistant',
        model: session.model,
        content: [
          ...(text === '' ? [] : [{ type: 'text', text }]),
          ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
        ],
        stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: outputTokens },
      };
  }
}

// ---------------------------------------------------------------------------
// Plumbing

/** The cheap authenticated call (`parley doctor` makes it): the model list, or 401 for a wrong key. */
function listModels(req: IncomingMessage, res: ServerResponse, options: StartFakeProviderOptions): void {
  const anthropic = typeof req.headers['x-api-key'] === 'string';
  const sent = anthropic ? String(req.headers['x-api-key']) : (req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (options.apiKey !== undefined && sent !== options.apiKey) {
    res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': 'req_fake_models' });
    res.end(
      JSON.stringify(
        anthropic
          ? { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }
          : { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key', param: null } },
      ),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data: [{ id: options.model ?? 'fake-model', object: 'model' }] }));
}

function protocolOf(path: string): FakeProtocol | 'unknown' {
  if (path.endsWith('/chat/completions')) return 'openai-chat';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.endsWith('/messages')) return 'anthropic-messages';
  return 'unknown';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Waits until everything written so far has left the process, so a following socket.destroy() cannot swallow it. */
function flushed(session: Session): Promise<void> {
  return new Promise((resolve) => session.res.write('', () => resolve()));
}

function sleep(ms: number): Promise<void> {
  // Deliberate delay: a scripted provider's pace (chunk intervals, a drop after a pause), not a wait for state.
  return new Promise((resolve) => setTimeout(resolve, ms));
}
