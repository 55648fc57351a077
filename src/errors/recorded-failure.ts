import { providerDisplayName, translate, type Locale, type MessageKey, type MessageParams } from '../i18n/catalog.ts';
import type { ClassifiedFailure } from './taxonomy.ts';

/** The failure taxonomy as persisted on an ErrorPart, `Execution.error` and an ErrorEvent. */
export interface RecordedFailure extends Omit<ClassifiedFailure, 'messageKey' | 'messageParams'> {
  /** Localized, in the language of the run's user. */
  message: string;
  messageKey: string;
  params: Record<string, string | number | null>;
  /** When it happened (ISO 8601): a client resumes a `retryAfterS` countdown from here after a reload. */
  occurredAt: string;
}

/**
 * The one failure record every listener stores and shows, in the language of the run's user, for
 * a failure classified where it happened (the agent runtime for a provider's, the launcher for
 * anything else that ended the run).
 */
export function recordedFailure(classified: ClassifiedFailure, locale: Locale): RecordedFailure {
  const { messageKey, messageParams, message } = localizeFailure(classified, locale);
  return {
    reason: classified.reason,
    retryable: classified.retryable,
    retryAfterS: classified.retryAfterS,
    provider: classified.provider,
    httpStatus: classified.httpStatus,
    providerCode: classified.providerCode,
    requestId: classified.requestId,
    detail: classified.detail,
    message,
    messageKey,
    params: messageParams,
    occurredAt: new Date().toISOString(),
  };
}

export interface LocalizedFailure {
  messageKey: MessageKey;
  messageParams: MessageParams;
  message: string;
}

/**
 * The user-facing copy of a failure: its own messageKey when it names one (an
 * ApplicationError), otherwise the actionable copy for its reason. The key and params
 * are returned too so that a stored ErrorPart can be re-rendered in another language.
 */
export function localizeFailure(failure: ClassifiedFailure, locale: Locale): LocalizedFailure {
  const { messageKey, messageParams } = failureMessageKey(failure);
  return { messageKey, messageParams, message: translate(locale, messageKey, messageParams) };
}

function failureMessageKey(failure: ClassifiedFailure): { messageKey: MessageKey; messageParams: MessageParams } {
  if (failure.messageKey !== undefined) {
    return { messageKey: failure.messageKey, messageParams: failure.messageParams ?? {} };
  }
  const provider = failure.provider === null ? null : providerDisplayName(failure.provider);
  switch (failure.reason) {
    case 'TRANSPORT':
      return { messageKey: 'error.transport', messageParams: {} };
    case 'RATE_LIMIT':
      // Whole seconds: "retry in 0.02s" reads like a bug, and the wait is an estimate anyway.
      return failure.retryAfterS === null
        ? { messageKey: 'error.rate_limit.no_delay', messageParams: {} }
        : { messageKey: 'error.rate_limit', messageParams: { retryAfterS: Math.ceil(failure.retryAfterS) } };
    case 'QUOTA_EXCEEDED':
      return provider === null
        ? { messageKey: 'error.quota_exceeded.unknown_provider', messageParams: {} }
        : { messageKey: 'error.quota_exceeded', messageParams: { provider } };
    case 'AUTHENTICATION':
      return provider === null
        ? { messageKey: 'error.authentication.unknown_provider', messageParams: {} }
        : { messageKey: 'error.authentication', messageParams: { provider } };
    case 'AUTHORIZATION':
      return provider === null
        ? { messageKey: 'error.authorization.unknown_provider', messageParams: {} }
        : { messageKey: 'error.authorization', messageParams: { provider } };
    case 'CONTEXT_LENGTH':
      return { messageKey: 'error.context_length', messageParams: {} };
    case 'CONTENT_POLICY':
      return { messageKey: 'error.content_policy', messageParams: {} };
    case 'INVALID_REQUEST':
      return { messageKey: 'error.invalid_request', messageParams: {} };
    case 'PROVIDER_INTERNAL':
      return { messageKey: 'error.provider_internal', messageParams: {} };
    case 'UNKNOWN':
      return { messageKey: 'error.unknown', messageParams: {} };
    case 'APPLICATION_ERROR':
      return { messageKey: 'error.application_error', messageParams: {} };
  }
}
