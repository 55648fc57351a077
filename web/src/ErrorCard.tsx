import type { FailureFields } from '@parley/client';
import { useSecondsUntil } from './hooks.ts';
import { ERROR_AFFORDANCE, useMessages } from './i18n.ts';
import { SummariseAndRetryButton, type SummariseAndRetryAction } from './SummariseAndRetry.tsx';

/** What the thread's current failure lets the user do. */
export interface ErrorActions {
  retry: () => void;
  newChat?: () => void;
  /** On a CONTEXT_LENGTH failure: compact the thread, then retry the turn. */
  summariseAndRetry?: SummariseAndRetryAction;
  /** The session's `error.retryAt`: `occurredAt + retryAfterS`, the same after a reload. */
  retryAt: number | null;
}

/**
 * A failed reply, in the user's language, with what the user can do about it. `actions` is given
 * only for the thread's current failure: an old failure further up is history, not a button.
 */
export function ErrorCard({ failure, actions }: { failure: FailureFields; actions?: ErrorActions }) {
  const t = useMessages();
  // A refusal by the server's own limits (a budget, a concurrency cap) is not the provider's: the
  // server's message, in the user's language, says which limit and when it resets.
  const refusal = failure.messageKey?.startsWith('refusal.') ?? false;
  const budget = refusal && /^refusal\.(spend|budget)/.test(failure.messageKey ?? '');
  const copy = refusal ? { title: budget ? t.budgetUsedUp : t.errors[failure.reason].title, advice: failure.message } : t.errors[failure.reason];
  const affordance = ERROR_AFFORDANCE[failure.reason];
  const secondsLeft = useSecondsUntil(affordance === 'countdown' ? (actions?.retryAt ?? null) : null);
  const details: [string, string | number | null | undefined][] = [
    [t.serverMessage, failure.message],
    [t.provider, failure.provider],
    [t.httpStatus, failure.httpStatus],
    [t.providerCode, failure.providerCode],
    [t.requestId, failure.requestId],
    ['detail', failure.detail],
  ];
  return (
    <div className="error-card" role={actions ? 'alert' : undefined} data-reason={failure.reason}>
      <strong>{copy.title}</strong>
      <p>{copy.advice}</p>
      {actions && affordance === 'countdown' &&
        (secondsLeft > 0 ? (
          <p className="countdown" aria-live="off">
            {t.retryIn(secondsLeft)}
          </p>
        ) : (
          <button type="button" onClick={actions.retry}>
            {t.retry}
          </button>
        ))}
      {actions && affordance === 'retry' && (
        <button type="button" onClick={actions.retry}>
          {t.retry}
        </button>
      )}
      {actions?.summariseAndRetry && failure.reason === 'CONTEXT_LENGTH' && <SummariseAndRetryButton action={actions.summariseAndRetry} />}
      {actions?.newChat && affordance === 'newChat' && (
        <button type="button" onClick={actions.newChat}>
          {t.newChat}
        </button>
      )}
      <details className="error-details">
        <summary>{t.details}</summary>
        <dl>
          {details
            .filter(([, value]) => value !== null && value !== undefined && value !== '')
            .map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
        </dl>
      </details>
    </div>
  );
}
