import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { describeDemoFailure, requestBodyFor } from './failures.ts';
import { planFor, type DemoPlan } from './plans.ts';
import { readPrompt, type PromptView } from './prompt.ts';
import { PARLEY_PROVIDER_OPTIONS } from '../summary-request.ts';

/*
 * The built-in demo model (the demo model's table in docs/getting-started.md): deterministic, offline, and able to put a run into any
 * state on purpose. prompt.ts reads the prompt, commands.ts parses the command in its last
 * user message, plans.ts decides what the run streams and which tool it calls, failures.ts
 * builds the errors the real provider packages raise, and this file streams the plan.
 *
 * Usage is countable by hand so budgets can be tested: inputTokens = whitespace-separated
 * words in the whole prompt (tool inputs and outputs as JSON), outputTokens = text chunks
 * plus reasoning chunks (reasoning only for plain messages, always 1).
 */

export const DEMO_PROVIDER = 'demo';

function usageFor(view: PromptView, textChunks: number, reasoningChunks: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: view.wordCount, noCache: view.wordCount, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: textChunks + reasoningChunks, text: textChunks, reasoning: reasoningChunks },
  };
}

function finishReasonFor(plan: DemoPlan): LanguageModelV3FinishReason {
  return plan.toolCall ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** How long a stream may keep the event loop before it lets other work (requests, timers) run. */
const EVENT_LOOP_SLICE_MS = 2;

/**
 * A stream's share of the event loop: a chunk sent without delay (`/tokens`) is handed on in a
 * microtask, and the whole run downstream of it (recording, publishing) then runs in the same
 * turn of the loop; every few milliseconds this waits for the loop's next turn instead.
 */
function eventLoopShare(): () => Promise<void> {
  let heldSince = performance.now();
  return async () => {
    if (performance.now() - heldSince < EVENT_LOOP_SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    heldSince = performance.now();
  };
}

/** Resolves after ms, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function* streamParts(
  plan: DemoPlan,
  view: PromptView,
  modelId: string,
  signal: AbortSignal,
): AsyncGenerator<LanguageModelV3StreamPart> {
  const textId = 'txt-0';
  const reasoningChunks = plan.reasoning ? 1 : 0;
  const yieldTurn = eventLoopShare();
  yield { type: 'stream-start', warnings: [] };
  yield { type: 'response-metadata', id: `demo-resp-${view.userMessageCount}-${view.toolCallCount}`, modelId, timestamp: new Date() };
  if (plan.reasoning) {
    yield { type: 'reasoning-start', id: 'rsn-0' };
    yield { type: 'reasoning-delta', id: 'rsn-0', delta: plan.reasoning };
    yield { type: 'reasoning-end', id: 'rsn-0' };
  }
  // Due times from one start, so a late chunk does not push the ones after it.
  const startedAt = Date.now();
  const untilDue = (index: number) => pause(startedAt + index * plan.chunkIntervalMs - Date.now(), signal);
  for (const [index, chunk] of plan.textChunks.entries()) {
    if (index === 0) yield { type: 'text-start', id: textId };
    else if (plan.chunkIntervalMs > 0) await untilDue(index);
    else {
      await yieldTurn();
      if (signal.aborted) throw abortReason(signal);
    }
    yield { type: 'text-delta', id: textId, delta: chunk };
  }
  if (plan.textChunks.length > 0 && plan.chunkIntervalMs > 0) await untilDue(plan.textChunks.length);

  const textStarted = plan.textChunks.length > 0;
  if (plan.failure?.before === 'finish') {
    const midStream = plan.failure.midStream;
    if (midStream.kind === 'stream-error') throw midStream.createError();
    // Same order as @ai-sdk/openai: the error part, then text-end and finish from flush.
    yield { type: 'error', error: midStream.payload };
    if (textStarted) yield { type: 'text-end', id: textId };
    yield {
      type: 'finish',
      finishReason: { unified: 'error', raw: undefined },
      usage: usageFor(view, plan.textChunks.length, reasoningChunks),
    };
    return;
  }
  if (textStarted) yield { type: 'text-end', id: textId };
  if (plan.toolCall) {
    yield {
      type: 'tool-call',
      toolCallId: plan.toolCall.toolCallId,
      toolName: plan.toolCall.toolName,
      input: JSON.stringify(plan.toolCall.input),
    };
  }
  yield {
    type: 'finish',
    finishReason: finishReasonFor(plan),
    usage: usageFor(view, plan.textChunks.length, reasoningChunks),
  };
}

/**
 * Pull-based so a fast consumer sets the pace of /tokens, and the caller's abort errors
 * the stream at once, dropping anything still queued.
 */
function toReadableStream(
  produce: (signal: AbortSignal) => AsyncGenerator<LanguageModelV3StreamPart>,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  const stopped = new AbortController();
  const signal = abortSignal ? AbortSignal.any([abortSignal, stopped.signal]) : stopped.signal;
  const parts = produce(signal);
  let detachAbort = () => {};
  const finish = () => {
    detachAbort();
    stopped.abort();
  };
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      start(controller) {
        if (!abortSignal) return;
        const onAbort = () => {
          controller.error(abortReason(abortSignal));
          finish();
        };
        abortSignal.addEventListener('abort', onAbort, { once: true });
        detachAbort = () => abortSignal.removeEventListener('abort', onAbort);
      },
      async pull(controller) {
        try {
          const next = await parts.next();
          if (next.done) {
            finish();
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          finish();
          controller.error(abortSignal?.aborted ? abortReason(abortSignal) : error);
        }
      },
      cancel() {
        finish();
        void parts.return(undefined).catch(() => {});
      },
    },
    { highWaterMark: 1 },
  );
}

function generatedContent(plan: DemoPlan): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (plan.reasoning) content.push({ type: 'reasoning', text: plan.reasoning });
  if (plan.textChunks.length > 0) content.push({ type: 'text', text: plan.textChunks.join('') });
  if (plan.toolCall) {
    content.push({
      type: 'tool-call',
      toolCallId: plan.toolCall.toolCallId,
      toolName: plan.toolCall.toolName,
      input: JSON.stringify(plan.toolCall.input),
    });
  }
  return content;
}

