import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { AccessPolicy } from './auth/access.ts';
import type { RateLimits } from './auth/rate-limits.ts';
import { RateLimitsModule } from './auth/rate-limits-module.ts';
import type { SignedInStreams } from './auth/signed-in-streams.ts';
import type { ApiTokens, TokenAuthenticator } from './auth/tokens.ts';
import { TokenRevocationModule } from './auth/token-revocation-module.ts';
import type { Config } from './config.ts';
import { BranchService } from './branches/branch-service.ts';
import { ThreadLife } from './branches/thread-life.ts';
import { ConversationService } from './conversation/conversation-service.ts';
import type { OutagePatience } from './db/outage-patience.ts';
import type { Database } from './db/database.ts';
import { DatabaseModule } from './db/database-module.ts';
import { DirectoryService } from './directory/directory-service.ts';
import { UserAdministration } from './directory/user-admin.ts';
import type { LiveBus } from './events/live-bus.ts';
import { LiveBusModule } from './events/live-bus-module.ts';
import { CancellationService } from './execution/cancellation.ts';
import { ExecutionModule, type ExecutionDeps } from './execution/execution-module.ts';
import type { QueueConsumer } from './execution/queue-consumer.ts';
import type { RunningExecutions } from './execution/running-executions.ts';
import { SuspensionService } from './execution/suspensions.ts';
import { runsTurns, type InstanceRole } from './execution/settings.ts';
import type { AdmittedRun } from './execution/admission.ts';
import { Lifecycle } from './lifecycle/module.ts';
import { ModelRegistry } from './models/registry.ts';
import { providerSettingsFrom } from './models/settings.ts';
import type { ParleyMetrics } from './observability/metrics.ts';
import { ObservabilityModule } from './observability/observability-module.ts';
import { QueueStateReader } from './observability/queue-state.ts';
import type { ParleyTracing } from './observability/tracing.ts';
import { QueueService } from './queue/queue-service.ts';
import { queueLimits } from './queue/settings.ts';
import type { ToolServers } from './tools/tool-servers.ts';
import { ToolsModule } from './tools/tools-module.ts';

/** Everything one Parley instance consists of, wired once; GraphQL and the CLI both use it. */
export interface Parley {
  config: Config;
  logger: Logger;
  instanceId: string;
  /** PARLEY_ROLE: whether this instance serves clients, runs turns, or both. */
  role: InstanceRole;
  db: Database;
  bus: LiveBus;
  models: ModelRegistry;
  access: AccessPolicy;
  tokens: ApiTokens;
  authenticator: TokenAuthenticator;
  /** Each signed-in user's open streams here: disabling the user ends them. */
  signedInStreams: SignedInStreams;
  directory: DirectoryService;
  users: UserAdministration;
  queue: QueueService;
  conversations: ConversationService;
  cancellation: CancellationService;
  suspensions: SuspensionService;
  branches: BranchService;
  threadLife: ThreadLife;
  running: RunningExecutions;
  consumer: QueueConsumer;
  /** Running turns: the lease, admission, runs, Stop, suspensions, the sweep of dead instances' runs. */
  execution: ExecutionModule;
  outagePatience: OutagePatience;
  rateLimits: RateLimits;
  metrics: ParleyMetrics;
  tracing: ParleyTracing;
  /** The project's MCP tool servers and this instance's clients of them. */
  tools: ToolServers;
  /** Takes this instance's lease, interrupts executions of dead instances, starts consuming. */
  startWork(): Promise<void>;
  /** Stops consuming and lets running replies finish within PARLEY_SHUTDOWN_GRACE_MS, then releases the lease. */
  stopWork(): Promise<void>;
  /** Stops every module in the reverse of its start, once (stopping the work first). */
  close(): Promise<void>;
}

export interface ParleyOverrides {
  runtime?: ExecutionDeps['runtime'];
  /** Receives the spans (tests: an in-memory exporter) instead of OTEL_EXPORTER_OTLP_ENDPOINT. */
  spanExporter?: SpanExporter;
}

export async function openParley(config: Config, logger: Logger, overrides: ParleyOverrides = {}): Promise<Parley> {
  const instanceId = config.PARLEY_INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const models = new ModelRegistry(providerSettingsFrom(config));
  const observability = new ObservabilityModule(config, instanceId, logger, overrides.spanExporter);
  const { metrics, tracing, refuseOverLimit } = observability;
  const database = new DatabaseModule(config, logger);
  const liveBus = new LiveBusModule(config, logger, {
    published: (kind) => metrics.eventsPublished.inc({ kind }),
    resynced: () => metrics.redisReconnects.inc(),
  });
  const instance = new Lifecycle();
  await instance.start(observability, database, liveBus);
  const [db, bus, prisma] = [database.db, liveBus.bus, database.db.prisma];
  const [rateLimits, tokens] = [new RateLimitsModule(config, bus, logger), new TokenRevocationModule(prisma, bus, logger, config)];
  await instance.start(rateLimits, tokens);
  const [embedded, runtime] = [db.kind === 'pglite', overrides.runtime];
  const access = new AccessPolicy(prisma, db.sql);
  const toolsModule = new ToolsModule(prisma, access, config, embedded, logger, (call) => metrics.observeToolCall(call));
  await instance.start(toolsModule);
  const tools = toolsModule.servers;
  const execution = new ExecutionModule({ settings: config, prisma, sql: db.sql, bus, models, access, logger, instanceId, embedded, runtime, tools, ...observability.runObservers(models) });
  const { running, consumer, scheduler, suspensions, cancellation } = execution;
  const role = config.PARLEY_ROLE;
  const queueState = new QueueStateReader(prisma, logger);
  metrics.observe({
    runningExecutions: () => running.all().length,
    queue: () => queueState.read(),
    databasePool: () => db.poolUsage?.() ?? null,
    redisConnected: () => liveBus.connected,
    toolServers: () => tools.countByStatus(),
  });
  const work = new Lifecycle();
  const directory = new DirectoryService(prisma, access, models, {
    maxThreadsPerUser: config.PARLEY_MAX_THREADS_PER_USER,
    onLimitExceeded: refuseOverLimit,
  }, tools);
  return {
    config, logger, instanceId, db, bus, models, access, metrics, tracing, running, consumer, suspensions, tools, execution, cancellation,
    tokens: tokens.tokens,
    authenticator: tokens.authenticator,
    rateLimits: rateLimits.rateLimits,
    signedInStreams: tokens.streams,
    directory,
    users: new UserAdministration(prisma, directory, { disabled: (id) => tokens.userDisabled(id), enabled: (id) => tokens.userEnabled(id) }),
    queue: new QueueService(prisma, db.sql, bus, access, scheduler, queueLimits(config), suspensions, refuseOverLimit),
    conversations: new ConversationService(prisma, access),
    branches: new BranchService(prisma, db.sql, bus, access, scheduler, queueLimits(config), refuseOverLimit),
    threadLife: new ThreadLife(prisma, bus, access),
    outagePatience: execution.outagePatience,
    role,
    startWork: () => work.start(execution),
    stopWork: () => work.stop(),
    async close() {
      await work.stop();
      await instance.stop();
    },
  };
}
