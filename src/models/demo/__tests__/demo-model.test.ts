import { APICallError } from '@ai-sdk/provider';
import {
  generateText,
  jsonSchema,
  stepCountIs,
  streamText,
  tool,
  type ModelMessage,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_COMMANDS } from '../commands.ts';
import { DEMO_FAILURE_REASONS, describeDemoFailure, type DemoFailureReason } from '../failures.ts';
import { createDemoModel } from '../model.ts';
import { splitIntoWordChunks } from '../plans.ts';

type FullStreamPart = TextStreamPart<ToolSet>;

const anyInput = jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/** The runtime's tools, minus their behaviour: calls stop the run so tests can inspect them. */
function declaredTools(): ToolSet {
  return {
    approve_action: tool({ description: 'needs approval', inputSchema: anyInput }),
    ask_user: tool({ description: 'asks the user', inputSchema: anyInput }),
    delegate: tool({ description: 'runs a child', inputSchema: anyInput }),
    demo_crash: tool({ description: 'throws', inputSchema: anyInput }),
  };
}

async function collect(options: { prompt?: string; messages?: ModelMessage[]; tools?: ToolSet; abortSignal?: AbortSignal; stopAfterSteps?: number }) {
  const common = {
    model: createDemoModel(),
    maxRetries: 0,
    tools: options.tools ?? declaredTools(),
    abortSignal: options.abortSignal,
    stopWhen: stepCountIs(options.stopAfterSteps ?? 1),
    // streamText logs every error part by default; the tests inspect them instead.
    onError: () => {},
  };
  const result =
    options.messages !== undefined
      ? streamText({ ...common, messages: options.messages })
      : streamText({ ...common, prompt: options.prompt ?? '' });
  const started = Date.now();
  const parts: FullStreamPart[] = [];
  const arrivals: number[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.fullStream) {
      parts.push(part);
      arrivals.push(Date.now() - started);
    }
  } catch (error) {
    thrown = error;
  }
  const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));
  const deltaArrivals = arrivals.filter((_, index) => parts[index].type === 'text-delta');
  const errors = parts.flatMap((part) => (part.type === 'error' ? [part.error] : []));
  const toolCalls = parts.flatMap((part) => (part.type === 'tool-call' ? [part] : []));
  const finish = parts.find((part) => part.type === 'finish');
  return { parts, deltas, deltaArrivals, errors, toolCalls, finish, thrown, elapsed: Date.now() - started, result };
}

function lastText(parts: FullStreamPart[]): string {
  const lastStepStart = parts.map((part) => part.type).lastIndexOf('start-step');
  return parts
    .slice(lastStepStart)
    .flatMap((part) => (part.type === 'text-delta' ? [part.text] : []))
    .join('');
}

describe('plain messages', () => {
  it('quotes the message in several word chunks after one reasoning chunk', async () => {
    const run = await collect({ prompt: 'hello there demo' });
    expect(run.deltas.join('')).toBe('You said: "hello there demo"');
    expect(run.deltas).toEqual(['You ', 'said: ', '"hello ', 'there ', 'demo"']);
    const reasoning = run.parts.flatMap((part) => (part.type === 'reasoning-delta' ? [part.text] : []));
    expect(reasoning).toEqual(['Plain message without a command: quoting it back.']);
    expect(run.errors).toEqual([]);
  });

  it('reports input words and output chunks as usage', async () => {
    const run = await collect({ prompt: 'one two three four' });
    expect(run.finish?.type === 'finish' && run.finish.totalUsage).toMatchObject({
      inputTokens: 4,
      outputTokens: run.deltas.length + 1,
      reasoningTokens: 1,
    });
  });

  it('answers the same prompt identically every time', async () => {
    const first = await collect({ prompt: 'same words' });
    const second = await collect({ prompt: 'same words' });
    expect(second.deltas).toEqual(first.deltas);
  });

  it('treats an unknown slash word as plain text and mentions attachments', async () => {
    const run = await collect({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '/unknown thing' },
            { type: 'file', data: new Uint8Array([1, 2, 3]), mediaType: 'application/octet-stream' },
          ],
        },
      ],
    });
    expect(run.deltas.join('')).toBe('You said: "/unknown thing" (1 attachment)');
  });

  it('answers through generateText too', async () => {
    const result = await generateText({ model: createDemoModel(), prompt: 'hi', maxRetries: 0 });
    expect(result.text).toBe('You said: "hi"');
    expect(result.reasoningText).toBe('Plain message without a command: quoting it back.');
  });

  it('splits on words so the chunks rebuild the text', () => {
    const text = 'a  b\nc d';
    expect(splitIntoWordChunks(text).join('')).toBe(text);
    expect(splitIntoWordChunks(text)).toHaveLength(4);
  });
});

