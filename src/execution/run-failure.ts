import { classify } from '../errors/classify.ts';
import type { ClassifiedFailure } from '../errors/taxonomy.ts';
import type { RecordedFailure } from '../events/run-event.ts';
import { localizeFailure, type Locale } from '../i18n/catalog.ts';
import { AgentRunFailure } from '../runtime/agent-runtime.ts';

/** Turns whatever a run threw into the one failure record that every listener stores and shows. */
export function recordedFailureOf(error: unknown, locale: Locale, provider?: string): RecordedFailure {
  const classified: ClassifiedFailure =
    error instanceof AgentRunFailure ? error.failure : classify(error, provider ? { provider } : undefined);
  return withLocalizedMessage(classified, locale);
}

export function withLocalizedMessage(classified: ClassifiedFailure, locale: Locale): RecordedFailure {
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
  };
}
