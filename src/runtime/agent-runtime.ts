import { SpanStatusCode } from '@opentelemetry/api';
import type { ModelMessage } from 'ai';
import { classify } from '../errors/classify.ts';
import { nextRetryDelayS, sleepCancellable } from '../errors/retry-policy.ts';
import type { ClassifiedFailure } from '../errors/taxonomy.ts';
import { runModelStep, type StepProgress, type StepResult } from './model-step.ts';
import type { AgentRunInput, PendingToolCall } from './agent-run-input.ts';
import type { RunUsage } from './runtime-event.ts';

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
        // The request never reported its usage: what reached the user is counted as the meter counted it.
        usage.outputTokens += progress.chunks;
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