describe('/tokens', () => {
  it('streams exactly n numbered chunks and reports n output tokens', async () => {
    const run = await collect({ prompt: '/tokens 50' });
    expect(run.deltas).toHaveLength(50);
    expect(run.deltas[0]).toBe('t1 ');
    expect(run.deltas[49]).toBe('t50 ');
    expect(run.finish?.type === 'finish' && run.finish.totalUsage.outputTokens).toBe(50);
  });

  it('answers with the usage line for a bad count or pace', async () => {
    const run = await collect({ prompt: '/tokens many' });
    expect(run.deltas.join('')).toBe('Usage: /tokens <n> [over <seconds>] (n from 0 to 100000)');
    const tooSlow = await collect({ prompt: '/tokens 10 over 9999' });
    expect(tooSlow.deltas.join('')).toBe('Usage: /tokens <n> [over <seconds>] (seconds from 0 to 600)');
  });

  it('over s seconds, chunk i is due at i·s/n from the start: a late chunk does not push the ones after it', async () => {
    // On a fake clock: /tokens 4 over 1 is due at 0, 250, 500 and 750 ms, the finish at 1000 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const result = streamText({ model: createDemoModel(), maxRetries: 0, prompt: '/tokens 4 over 1', onError: () => {} });
      const deltas: string[] = [];
      let finished = false;
      const reading = (async () => {
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') deltas.push(part.text);
          if (part.type === 'finish') finished = true;
        }
      })();
      await vi.advanceTimersByTimeAsync(0);
      expect(deltas).toEqual(['t1 ']);
      await vi.advanceTimersByTimeAsync(250);
      expect(deltas).toHaveLength(2);
      // The third chunk's timer fires 400 ms late (a busy event loop): the fourth, due at 750 ms,
      // comes with it instead of 250 ms after it.
      vi.setSystemTime(Date.now() + 400);
      await vi.advanceTimersByTimeAsync(250);
      expect(deltas).toHaveLength(4);
      expect(finished).toBe(false);
      await vi.advanceTimersByTimeAsync(100);
      await reading;
      expect(finished).toBe(true);
      expect(deltas.join('')).toBe('t1 t2 t3 t4 ');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('/history', () => {
  it('answers the earlier user texts as the prompt has them, and nothing else of it', async () => {
    const run = await collect({
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'You said: "first"' },
        { role: 'user', content: [{ type: 'text', text: 'second, with | a bar' }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: '/history' },
      ],
    });
    expect(run.deltas.join('')).toBe('History: first | second, with | a bar');
  });

  it('answers an empty history for a first message, and the usage line with arguments', async () => {
    expect((await collect({ prompt: '/history' })).deltas.join('')).toBe('History: ');
    expect((await collect({ prompt: '/history please' })).deltas.join('')).toBe('Usage: /history');
  });
});

describe('/slow', () => {
  it('spreads the reply over the requested seconds', async () => {
    // On a fake clock, so the schedule is checked exactly and a busy machine cannot move it: chunk i
    // at i·s/chunks seconds, the first at once, the finish at s seconds.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const result = streamText({ model: createDemoModel(), maxRetries: 0, prompt: '/slow 1', onError: () => {} });
      const deltas: string[] = [];
      let finished = false;
      const reading = (async () => {
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') deltas.push(part.text);
          if (part.type === 'finish') finished = true;
        }
      })();
      await vi.advanceTimersByTimeAsync(0);
      expect(deltas).toHaveLength(1);
      const chunks = splitIntoWordChunks('Counting: 1 2 3 4').length;
      const interval = 1000 / chunks;
      for (let sent = 1; sent < chunks; sent += 1) {
        await vi.advanceTimersByTimeAsync(interval - 1);
        expect(deltas, `before chunk ${sent + 1}`).toHaveLength(sent);
        await vi.advanceTimersByTimeAsync(1);
        expect(deltas, `at chunk ${sent + 1}`).toHaveLength(sent + 1);
      }
      expect(finished).toBe(false);
      await vi.advanceTimersByTimeAsync(interval);
      await reading;
      expect(finished).toBe(true);
      expect(deltas.join('')).toBe('Counting: 1 2 3 4');
    } finally {
      vi.useRealTimers();
    }
  });

  it('quotes the text it was given', async () => {
    const run = await collect({ prompt: '/slow 0.2 take your time' });
    expect(run.deltas.join('')).toBe('You said: "take your time"');
    expect(run.elapsed).toBeGreaterThanOrEqual(180);
  });

  it('stops at once when aborted through streamText', async () => {
    // On a fake clock: aborted at 300 ms (two chunks sent, the third due at 500 ms), the run ends with
    // no more time passing and no more text.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const controller = new AbortController();
      let run: Awaited<ReturnType<typeof collect>> | undefined;
      const collecting = collect({ prompt: '/slow 2', abortSignal: controller.signal }).then((done) => (run = done));
      await vi.advanceTimersByTimeAsync(300);
      controller.abort();
      for (let turn = 0; run === undefined && turn < 1000; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(run, 'the run ended without the clock moving').toBeDefined();
      await collecting;
      expect(run!.deltas).toHaveLength(2);
      expect(run!.parts.some((part) => part.type === 'abort')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('errors its own stream with the abort reason and sends nothing more', async () => {
    const controller = new AbortController();
    const { stream } = await createDemoModel().doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: '/slow 2' }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    const seen: string[] = [];
    setTimeout(() => controller.abort(new Error('stopped by the user')), 250);
    const failure = await (async () => {
      for (;;) {
        const next = await reader.read();
        if (next.done) return undefined;
        seen.push(next.value.type);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('stopped by the user');
    expect(seen.filter((type) => type === 'text-delta').length).toBeLessThan(4);
    expect(seen).not.toContain('finish');
  });

  it('refuses to start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createDemoModel().doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        abortSignal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers with the usage line for seconds out of range', async () => {
    const run = await collect({ prompt: '/slow 9999' });
    expect(run.deltas.join('')).toBe('Usage: /slow <seconds> [text] (seconds from 0 to 600)');
  });
});

const expectedHttpFailures: Array<[DemoFailureReason, number, string | null]> = [
  ['rate_limit', 429, 'rate_limit_exceeded'],
  ['quota_exceeded', 429, 'insufficient_quota'],
  ['authentication', 401, 'invalid_api_key'],
  ['authorization', 403, 'model_access_denied'],
  ['context_length', 400, 'context_length_exceeded'],
  ['content_policy', 400, 'content_policy_violation'],
  ['invalid_request', 400, null],
  ['provider_internal', 500, null],
];

describe('/fail before any output', () => {
  it.each(expectedHttpFailures)('%s raises the APICallError @ai-sdk/openai would (HTTP %i)', async (reason, status, code) => {
    const run = await collect({ prompt: `/fail ${reason}` });
    expect(run.deltas).toEqual([]);
    expect(run.errors).toHaveLength(1);
    const error = run.errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(status);
    expect(apiError.isRetryable).toBe(status === 429 || status >= 500);
    expect(apiError.url).toBe('https://demo.invalid/v1/chat/completions');
    expect(apiError.responseHeaders?.['content-type']).toBe('application/json');
    const body = JSON.parse(apiError.responseBody ?? '');
    expect(body.error.code).toBe(code);
    expect(apiError.message).toBe(body.error.message);
    expect(apiError.data).toEqual(body);
  });

  it('rate_limit asks to retry after 7 seconds', async () => {
    const run = await collect({ prompt: '/fail rate_limit' });
    expect((run.errors[0] as APICallError).responseHeaders?.['retry-after']).toBe('7');
  });

  it('quota_exceeded carries the insufficient_quota type marker', async () => {
    const run = await collect({ prompt: '/fail QUOTA_EXCEEDED' });
    expect(JSON.parse((run.errors[0] as APICallError).responseBody ?? '').error.type).toBe('insufficient_quota');
  });

  it('transport raises a status-less retryable APICallError caused by ECONNRESET', async () => {
    const run = await collect({ prompt: '/fail transport' });
    const error = run.errors[0] as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.statusCode).toBeUndefined();
    expect(error.isRetryable).toBe(true);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).toMatchObject({ code: 'ECONNRESET', message: 'read ECONNRESET' });
  });

  it('unknown raises a plain Error without status or code', async () => {
    const run = await collect({ prompt: '/fail unknown' });
    const error = run.errors[0];
    expect(error).toBeInstanceOf(Error);
    expect(APICallError.isInstance(error)).toBe(false);
    expect(error).not.toHaveProperty('code');
    expect((error as Error).message).toBe('The demo model failed in an unrecognised way.');
  });

  it('throws from generateText as well', async () => {
    await expect(
      generateText({ model: createDemoModel(), prompt: '/fail authentication', maxRetries: 0 }),
    ).rejects.toMatchObject({ statusCode: 401 });
  });

  it('answers with the usage line for an unknown reason', async () => {
    const run = await collect({ prompt: '/fail gremlins' });
    expect(run.errors).toEqual([]);
    expect(run.deltas.join('')).toMatch(/^Usage: \/fail <reason> \[after <n>\] \(reasons: transport, rate_limit/);
  });
});

describe('/fail after n chunks', () => {
  it('streams 3 chunks, then an error part carrying the plain OpenAI error object', async () => {
    const run = await collect({ prompt: '/fail rate_limit after 3' });
    expect(run.deltas).toEqual(['t1 ', 't2 ', 't3 ']);
    expect(run.errors).toHaveLength(1);
    const error = run.errors[0];
    expect(error).not.toBeInstanceOf(Error);
    expect(error).toEqual({
      message: expect.stringContaining('Please try again in 7s.'),
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
    const types = run.parts.map((part) => part.type);
    expect(types.lastIndexOf('text-delta')).toBeLessThan(types.indexOf('error'));
  });

  it('provider_internal sends Anthropic’s mid-stream overload event', async () => {
    const run = await collect({ prompt: '/fail provider_internal after 2' });
    expect(run.deltas).toHaveLength(2);
    expect(run.errors).toEqual([{ type: 'overloaded_error', message: 'Overloaded' }]);
  });

  it('unknown sends an object no rule recognises', async () => {
    const run = await collect({ prompt: '/fail unknown after 1' });
    expect(run.deltas).toHaveLength(1);
    expect(run.errors).toEqual([{ type: 'mystery', message: 'The demo model failed in an unrecognised way.' }]);
  });

  it('transport breaks the stream the way a dropped socket does', async () => {
    const run = await collect({ prompt: '/fail transport after 2' });
    expect(run.deltas).toHaveLength(2);
    expect(run.errors).toEqual([]);
    expect(run.thrown).toBeInstanceOf(TypeError);
    expect(run.thrown).toMatchObject({ message: 'terminated', cause: { code: 'ECONNRESET' } });
  });

  it('matches describeDemoFailure for every provider reason', () => {
    for (const reason of DEMO_FAILURE_REASONS) {
      const failure = describeDemoFailure(reason);
      if (failure.via === 'tool') {
        expect(failure).toMatchObject({ reason: 'application_error', toolName: 'demo_crash', input: {} });
      } else {
        expect(failure.createError()).toBeInstanceOf(Error);
        expect(failure.createError()).not.toBe(failure.createError());
      }
    }
  });
});

describe('/fail application_error', () => {
  it('calls demo_crash and, once the tool has failed, reports it', async () => {
    const tools = {
      ...declaredTools(),
      demo_crash: tool({
        inputSchema: anyInput,
        execute: async (): Promise<string> => {
          throw new Error('demo tool crashed');
        },
      }),
    };
    const run = await collect({ prompt: '/fail application_error after 1', tools, stopAfterSteps: 2 });
    expect(run.toolCalls).toMatchObject([{ toolName: 'demo_crash', input: {} }]);
    expect(run.parts.some((part) => part.type === 'tool-error')).toBe(true);
    expect(run.deltas[0]).toBe('t1 ');
    expect(lastText(run.parts)).toBe('The tool demo_crash failed: demo tool crashed');
  });
});

describe('tool commands', () => {
  it('/ask calls ask_user, then quotes the typed answer', async () => {
    const first = await collect({ prompt: '/ask What is your favourite colour?' });
    expect(first.toolCalls).toMatchObject([
      { toolName: 'ask_user', input: { question: 'What is your favourite colour?' } },
    ]);
    expect(first.finish?.type === 'finish' && first.finish.finishReason).toBe('tool-calls');

    const call = first.toolCalls[0];
    const second = await collect({
      messages: [
        { role: 'user', content: '/ask What is your favourite colour?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: 'ask_user', input: call.input }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: 'ask_user', output: { type: 'text', value: 'blue' } }],
        },
      ],
    });
    expect(second.deltas.join('')).toBe('You answered: "blue"');
  });

  it('/delegate calls delegate, then quotes the child’s result', async () => {
    const first = await collect({ prompt: '/delegate /slow 1 hi' });
    expect(first.toolCalls).toMatchObject([{ toolName: 'delegate', input: { message: '/slow 1 hi' } }]);

    const call = first.toolCalls[0];
    const second = await collect({
      messages: [
        { role: 'user', content: '/delegate /slow 1 hi' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: 'delegate', input: call.input }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: call.toolCallId,
              toolName: 'delegate',
              output: { type: 'json', value: { text: 'You said: "hi"' } },
            },
          ],
        },
      ],
    });
    expect(second.deltas.join('')).toBe('The delegate replied: "You said: "hi""');
  });

  it('/delegate reports a failed child', async () => {
    const run = await collect({
      messages: [
        { role: 'user', content: '/delegate /fail unknown' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'delegate', input: { message: '/fail unknown' } }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'delegate', output: { type: 'error-text', value: 'child failed' } }],
        },
      ],
    });
    expect(run.deltas.join('')).toBe('The delegate failed: child failed');
  });

  it.each([
    [true, 'Approved: deploy to production'],
    [false, 'Not approved: deploy to production'],
  ])('/approve goes through the AI SDK approval flow (approved: %s)', async (approved, expected) => {
    const approvalTool = tool({
      inputSchema: anyInput,
      needsApproval: true,
      execute: async (input) => ({ done: input.action }),
    });
    const tools = { ...declaredTools(), approve_action: approvalTool };
    const first = await collect({ prompt: '/approve deploy to production', tools });
    expect(first.toolCalls).toMatchObject([{ toolName: 'approve_action', input: { action: 'deploy to production' } }]);
    const request = first.parts.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    if (request?.type !== 'tool-approval-request') return;

    const history: ModelMessage[] = [
      { role: 'user', content: '/approve deploy to production' },
      ...(await first.result.response).messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved }] },
    ];
    const second = await collect({ messages: history, tools });
    expect(second.deltas.join('')).toBe(expected);
  });

  it('gives tool calls ids that differ across the conversation', async () => {
    const first = await collect({ prompt: '/ask one?' });
    const firstId = first.toolCalls[0].toolCallId;
    const second = await collect({
      messages: [
        { role: 'user', content: '/ask one?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: firstId, toolName: 'ask_user', input: { question: 'one?' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: firstId, toolName: 'ask_user', output: { type: 'text', value: 'yes' } }] },
        { role: 'assistant', content: 'You answered: "yes"' },
        { role: 'user', content: '/ask two?' },
      ],
    });
    const secondId = second.toolCalls[0].toolCallId;
    expect(secondId).not.toBe(firstId);
    const again = await collect({ prompt: '/ask one?' });
    expect(again.toolCalls[0].toolCallId).toBe(firstId);
  });

  it('says so when the agent lacks the tool instead of calling it', async () => {
    const run = await collect({ prompt: '/ask anything?', tools: {} });
    expect(run.toolCalls).toEqual([]);
    expect(run.deltas.join('')).toBe('The tool ask_user is not available to this agent.');
  });
});

describe('DEMO_COMMANDS', () => {
  it('lists every command with its usage and a one-line description', () => {
    expect(DEMO_COMMANDS.map((command) => command.name)).toEqual([
      '/slow',
      '/fail',
      '/approve',
      '/ask',
      '/delegate',
      '/tool',
      '/tokens',
      '/history',
    ]);
    for (const command of DEMO_COMMANDS) {
      expect(command.usage.startsWith(command.name)).toBe(true);
      expect(command.description).not.toMatch(/\n/);
    }
  });
});
