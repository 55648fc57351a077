import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import type { RateLimits } from '../auth/rate-limits.ts';
import type { ApiTokens } from '../auth/tokens.ts';
import type { BranchService } from '../branches/branch-service.ts';
import type { ThreadLife } from '../branches/thread-life.ts';
import type { ConversationService, SiblingBatch } from '../conversation/conversation-service.ts';
import type { DirectoryService } from '../directory/directory-service.ts';
import type { UserAdministration } from '../directory/user-admin.ts';
import { UnauthenticatedError } from '../domain/errors.ts';
import type { EventBacklog } from '../events/event-backlog.ts';
import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { CancellationService } from '../execution/cancellation.ts';
import type { SuspensionService } from '../execution/suspensions.ts';
import type { ToolServers } from '../tools/tool-servers.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { ParleyTracing } from '../observability/tracing.ts';
import type { QueueService } from '../queue/queue-service.ts';

/** The services resolvers call: built once per server, the same for every request. */
export interface ResolverServices {
  access: AccessPolicy;
  directory: DirectoryService;
  queue: QueueService;
  conversations: ConversationService;
  cancellation: CancellationService;
  suspensions: SuspensionService;
  branches: BranchService;
  threadLife: ThreadLife;
  toolServers: ToolServers;
  tokens: ApiTokens;
  users: UserAdministration;
  rateLimits: RateLimits;
  /** Links a queued message to the request that queued it (its turn's trace names that request). */
  tracing: Pick<ParleyTracing, 'rememberQueued'>;
  /** A subscriber's stream of a thread's events: the log after `after`, snapshots, then live. */
  threadEvents(options: { threadId: string; after: string | null; backlog: EventBacklog }): AsyncIterableIterator<RunEvent>;
}

export interface GraphQLContext {
  viewer: User | null;
  /** Why the request's JWT was refused (expired, wrong audience, …), told to the client; null otherwise. */
  viewerRefusal: string | null;
  /** Whether the request's credential is an admin one (an API token made with --admin, or a JWT with the admin scope). */
  admin: boolean;
  /** When a subscription of this HTTP (SSE) request must end: its JWT's `exp`. Null for API tokens and on a WebSocket, which is closed instead. */
  streamDeadline: number | null;
  services: ResolverServices;
  /** What the Pothos Prisma plugin loads a resolver's selection (`query`) with; nothing else reads it. */
  loader: PrismaClient;
  /** The request's batch of `Message.siblingIds` reads (one query for every message of a response). */
  siblings: SiblingBatch;
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
  if (!context.viewer) throw new UnauthenticatedError(context.viewerRefusal ?? undefined);
  return context.viewer;
}
