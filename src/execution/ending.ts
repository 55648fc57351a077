import { DATABASE_RETRY_AFTER_S, isDatabaseOutage } from '../db/outage.ts';
import { classify } from '../errors/classify.ts';
import { recordedFailure } from '../errors/recorded-failure.ts';
import { ApplicationError, ReasonedError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import type { Locale } from '../i18n/catalog.ts';
import { NO_USAGE, type RunEnding } from '../recording/run-ending.ts';
import type { RunOutcome } from '../runtime/agent-runtime.ts';
import type { RunUsage } from '../runtime/runtime-event.ts';
import { SpendLimitReached } from '../runtime/spend-gate.ts';
import { LeaseLost, ServerShutdown, TokenBudgetSpent } from './running-executions.ts';
import { tokenBudgetSpentError } from './token-budget.ts';

/** Where the run's work stopped: the runtime returned, threw, or never started (aborted during admission). */
export type RunStop = { returned: RunOutcome } | { threw: unknown } | { notStarted: true };

/** The run's own facts the ending depends on. */
export interface EndingContext {
  /** The run's signal: when aborted, its reason says why the run ended, whatever the runtime did. */
  signal: AbortSignal;
  /** A delegated child cannot wait for the user, and a spent budget is the root run's one error. */
  root: boolean;
  /** The run's user's language, for the failure's copy. */
  locale: Locale;
}

/**
 * The one place that decides how a run ended: what stopped it, read with why its signal was aborted,
 * becomes its status, usage and one failure (classified here if the runtime did not, and localized).
 */
export function endingOf(stop: RunStop, { signal, root, locale }: EndingContext): RunEnding {
  const usage = 'returned' in stop ? stop.returned.usage : NO_USAGE;
  if (signal.aborted) return abortedEnding(signal.reason, usage, root, locale);
  if ('threw' in stop) return failed(failureOfThrown(stop.threw), usage, locale);
  if ('notStarted' in stop) return failed(failureOfThrown(new Error('the run did not start')), usage, locale);
  const outcome = stop.returned;
  switch (outcome.outcome) {
    case 'COMPLETED':
      return ended('COMPLETED', usage);
    case 'FAILED':
      return failed(outcome.failure, usage, locale);
    case 'SUSPENDED':
      return root ? { status: 'SUSPENDED', usage, failure: null, checkpoint: outcome.checkpoint } : ended('CANCELLED', usage);
    case 'ABORTED':
      // Only an aborted signal aborts the runtime; read without one, it is a Stop.
      return ended('CANCELLED', usage);
  }
}

/**
 * The run's instance died, shut down or lost its lease: recorded like a failure (retryable,
 * `error.interrupted`), with status INTERRUPTED. `detail` says what happened, for logs and a
 * details view.
 */
export function interruption(detail: string, locale: Locale, usage: RunUsage = NO_USAGE): RunEnding {
  const error = new ReasonedError({ reason: 'APPLICATION_ERROR', retryable: true, message: detail, messageKey: 'error.interrupted' });
  return { status: 'INTERRUPTED', usage, failure: recordedFailure(classify(error), locale), checkpoint: null };
}

/**
 * An end held in memory through a database outage: past this instance's lease another instance
 * may have interrupted the run (the settlement then writes nothing), so from then on it is
 * recorded as interrupted too.
 */
export function endingAfterOutage(ending: RunEnding, leaseHeld: boolean, locale: Locale): RunEnding {
  if (leaseHeld || ending.status === 'INTERRUPTED') return ending;
  return interruption('the database was out of reach for longer than the instance lease', locale, ending.usage);
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
function abortedEnding(reason: unknown, usage: RunUsage, root: boolean, locale: Locale): RunEnding {
  if (reason instanceof ServerShutdown) return interruption('the server shut down while running this execution', locale, usage);
  if (reason instanceof LeaseLost) return interruption(reason.message, locale, usage);
  if (reason instanceof SpendLimitReached) {
    const failure = root ? recordedFailure(classify(reason.failure), locale) : null;
    return { status: 'REFUSED', usage, failure, checkpoint: null };
  }
  if (reason instanceof TokenBudgetSpent) {
    const failure = root ? recordedFailure(classify(tokenBudgetSpentError(reason.budget)), locale) : null;
    return { status: 'REFUSED', usage, failure, checkpoint: null };
  }
  return ended('CANCELLED', usage);
}

function ended(status: 'COMPLETED' | 'CANCELLED', usage: RunUsage): RunEnding {
  return { status, usage, failure: null, checkpoint: null };
}

function failed(failure: ClassifiedFailure, usage: RunUsage, locale: Locale): RunEnding {
  return { status: 'FAILED', usage, failure: recordedFailure(failure, locale), checkpoint: null };
}
