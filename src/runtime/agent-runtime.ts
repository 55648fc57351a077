import { SpanStatusCode } from '@opentelemetry/api';
import { NoOutputGeneratedError, stepCountIs, streamText, type LanguageModelUsage, type ModelMessage } from 'ai';
import { downloadPathOf, type ToolServerOutput } from '../conversation/parts.ts';
import { classify } from '../errors/classify.ts';
import { nextRetryDelayS, sleepCancellable } from '../errors/retry-policy.ts';
import { ApplicationError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import type { AgentRunInput, PendingToolCall } from './agent-run-input.ts';
import type { CallTokens, RunUsage } from './runtime-event.ts';
import { isToolOutcome, type ToolOutcome } from './tools.ts';

/** What a suspended run needs to go on: its conversation so far and the call it waits for. */
export interface Checkpoint {
  messages: ModelMessage[];
  pending: PendingToolCall;
}

/**
 * How the runtime's work ended, as a value. A provider's or a tool's failure is classified here,
 * once, where the retry decision needed it. ABORTED: the run's signal stopped it — why (a Stop, a
 * shutdown, a spent budget) is the signal's reason, which the caller reads. What the runtime throws
 * instead it never classified.
 */
export type RunOutcome = { usage: RunUsage; messages: ModelMessage[] } & (
  | { outcome: 'COMPLETED' | 'ABORTED' }
  | { outcome: 'SUSPENDED'; checkpoint: Checkpoint }
  | { outcome: 'FAILED'; failure: ClassifiedFailure }
);

/**
 * The agent loop: one model request (with its tool batch) per step, owning the retry loop so that
 * retries are announced and happen only while nothing of the attempt has reached the user.
 */
export async function runAgent(input: AgentRunInput): Promise<RunOutcome> {
  const usage: RunUsage = { inputTokens: 0, outputTokens: 0 };
  const messages = [...input.messages];
  const aborted = (): RunOutcome => ({ outcome: 'ABORTED', usage, messages });
  await input.emit({ type: 'run-started' });

  for (let step = 0; step < input.maxSteps; step++) {
    input.meter?.check();
    for (const event of (await input.gate?.beforeCall()) ?? []) await input.emit(event);
    if (input.signal.aborted) return aborted();
    const stepResult = await runStepWithRetries(input, messages, usage);
    if (stepResult === 'aborted') return aborted();
    if ('failure' in stepResult) return { outcome: 'FAILED', usage, messages, failure: stepResult.failure };
    messages.push(...stepResult.responseMessages);
    const { pending } = stepResult;
    if (pending) {
      const awaiting = pending.kind === 'APPROVAL' ? 'AWAITING_APPROVAL' : 'AWAITING_ANSWER';
      await input.emit({ type: 'tool-call', toolCallId: pending.toolCallId, toolName: pending.toolName, input: pending.input, state: awaiting, output: null });
      return { outcome: 'SUSPENDED', usage, messages, checkpoint: { messages, pending } };
    }
    if (input.signal.aborted) return aborted();
    const steering = (await input.takeSteeringMessages?.()) ?? [];
    messages.push(...steering);
    if (stepResult.finishReason !== 'tool-calls' && steering.length === 0) break;
    await input.emit({ type: 'boundary' });
  }
  return { outcome: 'COMPLETED', usage, messages };
}

async function runStepWithRetries(
  input: AgentRunInput,
  messages: ModelMessage[],
  usage: RunUsage,
): Promise<'aborted' | { failure: ClassifiedFailure } | StepResult> {
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const progress: StepProgress = { streamedToUser: false, chunks: 0 };
    try {
      return await runModelStep(input, messages, usage, progress);
    } catch (error) {
      if (input.signal.aborted) {
        // The request never reported its usage: what reached the user is counted as the meter
        // counted it, and recorded as the call's (its input unknown, so none).
        usage.outputTokens += progress.chunks;
        if (progress.chunks > 0) await input.emit({ type: 'model-call', tokens: streamedOnly(progress.chunks) });
        return 'aborted';
      }
      const failure = classify(error, { provider: input.provider });
      const delayS = progress.streamedToUser ? null : nextRetryDelayS(input.retryPolicy, attempt, failure, (Date.now() - startedAt) / 1000);
      if (delayS === null) return { failure };
      await input.emit({ type: 'retry-scheduled', attempt, delayS, reason: failure.reason });
      if (!(await waitToRetry(input, { attempt, delayS, reason: failure.reason }))) return 'aborted';
    }
  }
}

