import { DATABASE_RETRY_AFTER_S, isDatabaseOutage } from '../db/outage.ts';
import { classify } from '../errors/classify.ts';
import { ApplicationError, ReasonedError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import { interruption, NO_USAGE, type BeforeSettle, type RunEnding } from '../recording/run-recording.ts';
import type { AgentRunResult, PendingToolCall } from '../runtime/agent-runtime.ts';
import type { RunUsage } from '../runtime/runtime-event.ts';
import { LeaseLost, ServerShutdown, TokenBudgetSpent } from './running-executions.ts';
import { tokenBudgetSpentError } from './token-budget.ts';

/**
 * How a run that the runtime returned from ends. A suspension is the root run's only (a child
 * cannot wait for the user); its card is opened by `suspend`, inside the settlement.
 */
export function endingOf(result: AgentRunResult, signal: AbortSignal, root: boolean, suspend: (pending: PendingToolCall) => BeforeSettle): RunEnding {
  if (signal.aborted) return abortedEnding(signal, result.usage, root);
  switch (result.outcome) {
    case 'FAILED':
      return { outcome: 'FAILED', usage: result.usage, failure: result.failure };
    case 'SUSPENDED':
      return root ? { outcome: 'SUSPENDED', usage: result.usage, beforeSettle: suspend(result.pending) } : { outcome: 'CANCELLED', usage: result.usage };
    default:
      return { outcome: result.outcome, usage: result.usage };
  }
}

/** A run that threw instead of returning (a backend refusing it, a loop that throws, an outage): classified here, once. */
export function endingOfThrown(error: unknown, signal: AbortSignal, root: boolean): RunEnding {
  if (signal.aborted) return abortedEnding(signal, NO_USAGE, root);
  return { outcome: 'FAILED', usage: NO_USAGE, failure: failureOfThrown(error) };
}

/**
 * An error that carries its own reason keeps it; the database out of reach is the server's own
 * outage (the same turn can succeed once it is back); anything else is an APPLICATION_ERROR.
 */
export function failureOfThrown(error: unknown): ClassifiedFailure {
  if (error instanceof ReasonedError) return classify(error);
  const message = error instanceof Error ? error.message : String(error);
  if (isDatabaseOutage(error)) {
    return classify(
      new ReasonedError({
        reason: 'APPLICATION_ERROR',
        retryable: true,
        retryAfterS: DATABASE_RETRY_AFTER_S,
        message,
        messageKey: 'error.service_unavailable',
        messageParams: { retryAfterS: DATABASE_RETRY_AFTER_S },
        cause: error,
      }),
    );
  }
  return classify(new ApplicationError({ message, messageKey: 'error.application_error', cause: error }));
}

/**
 * A Stop cancels; a server shutdown or a lost lease hands the run back as interrupted, with its
 * error; a spent budget refuses the rest of the run, with the limit as the one error of the turn
 * (on the root run, not again on a delegated child).
 */
export function abortedEnding(signal: AbortSignal, usage: RunUsage, root: boolean): RunEnding {
  const reason: unknown = signal.reason;
  if (reason instanceof ServerShutdown) return interruption('the server shut down while running this execution');
  if (reason instanceof LeaseLost) return interruption(reason.message);
  if (reason instanceof TokenBudgetSpent) {
    return { outcome: 'REFUSED', usage, failure: root ? classify(tokenBudgetSpentError(reason.budget)) : null };
  }
  return { outcome: 'CANCELLED', usage };
}
