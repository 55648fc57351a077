import type { Logger } from 'pino';
import type { User } from '../generated/prisma/client.ts';
import { UnauthenticatedError } from '../domain/errors.ts';
import type { EventBacklog } from '../events/event-backlog.ts';
import type { Parley } from '../parley.ts';

export interface GraphQLContext {
  parley: Parley;
  viewer: User | null;
  /** The connection's bound on events waiting for a slow reader (one per WebSocket, one per SSE request). */
  eventBacklog: EventBacklog;
  /** The HTTP request's id, or the WebSocket operation's: in its errors, log lines and spans. */
  requestId: string;
  /** The server's logger with this request's id on every line. */
  logger: Logger;
}

/** The context of a field built with `t.withAuth({ authenticated: true })`. */
export interface AuthenticatedContext extends GraphQLContext {
  viewer: User;
}

/**
 * The viewer, for the few places that scope-auth does not guard: fields of types that are reached
 * only below an authenticated root field, and a subscription's subscribe (scope-auth checks a
 * subscription field when it resolves each event, not when the subscription starts).
 */
export function requireViewer(context: GraphQLContext): User {
  if (!context.viewer) throw new UnauthenticatedError();
  return context.viewer;
}
