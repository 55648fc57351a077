import { ERROR_REASONS } from '../errors/taxonomy.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import { builder, type BuilderTypes } from './builder.ts';

export const ErrorReasonEnum = builder.enumType('ErrorReason', { values: ERROR_REASONS });

/** The full failure taxonomy (docs/errors.md), identical on ErrorPart, Execution.error and ErrorEvent. */
export function failureFields<Parent>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Parent>,
  failureOf: (parent: Parent) => RecordedFailure,
) {
  return {
    reason: t.field({ type: ErrorReasonEnum, resolve: (parent) => failureOf(parent).reason }),
    retryable: t.boolean({ resolve: (parent) => failureOf(parent).retryable }),
    retryAfterS: t.float({ nullable: true, resolve: (parent) => failureOf(parent).retryAfterS }),
    message: t.string({
      description: 'Localized copy in the language of the run’s user.',
      resolve: (parent) => failureOf(parent).message,
    }),
    messageKey: t.string({
      description: 'Catalog key of `message`, to re-localize.',
      resolve: (parent) => failureOf(parent).messageKey,
    }),
    params: t.field({ type: 'JSON', resolve: (parent) => failureOf(parent).params }),
    occurredAt: t.field({
      type: 'DateTime',
      description: 'When the failure happened: a countdown resumes at occurredAt + retryAfterS after a reload.',
      resolve: (parent) => failureOf(parent).occurredAt,
    }),
    provider: t.string({ nullable: true, resolve: (parent) => failureOf(parent).provider }),
    httpStatus: t.int({ nullable: true, resolve: (parent) => failureOf(parent).httpStatus }),
    providerCode: t.string({ nullable: true, resolve: (parent) => failureOf(parent).providerCode }),
    requestId: t.string({ nullable: true, resolve: (parent) => failureOf(parent).requestId }),
    detail: t.string({
      description: 'The provider’s own technical message (for a details view, not the headline).',
      resolve: (parent) => failureOf(parent).detail,
    }),
  };
}

export const ExecutionErrorRef = builder.objectRef<RecordedFailure>('ExecutionError').implement({
  fields: (t) => failureFields(t, (failure) => failure),
});
