import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  LimitExceededError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../domain/errors.ts';
import { builder, type BuilderTypes } from './builder.ts';

/** Every typed error member of a mutation result implements this. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code', { description: 'Also the `extensions.code` this error has as a GraphQL error.' }),
  }),
});

/** A typed error member: the domain error class, exposed with the fields it adds to `Error`. */
function errorType<T extends DomainError>(
  errorClass: new (...args: never[]) => T,
  description: string,
  fields?: (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>) => Record<string, unknown>,
) {
  builder.objectType(errorClass, {
    name: errorClass.name,
    description,
    // Pothos cannot check a generic class against the interface's shape; every T is a DomainError.
    interfaces: [ErrorInterface] as never,
    isTypeOf: (value) => value instanceof errorClass,
    fields: fields as never,
  });
}

errorType(NotFoundError, 'The thing does not exist, or is not visible to you (another user’s TEST thread).');
errorType(ForbiddenError, 'Your role in the project lacks the scope this needs.', (t) => ({ scope: t.exposeString('scope') }));
errorType(InvalidInputError, 'An argument was rejected; nothing was changed.', (t) => ({ field: t.exposeString('field') }));
errorType(ConflictError, 'The state changed under you (e.g. the item already started); refresh and retry.');
errorType(RateLimitedError, 'Too many mutations; wait retryAfterS seconds.', (t) => ({
  retryAfterS: t.exposeInt('retryAfterS'),
}));

errorType(
  LimitExceededError,
  'A bound on stored data was reached (see setting); nothing was stored. Free some (remove queued messages, wait for the queue to run) or ask the operator to raise the setting.',
  (t) => ({
    setting: t.exposeString('setting', { description: 'The server setting that sets the limit, e.g. PARLEY_MAX_QUEUED_PER_THREAD.' }),
    limit: t.exposeFloat('limit', { description: 'The limit (a whole number; a Float because byte limits pass 2^31).' }),
  }),
);

errorType(
  ServiceUnavailableError,
  'A service Parley depends on (the database) is unreachable, restarting or saturated; nothing was done. Send the same request again (same idempotency key) after retryAfterS seconds.',
  (t) => ({ retryAfterS: t.exposeInt('retryAfterS'), service: t.exposeString('service') }),
);

/** The errors any mutation can answer with; specific ones add their own. */
export const COMMON_MUTATION_ERRORS = [NotFoundError, ForbiddenError, InvalidInputError, RateLimitedError, ServiceUnavailableError];