/** The backoff before the next attempt, as a span when traced; false when the run was aborted meanwhile. */
async function waitToRetry(input: AgentRunInput, retry: { attempt: number; delayS: number; reason: string }): Promise<boolean> {
  const span = input.tracer?.startSpan('parley.retry', {
    attributes: { 'parley.retry.attempt': retry.attempt, 'parley.retry.delay_s': retry.delayS, 'parley.retry.reason': retry.reason },
  });
  try {
    await sleepCancellable(retry.delayS * 1000, input.signal);
    return true;
  } catch {
    span?.setStatus({ code: SpanStatusCode.ERROR, message: 'cancelled' });
    return false;
  } finally {
    span?.end();
  }
}

interface StepResult {
  responseMessages: ModelMessage[];
  finishReason: string;
  pending: PendingToolCall | null;
}

/** What reached the user of a step's attempt: a failed attempt is retried only while nothing did. */
interface StepProgress {
  streamedToUser: boolean;
  /** Chunks streamed before the request reported its usage (each counted as one output token). */
  chunks: number;
}

/**
 * One model request and its tool batch, read as it streams: each part becomes a runtime event. It
 * throws what the request or a tool failed with (a tool's crash as an APPLICATION_ERROR of its
 * own); the agent loop classifies it and decides on a retry.
 */
