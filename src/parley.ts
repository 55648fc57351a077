import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import { AgUiModule } from './ag-ui/ag-ui-module.ts';
import { AccessPolicy } from './auth/access.ts';
import { RateLimitsModule } from './auth/rate-limits-module.ts';
import { TokenRevocationModule } from './auth/token-revocation-module.ts';
import { BranchService } from './branches/branch-service.ts';
import { CompactionService } from './compaction/compaction-service.ts';
import { ThreadLife } from './branches/thread-life.ts';
import type { Config } from './config.ts';
import { ConversationService } from './conversation/conversation-service.ts';
import { DatabaseModule } from './db/database-module.ts';
import { DirectoryService } from './directory/directory-service.ts';
import { UserAdministration } from './directory/user-admin.ts';
import { LiveBusModule } from './events/live-bus-module.ts';
import { ExecutionModule, type ExecutionDeps } from './execution/execution-module.ts';
import { Lifecycle } from './lifecycle/module.ts';
import { ModelRegistry } from './models/registry.ts';
import { providerSettingsFrom } from './models/settings.ts';
import { ObservabilityModule } from './observability/observability-module.ts';
import { QueueService } from './queue/queue-service.ts';
import { queueLimits } from './queue/settings.ts';
import { SearchService } from './search/search-service.ts';
import { ShareService } from './sharing/share-service.ts';
import { ToolsModule } from './tools/tools-module.ts';
import { TransferService } from './transfer/transfer-service.ts';
import { UsageModule } from './usage/usage-module.ts';

export interface ParleyOverrides {
  runtime?: ExecutionDeps['runtime'];
  /** Receives the spans (tests: an in-memory exporter) instead of OTEL_EXPORTER_OTLP_ENDPOINT. */
  spanExporter?: SpanExporter;
}

/** One Parley instance for the server: its modules, started in order and stopped in reverse, and the domain services on them. */
export type Parley = Awaited<ReturnType<typeof openParley>>;

export async function openParley(config: Config, logger: Logger, overrides: ParleyOverrides = {}) {
  const instanceId = config.PARLEY_INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const models = new ModelRegistry(providerSettingsFrom(config));
  const observability = new ObservabilityModule(config, instanceId, logger, overrides.spanExporter);
  const { metrics, tracing, refuseOverLimit } = observability;
  const database = new DatabaseModule(config, logger);
  const liveBus = new LiveBusModule(config, logger, observability.busObservers());
  const instance = new Lifecycle();
  await instance.start(observability, database, liveBus);
  const [{ db }, { bus }] = [database, liveBus];
  const { prisma, sql } = db;
  const access = new AccessPolicy(prisma, sql);
  const embedded = db.kind === 'pglite';
  const rateLimits = new RateLimitsModule(config, bus, logger);
  const tokens = new TokenRevocationModule(prisma, bus, logger, config);
  const toolsModule = new ToolsModule(prisma, access, config, embedded, logger, {
    call: (call) => metrics.observeToolCall(call),
    reconnect: (server) => metrics.toolServerReconnects.inc({ server }),
  });
  const usage = new UsageModule({ prisma, sql, bus, access, models, logger, settings: config, registry: metrics.registry });
  await instance.start(rateLimits, tokens, toolsModule, usage);
  const tools = toolsModule.servers;
  const observers = observability.runObservers(models);
  const execution = new ExecutionModule({
    ...observers,
    runListeners: (agent, queuedAt) => [usage.recorderFor(agent), ...observers.runListeners(agent.model, queuedAt)],
    spendGate: (run) => usage.budgetGuardFor(run),
    settings: config, prisma, sql, bus, models, access, logger, instanceId, embedded, tools, runtime: overrides.runtime,
  });
  const { scheduler } = execution;
  observability.observeInstance({ db, liveBus, running: execution.running, tools });
  const directory = new DirectoryService(prisma, access, models, { maxThreadsPerUser: config.PARLEY_MAX_THREADS_PER_USER, onLimitExceeded: refuseOverLimit }, tools);
  const users = new UserAdministration(prisma, directory, { disabled: (id) => tokens.userDisabled(id), enabled: (id) => tokens.userEnabled(id) });
  const services = {
    access, directory, users, tools,
    tokens: tokens.tokens,
    rateLimits: rateLimits.rateLimits,
    queue: new QueueService(prisma, sql, bus, access, scheduler, queueLimits(config), execution.suspensions, refuseOverLimit),
    conversations: new ConversationService(prisma, access),
    branches: new BranchService(prisma, sql, bus, access, scheduler, queueLimits(config), refuseOverLimit),
    threadLife: new ThreadLife(prisma, bus, access),
    cancellation: execution.cancellation, suspensions: execution.suspensions, elicitations: execution.elicitations,
    prices: usage.prices, usage: usage.usage, budgets: usage.budgets, usageReads: usage.reads,
    compaction: new CompactionService({ prisma, sql, models, bus, access, recordCall: (agent, call) => usage.recordCallOutsideRun(agent, call) }),
    search: new SearchService(sql, access),
    transfer: new TransferService(prisma, access, directory),
    sharing: new ShareService(prisma, access),
  };
  const agUi = new AgUiModule({ ...services, prisma, sql, bus, running: execution.running, metrics, logger, settings: config });
  await instance.start(agUi);
  const work = new Lifecycle();
  return {
    config, logger, instanceId, role: config.PARLEY_ROLE, db, bus, models, metrics, tracing, services, execution, currency: usage.currency, agUi,
    authenticator: tokens.authenticator,
    /** Each signed-in user's open streams here: disabling the user ends them. */
    signedInStreams: tokens.streams,
    /** Takes this instance's lease, interrupts executions of dead instances, starts admitting turns (as PARLEY_ROLE says). */
    startWork: () => work.start(execution),
    /** Stops admitting and lets running replies finish within PARLEY_SHUTDOWN_GRACE_MS, then releases the lease. */
    stopWork: () => work.stop(),
    /** Stops every module in the reverse of its start, once (stopping the work first). */
    close: async () => {
      await work.stop();
      await instance.stop();
    },
  };
}
