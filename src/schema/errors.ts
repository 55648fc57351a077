import {
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
} from '../domain/errors.ts';
import { builder } from './builder.ts';

/** Every typed error member of a mutation result implements this. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code', { description: 'Also the `extensions.code` this error has as a GraphQL error.' }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The thing does not exist, or is not visible to you (another user’s TEST thread).',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof NotFoundError,
});

builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  description: 'Your role in the project lacks the scope this needs.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ForbiddenError,
  fields: (t) => ({ scope: t.exposeString('scope') }),
});

builder.objectType(InvalidInputError, {
  name: 'InvalidInputError',
  description: 'An argument was rejected; nothing was changed.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof InvalidInputError,
  fields: (t) => ({ field: t.exposeString('field') }),
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description: 'The state changed under you (e.g. the item already started); refresh and retry.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ConflictError,
});

builder.objectType(RateLimitedError, {
  name: 'RateLimitedError',
  description: 'Too many mutations; wait retryAfterS seconds.',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof RateLimitedError,
  fields: (t) => ({ retryAfterS: t.exposeInt('retryAfterS') }),
});

/** The errors any mutation can answer with; specific ones add their own. */
export const COMMON_MUTATION_ERRORS = [NotFoundError, ForbiddenError, InvalidInputError, RateLimitedError];