async function runModelStep(input: AgentRunInput, messages: ModelMessage[], usage: RunUsage, progress: StepProgress): Promise<StepResult> {
  const labelOf = (modelName: string) => input.toolLabels?.get(modelName);
  const shownName = (modelName: string) => labelOf(modelName)?.name ?? modelName;
  const callStartedAt = new Map<string, number>();
  const stepStartedAt = performance.now();
  const durationOf = (toolCallId: string) => {
    // An approved call runs before the step's request, without a tool-call part of its own.
    const started = callStartedAt.get(toolCallId) ?? stepStartedAt;
    return Math.round(performance.now() - started);
  };
  const streamed = () => {
    progress.streamedToUser = true;
  };
  const countChunk = () => {
    progress.chunks += 1;
    input.meter?.add(1);
  };
  // The step's messages come with its finish, not from `result.response`: that promise reads a
  // second copy of the stream, which the SDK buffers from the first chunk on and then drains one
  // shift at a time (quadratic in a long reply's chunks).
  let stepMessages: ModelMessage[] | null = null;
  const result = streamText({
    model: input.model,
    system: input.system || undefined,
    messages,
    // A compacted history's summary is a system message of our own making (docs/compaction.md), not user input.
    allowSystemInMessages: true,
    tools: input.tools,
    maxRetries: 0,
    providerOptions: input.providerOptions,
    abortSignal: input.signal,
    stopWhen: stepCountIs(1),
    onStepFinish: (step) => {
      stepMessages = step.response.messages;
    },
    // Errors are read from the stream and classified by the agent loop; the SDK's default would log them.
    onError: () => {},
    // Prompts and replies are users' data: spans carry timings, models, token counts and tool names only.
    experimental_telemetry: input.tracer ? { isEnabled: true, tracer: input.tracer, recordInputs: false, recordOutputs: false } : undefined,
  });
  let finishReason = 'stop';
  let pending: PendingToolCall | null = null;
  // A call of a tool that has no `execute` (ask_user) gets no result: the user gives it.
  const unanswered = new Map<string, { toolName: string; input: unknown }>();
  for await (const part of result.fullStream) {
    // Parts the SDK had buffered before an abort (a Stop, a spent budget) never reach the user.
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted');
    switch (part.type) {
      case 'text-delta':
      case 'reasoning-delta':
        if (part.text.length === 0) break;
        streamed();
        // Most deltas are taken in synchronously: awaiting nothing would still cost a microtask turn.
        const taken = input.emit({ type: part.type, text: part.text });
        if (taken) await taken;
        countChunk();
        break;
      case 'tool-call':
        streamed();
        if (input.tools[part.toolName] && !input.tools[part.toolName]!.execute) {
          unanswered.set(part.toolCallId, { toolName: part.toolName, input: part.input });
        }
        callStartedAt.set(part.toolCallId, performance.now());
        await input.emit({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: shownName(part.toolName),
          input: part.input,
          state: 'CALLED',
          output: null,
          ...(labelOf(part.toolName) ? { safeToRepeat: labelOf(part.toolName)!.safeToRepeat } : {}),
        });
        break;
      case 'tool-approval-request': {
        const card = labelOf(part.toolCall.toolName)?.card;
        pending ??= {
          kind: 'APPROVAL',
          toolCallId: part.toolCall.toolCallId,
          toolName: shownName(part.toolCall.toolName),
          input: part.toolCall.input,
          approvalId: part.approvalId,
          ...(card ? { card: { ...card, input: part.toolCall.input } } : {}),
        };
        break;
      }
      case 'tool-output-denied':
        await input.emit({ type: 'tool-call', toolCallId: part.toolCallId, toolName: shownName(part.toolName), input: null, state: 'DENIED', output: null });
        break;
      case 'tool-result': {
        const outcome = isToolOutcome(part.output) ? part.output : null;
        await input.emit({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: shownName(part.toolName),
          input: part.input,
          state: outcome && !outcome.ok ? 'FAILED' : 'SUCCEEDED',
          output: outcome ? toolServerOutput(outcome) : (part.output ?? null),
          error: outcome?.error ?? null,
          durationMs: durationOf(part.toolCallId),
        });
        break;
      }
      case 'tool-error': {
        const message = (part.error as Error)?.message ?? String(part.error);
        await input.emit({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: shownName(part.toolName),
          input: part.input,
          state: 'FAILED',
          output: null,
          error: message,
          durationMs: durationOf(part.toolCallId),
        });
        throw part.error instanceof ApplicationError
          ? part.error
          : new ApplicationError({
              message: `Tool ${part.toolName} failed: ${message}`,
              messageKey: 'error.tool_failed',
              messageParams: { tool: part.toolName },
              cause: part.error,
            });
      }
      case 'finish-step': {
        const inputTokens = part.usage.inputTokens ?? 0;
        const outputTokens = part.usage.outputTokens ?? 0;
        usage.inputTokens += inputTokens;
        usage.outputTokens += outputTokens;
        await input.emit({ type: 'model-call', tokens: callTokensOf(part.usage) });
        // The reported usage replaces the per-chunk estimate of this request.
        input.meter?.correct(inputTokens + outputTokens - progress.chunks);
        progress.chunks = 0;
        finishReason = part.finishReason;
        break;
      }
      case 'error':
        throw part.error;
      case 'abort':
        throw input.signal.reason ?? new Error('aborted');
      default:
        break;
    }
  }
  if (!stepMessages) throw new NoOutputGeneratedError({ message: 'The model’s stream ended before its step finished.' });
  if (!pending) {
    const [toolCallId, call] = [...unanswered.entries()][0] ?? [];
    const kind = call && input.clientTools?.has(call.toolName) ? 'CLIENT_TOOL' : 'QUESTION';
    if (toolCallId && call) pending = { kind, toolCallId, ...call, approvalId: null };
  }
  return { responseMessages: stepMessages, finishReason, pending };
}

/** What a step's usage says of each kind of token; a kind the provider did not report is 0. */
function callTokensOf(usage: LanguageModelUsage): CallTokens {
  return {
    inputTokens: usage.inputTokens ?? 0,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens ?? 0,
  };
}

/** A tool server's answer as the part keeps it: its text, and the files it returned that were kept. */
function toolServerOutput(outcome: ToolOutcome): ToolServerOutput | null {
  if (!outcome.ok) return null;
  const attachments = outcome.attachments.map((file) => ({ ...file, downloadPath: downloadPathOf(file.attachmentId) }));
  return { text: outcome.text, truncated: outcome.truncated, ...(attachments.length > 0 ? { attachments } : {}) };
}

/** The tokens of a request stopped before its provider reported them: one output token per streamed chunk. */
function streamedOnly(chunks: number): CallTokens {
  return { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: chunks, reasoningTokens: 0 };
}
