import { classify } from '../errors/classify.ts';
import { ApplicationError, ReasonedError, type ClassifiedFailure } from '../errors/taxonomy.ts';
import type { RecordedFailure } from '../events/run-event.ts';
import { localizeFailure, type Locale } from '../i18n/catalog.ts';
import { AgentRunFailure } from '../runtime/agent-runtime.ts';

/**
 * Turns whatever ended a run into the one failure record every listener stores and shows. Provider
 * failures were classified at the agent boundary (AgentRunFailure); an error that carries its own
 * reason keeps it; anything else (a backend that refuses the run, an agent loop that throws) is an
 * APPLICATION_ERROR.
 */
export function recordedFailureOf(error: unknown, locale: Locale): RecordedFailure {
  let classified: ClassifiedFailure;
  if (error instanceof AgentRunFailure) classified = error.failure;
  else if (error instanceof ReasonedError) classified = classify(error);
  else {
    classified = classify(
      new ApplicationError({
        message: error instanceof Error ? error.message : String(error),
        messageKey: 'error.application_error',
        cause: error,
      }),
    );
  }
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
