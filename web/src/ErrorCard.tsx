import type { MessagePart } from '@parley/client';
import { useSecondsUntil } from './hooks.ts';
import { ERROR_AFFORDANCE, type Messages } from './i18n.ts';

export type Failure = Omit<Extract<MessagePart, { __typename: 'ErrorPart' }>, '__typename'>;

export interface ErrorActions {
  retry: () => void;
  newChat?: () => void;
}

/** When a RATE_LIMIT failure may be retried: `occurredAt + retryAfterS`, the same after a reload. */
function retryAtOf(failure: Failure): number | null {
  return failure.retryAfterS == null ? null : Date.parse(failure.occurredAt) + failure.retryAfterS * 1000;
}

/**
 * A failed reply, in the user's language, with what the user can do about it. `actions` is given
 * only for the thread's current failure: an old failure further up is history, not a button.
 */
export function ErrorCard({ failure, t, actions }: { failure: Failure; t: Messages; actions?: ErrorActions }) {
  const copy = t.errors[failure.reason];
  const affordance = ERROR_AFFORDANCE[failure.reason];
  const secondsLeft = useSecondsUntil(affordance === 'countdown' ? retryAtOf(failure) : null);
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
