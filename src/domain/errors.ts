/** Expected failures of domain operations. GraphQL maps each to a typed error or an `extensions.code`. */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'LIMIT_EXCEEDED'
  | 'SERVICE_UNAVAILABLE';

export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Authentication required: send "Authorization: Bearer <token>".') {
    super(message, 'UNAUTHENTICATED');
  }
}

export class NotFoundError extends DomainError {
  constructor(readonly entity: string, id?: string) {
    super(id ? `${entity} ${id} was not found.` : `${entity} was not found.`, 'NOT_FOUND');
  }
}

export class ForbiddenError extends DomainError {
  constructor(
    readonly scope: string,
    message = `This needs the ${scope} permission, which your role in this project does not grant.`,
  ) {
    super(message, 'FORBIDDEN');
  }
}

export class InvalidInputError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`, 'BAD_USER_INPUT');
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super(message, 'CONFLICT');
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterS: number) {
    super(`Too many requests; try again in ${retryAfterS}s.`, 'RATE_LIMITED');
  }
}

/**
 * A bound on stored data was reached (queued messages of a thread, threads or attachment bytes of
 * a user): nothing was stored. `setting` names the server setting that sets `limit`.
 */
export class LimitExceededError extends DomainError {
  constructor(
    readonly setting: string,
    readonly limit: number,
    what: string,
  ) {
    super(`${what}; the limit is ${limit} (${setting}).`, 'LIMIT_EXCEEDED');
  }
}

/**
 * A service Parley depends on is out of reach for now (e.g. Redis for live delivery): nothing was
 * lost, and the same request is expected to work after `retryAfterS`.
 */
export class ServiceUnavailableError extends DomainError {
  constructor(
    readonly service: string,
    readonly retryAfterS: number,
  ) {
    super(`The ${service} is unavailable for now; try again in ${retryAfterS}s.`, 'SERVICE_UNAVAILABLE');
  }
}

/** The 409 of a reorder: the pending order is not the one the client saw. */
export class QueueChangedError extends ConflictError {
  constructor(
    readonly currentQueueIds: string[],
    message = 'The queue changed since you read it; refresh it and try again.',
  ) {
    super(message);
  }
}