/** The agent's context window, which the run hands the demo model in its call options (its words are its tokens). */
function contextWindowOf(options: LanguageModelV3CallOptions): number | null {
  const window = options.providerOptions?.[PARLEY_PROVIDER_OPTIONS]?.contextWindowTokens;
  return typeof window === 'number' ? window : null;
}

function contextLengthError(modelId: string, stream: boolean): () => Error {
  const failure = describeDemoFailure('context_length', modelId, stream);
  if (failure.via !== 'provider') throw new Error('context_length is a provider failure');
  return failure.createError;
}

class DemoLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = DEMO_PROVIDER;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(readonly modelId: string) {}

  private prepare(options: LanguageModelV3CallOptions, stream: boolean) {
    if (options.abortSignal?.aborted) throw abortReason(options.abortSignal);
    const view = readPrompt(options.prompt);
    const availableTools = new Set((options.tools ?? []).map((tool) => tool.name));
    const window = contextWindowOf(options);
    // As a real provider does: a prompt beyond the window is refused before any output.
    const plan: DemoPlan =
      window !== null && view.wordCount > window
        ? { textChunks: [], chunkIntervalMs: 0, failure: { before: 'output', createError: contextLengthError(this.modelId, stream) } }
        : planFor(view, { modelId: this.modelId, stream, availableTools });
    return { view, plan, requestBody: requestBodyFor(this.modelId, stream) };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { view, plan, requestBody } = this.prepare(options, false);
    // A non-streaming request has no "after n chunks": it fails as a whole.
    if (plan.failure) throw plan.failure.createError();
    const signal = options.abortSignal ?? new AbortController().signal;
    await pause(plan.chunkIntervalMs * plan.textChunks.length, signal);
    return {
      content: generatedContent(plan),
      finishReason: finishReasonFor(plan),
      usage: usageFor(view, plan.textChunks.length, plan.reasoning ? 1 : 0),
      request: { body: requestBody },
      response: { id: `demo-resp-${view.userMessageCount}-${view.toolCallCount}`, modelId: this.modelId, timestamp: new Date() },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { view, plan, requestBody } = this.prepare(options, true);
    if (plan.failure?.before === 'output') throw plan.failure.createError();
    return {
      stream: toReadableStream((signal) => streamParts(plan, view, this.modelId, signal), options.abortSignal),
      request: { body: requestBody },
    };
  }
}

export function createDemoModel(modelId = 'default'): LanguageModelV3 {
  return new DemoLanguageModel(modelId);
}
