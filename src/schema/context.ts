import type { BudgetService } from '../usage/budgets.ts';
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
import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { CancellationService } from '../execution/cancellation.ts';
import type { SuspensionService } from '../execution/suspensions.ts';
import type { ElicitationService } from '../execution/elicitations.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { ParleyTracing } from '../observability/tracing.ts';
import type { QueueService } from '../queue/queue-service.ts';
import type { ToolServers } from '../tools/tool-servers.ts';
import type { PriceService } from '../usage/prices.ts';
import type { UsageReads } from '../usage/usage-reads.ts';
import type { UsageService } from '../usage/usage-service.ts';

/**
 * What the schema calls of the domain, and nothing more: each service as the methods its resolvers
 * use (a new call is added here, where it shows). Built once per server, the same for every request.
 */
import type { CompactionService } from '../compaction/compaction-service.ts';
import type { SearchService } from '../search/search-service.ts';
import type { TransferService } from '../transfer/transfer-service.ts';
import type { ShareService } from '../sharing/share-service.ts';

export interface SchemaServices {
  access: Pick<AccessPolicy, 'agent' | 'projectRole' | 'roleOf' | 'thread' | 'visibleNode'>;
  directory: Pick<DirectoryService, 'addMember' | 'createAgent' | 'createProject' | 'createThread' | 'removeMember' | 'updateAgent'>;
  queue: Pick<QueueService, 'edit' | 'enqueueOrAnswer' | 'remove' | 'reorder' | 'retryFailed' | 'steer'>;
  conversations: Pick<ConversationService, 'conversation' | 'pathWindow' | 'queue' | 'siblingIds'>;
  cancellation: Pick<CancellationService, 'cancel'>;
  suspensions: Pick<SuspensionService, 'resolve'>;
  elicitations: Pick<ElicitationService, 'answer'>;
  branches: Pick<BranchService, 'editMessage' | 'regenerateMessage' | 'switchBranch'>;
  threadLife: Pick<ThreadLife, 'deleteThread' | 'renameThread'>;
  toolServers: Pick<ToolServers, 'add' | 'refresh' | 'remove' | 'update' | 'visibleIds'>;
  tokens: Pick<ApiTokens, 'list' | 'revoke'>;
  users: Pick<UserAdministration, 'createProjectFor' | 'createUser' | 'disableUser' | 'enableUser'>;
  /** The per-minute budgets, which every mutation field spends (mutation-wrappers.ts). */
  rateLimits: Pick<RateLimits, 'consume'>;
  prices: Pick<PriceService, 'modelPrices' | 'setModelPrice'>;
  usage: Pick<UsageService, 'projectUsage'>;
  budgets: Pick<BudgetService, 'setBudget' | 'removeBudget' | 'budgetsOf'>;
  usageReads: Pick<UsageReads, 'ofExecution' | 'ofThread'>;
  compaction: Pick<CompactionService, 'contextWindowOf' | 'contextOf' | 'compactThread' | 'uncompactThread'>;
  search: Pick<SearchService, 'searchThreads'>;
  transfer: Pick<TransferService, 'exportThread' | 'importThread'>;
  sharing: Pick<ShareService, 'share' | 'linksOf' | 'revoke' | 'sharedThread'>;
  /** The deployment's currency (PARLEY_CURRENCY): every Money is in it. */
  currency: string;
  /** Links a queued message to the request that queued it (its turn's trace names that request). */
  tracing: Pick<ParleyTracing, 'rememberQueued'>;
}

/**
 * What a resolver may read, made per request by the server (server/request-context.ts): the viewer
 * and what its sign-in says, the request's loaders, the services the schema calls, and the
 * request's id and logger. What only the server's plugins read is the server's, not this.
 */
export interface GraphQLContext {
  viewer: User | null;
  /** Why the request's JWT was refused (expired, wrong audience, …), told to the client; null otherwise. */
  viewerRefusal: string | null;
  /** Whether the request's credential is an admin one (an API token made with --admin, or a JWT with the admin scope). */
  admin: boolean;
  /** What the Pothos Prisma plugin loads a resolver's selection (`query`) with. */
  loader: PrismaClient;
  /** The request's batch of `Message.siblingIds` reads (one query for every message of a response). */
  siblings: SiblingBatch;
  /** A subscriber's stream of a thread's events: the log after `after`, snapshots, then live, within this connection's backlog bound. */
  threadEvents(options: { threadId: string; after: string | null }): AsyncIterableIterator<RunEvent>;
  services: SchemaServices;
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
