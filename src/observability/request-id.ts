import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a client may send as its own id: short, printable, nothing a log or header could be confused by. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's id when it sent a usable one, else a new one. */
export function requestIdFrom(given: unknown): string {
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

const scope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `work` (and everything it starts) as part of a request: its log lines carry the id. */
export function inRequestScope<T>(requestId: string, work: () => T): T {
  return scope.run({ requestId }, work);
}

/** Work that outlives the request that happened to start it (a run kicked by sendMessage) is not part of it. */
export function outsideRequestScope<T>(work: () => T): T {
  return scope.exit(work);
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** A pino mixin: every line logged inside a request gets its `requestId`. */
export function requestIdMixin(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId ? { requestId } : {};
}
