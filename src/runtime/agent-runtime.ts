import { SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { NoOutputGeneratedError, stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { downloadPathOf, type ToolServerOutput } from '../conversation/parts.ts';
import { classify } from '../errors/classify.ts';
import { nextRetryDelayS, sleepCancellable, type RetryPolicy } from '../errors/retry-policy.ts';
import { ApplicationError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import type { RunUsage, RuntimeEvent } from './runtime-event.ts';
import type { TokenMeter } from './token-meter.ts';
import { isToolOutcome, type ToolLabel, type ToolOutcome } from './tools.ts';

export interface AgentRunInput {
  model: LanguageModel;
  provider: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  retryPolicy: RetryPolicy;
  maxSteps: number;
  emit(event: RuntimeEvent): Promise<void>;
  /** Called at each boundary; returns user messages to continue with (steering). */
  takeSteeringMessages?(): Promise<ModelMessage[]>;
  /** Counts the run's tokens as they stream (a budget aborts `signal` through it). */
  meter?: TokenMeter;
  /** Tools the model knows under another name (a tool server's): the name people see, and whether a crash may repeat them. */
  toolLabels?: ReadonlyMap<string, ToolLabel>;
  /** With a tracer, each model request and tool call is a span (the AI SDK's), and so is each retry's wait. */
  tracer?: Tracer;
}

/** A tool call the run cannot go on without: an approval, or the user's answer to a question. */
export interface PendingToolCall {
  kind: 'APPROVAL' | 'QUESTION';
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The AI SDK's approval id (APPROVAL only). */
  approvalId: string | null;
  /** What an approval card shows of a tool-server tool: its server, its name and description, the input. */
  card?: Record<string, unknown>;
}

interface RunResultBase {
  usage: RunUsage;
  /** The conversation as the model saw it, responses included: a suspended run's checkpoint. */
  messages: ModelMessage[];
}

/**
 * How a run ended, as a value: a provider's failure is classified here, once, where it happened
 * (a Stop that cancelled it is read from the signal's reason by the caller).
 */
export type AgentRunResult = RunResultBase &
  (
    | { outcome: 'COMPLETED' | 'CANCELLED'; pending: null }
    | { outcome: 'SUSPENDED'; pending: PendingToolCall }
    | { outcome: 'FAILED'; pending: null; failure: ClassifiedFailure }
  );

class ToolCrash extends Error {}

/**
 * The agent loop: one model request (with its tool batch) per step, owning the retry loop so that
 * retries are announced and happen only while nothing of the attempt has reached the user.
 */
export async function runAgent(input: AgentRunInput): Promise<AgentRunResult> {
  const usage: RunUsage = { inputTokens: 0, outputTokens: 0 };
  const messages = [...input.messages];
  await input.emit({ type: 'run-started' });

  for (let step = 0; step < input.maxSteps; step++) {
    input.meter?.check();
    if (input.signal.aborted) return { outcome: 'CANCELLED', usage, messages, pending: null };
    const stepResult = await runStepWithRetries(input, messages, usage);
    if (stepResult === 'cancelled') return { outcome: 'CANCELLED', usage, messages, pending: null };
    if ('failure' in stepResult) return { outcome: 'FAILED', usage, messages, pending: null, failure: stepResult.failure };
    messages.push(...stepResult.responseMessages);
    if (stepResult.pending) {
      const awaiting = stepResult.pending.kind === 'APPROVAL' ? 'AWAITING_APPROVAL' : 'AWAITING_ANSWER';
      await input.emit({ type: 'tool-call', ...pick(stepResult.pending), state: awaiting, output: null });
      return { outcome: 'SUSPENDED', usage, messages, pending: stepResult.pending };
    }
    if (input.signal.aborted) return { outcome: 'CANCELLED', usage, messages, pending: null };
    const steering = (await input.takeSteeringMessages?.()) ?? [];
    messages.push(...steering);
    if (stepResult.finishReason !== 'tool-calls' && steering.length === 0) break;
    await input.emit({ type: 'boundary' });
  }
  return { outcome: 'COMPLETED', usage, messages, pending: null };
}

function pick(pending: PendingToolCall) {
  return { toolCallId: pending.toolCallId, toolName: pending.toolName, input: pending.input };
}

async function runStepWithRetries(
  input: AgentRunInput,
  messages: ModelMessage[],
  usage: RunUsage,
): Promise<'cancelled' | { failure: ClassifiedFailure } | StepResult> {
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    let streamedToUser = false;
    const streamed = { chunks: 0 };
    try {
      const result = await runStep(input, messages, usage, streamed, () => {
        streamedToUser = true;
      });
      return result;
    } catch (error) {
      if (input.signal.aborted) {
        // The request never reported its usage: what reached the user is counted as the meter counted it.
        usage.outputTokens += streamed.chunks;
        return 'cancelled';
      }
      const failure = error instanceof ToolCrash ? classify(error.cause) : classify(error, { provider: input.provider });
      const delayS = streamedToUser
        ? null
        : nextRetryDelayS(input.retryPolicy, attempt, failure, (Date.now() - startedAt) / 1000);
      if (delayS === null) return { failure };
      await input.emit({ type: 'retry-scheduled', attempt, delayS, reason: failure.reason });
      if (!(await waitToRetry(input, { attempt, delayS, reason: failure.reason }))) return 'cancelled';
    }
  }
}

/** The backoff before the next attempt, as a span when traced; false when the run was cancelled meanwhile. */
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

async function runStep(
  input: AgentRunInput,
  messages: ModelMessage[],
  usage: RunUsage,
  streamed: { chunks: number },
  markStreamed: () => void,
): Promise<StepResult> {
  const labelOf = (modelName: string) => input.toolLabels?.get(modelName);
  const shownName = (modelName: string) => labelOf(modelName)?.name ?? modelName;
  const callStartedAt = new Map<string, number>();
  const stepStartedAt = performance.now();
  const durationOf = (toolCallId: string) => {
    // An approved call runs before the step's request, without a tool-call part of its own.
    const started = callStartedAt.get(toolCallId) ?? stepStartedAt;
    return Math.round(performance.now() - started);
  };
  const countChunk = () => {
    streamed.chunks += 1;
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
    tools: input.tools,
    maxRetries: 0,
    abortSignal: input.signal,
    stopWhen: stepCountIs(1),
    onStepFinish: (step) => {
      stepMessages = step.response.messages;
    },
    // Errors are read from the stream and classified below; the SDK's default would log them.
    onError: () => {},
    // Prompts and replies are users' data: spans carry timings, models, token counts and tool names only.
    experimental_telemetry: input.tracer
      ? { isEnabled: true, tracer: input.tracer, recordInputs: false, recordOutputs: false }
      : undefined,
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
        if (part.text.length === 0) break;
        markStreamed();
        await input.emit({ type: 'text-delta', text: part.text });
        countChunk();
        break;
      case 'reasoning-delta':
        if (part.text.length === 0) break;
        markStreamed();
        await input.emit({ type: 'reasoning-delta', text: part.text });
        countChunk();
        break;
      case 'tool-call':
        markStreamed();
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
      case 'tool-approval-request':
        pending ??= {
          kind: 'APPROVAL',
          toolCallId: part.toolCall.toolCallId,
          toolName: shownName(part.toolCall.toolName),
          input: part.toolCall.input,
          approvalId: part.approvalId,
          ...(labelOf(part.toolCall.toolName)?.card ? { card: { ...labelOf(part.toolCall.toolName)!.card, input: part.toolCall.input } } : {}),
        };
        break;
      case 'tool-output-denied':
        await input.emit({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: shownName(part.toolName),
          input: null,
          state: 'DENIED',
          output: null,
        });
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
        await input.emit({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: shownName(part.toolName),
          input: part.input,
          state: 'FAILED',
          output: null,
          error: (part.error as Error)?.message ?? String(part.error),
          durationMs: durationOf(part.toolCallId),
        });
        const reasoned =
          part.error instanceof ApplicationError
            ? part.error
            : new ApplicationError({
                message: `Tool ${part.toolName} failed: ${(part.error as Error)?.message ?? String(part.error)}`,
                messageKey: 'error.tool_failed',
                messageParams: { tool: part.toolName },
                cause: part.error,
              });
        throw new ToolCrash(reasoned.message, { cause: reasoned });
      }
      case 'finish-step': {
        const inputTokens = part.usage.inputTokens ?? 0;
        const outputTokens = part.usage.outputTokens ?? 0;
        usage.inputTokens += inputTokens;
        usage.outputTokens += outputTokens;
        // The reported usage replaces the per-chunk estimate of this request.
        input.meter?.correct(inputTokens + outputTokens - streamed.chunks);
        streamed.chunks = 0;
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
    if (toolCallId && call) pending = { kind: 'QUESTION', toolCallId, ...call, approvalId: null };
  }
  return { responseMessages: stepMessages, finishReason, pending };
}

/** A tool server's answer as the part keeps it: its text, and the files it returned that were kept. */
function toolServerOutput(outcome: ToolOutcome): ToolServerOutput | null {
  if (!outcome.ok) return null;
  const attachments = outcome.attachments.map((file) => ({ ...file, downloadPath: downloadPathOf(file.attachmentId) }));
  return { text: outcome.text, truncated: outcome.truncated, ...(attachments.length > 0 ? { attachments } : {}) };
}
