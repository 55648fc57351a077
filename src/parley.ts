import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AccessPolicy } from './auth/access.ts';
import { RateLimits } from './auth/rate-limits.ts';
import { ApiTokens, TokenAuthenticator, TokenUsageRecorder } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { ConversationService } from './conversation/conversation-service.ts';
import { OutagePatience } from './db/outage-patience.ts';
import { openDatabase, type Database, type DatabaseTarget } from './db/database.ts';
import { DirectoryService } from './directory/directory-service.ts';
import type { LimitExceededError } from './domain/errors.ts';
import type { RetryPolicy } from './errors/retry-policy.ts';
import { createLiveBus, type LiveBus } from './events/live-bus.ts';
import { Admission } from './execution/admission.ts';
import { QueueConsumer } from './execution/queue-consumer.ts';
import { RunLauncher, type RunLauncherDeps } from './execution/run-launcher.ts';
import { RunSlots } from './execution/run-slots.ts';
import { LeaseLost, RunningExecutions, ServerShutdown } from './execution/running-executions.ts';
import { CancellationService } from './execution/cancellation.ts';
import { InstanceLease, Interruptions } from './execution/recovery.ts';
import { Steering } from './execution/steering.ts';
import { SuspensionService } from './execution/suspensions.ts';
import { ModelRegistry, parseModelId, parseProvidersJson, type ProviderSettings } from './models/registry.ts';
import { QueueService } from './queue/queue-service.ts';
import { ParleyMetrics } from './observability/metrics.ts';
import { QueueStateReader } from './observability/queue-state.ts';
import { RunMetricsListener } from './observability/run-metrics.ts';
import { ParleyTracing } from './observability/tracing.ts';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Everything one Parley instance consists of, wired once; GraphQL and the CLI both use it. */
export interface Parley {
  config: Config;
  logger: Logger;
  instanceId: string;
  db: Database;
  bus: LiveBus;
  models: ModelRegistry;
  access: AccessPolicy;
  /** Listing and revoking API tokens. */
  tokens: ApiTokens;
  /** Who a request's token belongs to (cached briefly; revocations reach every instance at once). */
  authenticator: TokenAuthenticator;
  directory: DirectoryService;
  queue: QueueService;
  conversations: ConversationService;
  cancellation: CancellationService;
  suspensions: SuspensionService;
  running: RunningExecutions;
  consumer: QueueConsumer;
  /** Abandoning it ends the retries of run ends held in memory through a database outage (at shutdown). */
  outagePatience: OutagePatience;
  rateLimits: RateLimits;
  /** The Prometheus metrics served at /metrics. */
  metrics: ParleyMetrics;
  tracing: ParleyTracing;
  /** Takes this instance's lease, interrupts executions of dead instances, starts consuming. */
  startWork(): Promise<void>;
  close(): Promise<void>;
}

export function providerSettingsFrom(config: Config): ProviderSettings {
  return {
    demo: config.PARLEY_DEMO,
    openai: config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL } : undefined,
    anthropic: config.ANTHROPIC_API_KEY
      ? { apiKey: config.ANTHROPIC_API_KEY, baseURL: config.ANTHROPIC_BASE_URL }
      : undefined,
    compatible: config.PARLEY_PROVIDERS ? parseProvidersJson(config.PARLEY_PROVIDERS) : {},
  };
}

/** `PARLEY_DATA_DIR=memory://` keeps the embedded database in memory (tests, throw-away demos). */
export function databaseTarget(config: Config): DatabaseTarget {
  if (config.DATABASE_URL) {
    const pool = {
      size: config.PARLEY_DB_POOL_SIZE,
      acquireTimeoutMs: config.PARLEY_DB_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: config.PARLEY_DB_STATEMENT_TIMEOUT_MS,
    };
    return { databaseUrl: config.DATABASE_URL, pool };
  }
  if (config.PARLEY_DATA_DIR === 'memory://') return { memory: true };
  return { dataDir: config.PARLEY_DATA_DIR };
}

/** Instances on one database are one deployment: they share their rate-limit counts in Redis. */
export function rateLimitScope(config: Config): string {
  if (!config.DATABASE_URL) return `embedded:${config.PARLEY_DATA_DIR}`;
  const url = new URL(config.DATABASE_URL);
  return `${url.host}${url.pathname}:${url.searchParams.get('schema') ?? 'public'}`;
}

/** `openai:gpt-4.1-mini` → `gpt-4.1-mini`: the model label of the metrics. */
function modelNameOf(modelId: string): string {
  return parseModelId(modelId).model;
}

export function retryPolicyFrom(config: Config): RetryPolicy {
  return {
    maxAttempts: config.PARLEY_RETRY_MAX_ATTEMPTS,
    baseDelayS: config.PARLEY_RETRY_BASE_DELAY_S,
    maxDelayS: config.PARLEY_RETRY_MAX_DELAY_S,
    deadlineS: config.PARLEY_RETRY_DEADLINE_S,
  };
}

export interface ParleyOverrides {
  /** Replaces the agent loop (tests make it fail the way a broken loop would). */
  runtime?: RunLauncherDeps['runtime'];
  /** Receives the spans (tests: an in-memory exporter) instead of OTEL_EXPORTER_OTLP_ENDPOINT. */
  spanExporter?: SpanExporter;
}

/** How long `close()` waits for aborted runs to record their end before it closes the database. */
const CLOSING_RUNS_MS = 5_000;

export async function openParley(config: Config, logger: Logger, overrides: ParleyOverrides = {}): Promise<Parley> {
  const models = new ModelRegistry(providerSettingsFrom(config));
  const db = await openDatabase(databaseTarget(config));
  try {
    await db.migrate();
  } catch (error) {
    await db.close();
    throw error;
  }
  const bus = createLiveBus(config.REDIS_URL, logger);
  const instanceId = config.PARLEY_INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const prisma = db.prisma;
  const metrics = new ParleyMetrics();
  const tracing = new ParleyTracing({
    exporter: overrides.spanExporter,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    instanceId,
  });
  const countPublished = bus.publishThreadEvents.bind(bus);
  bus.publishThreadEvents = (events) => {
    for (const event of events) metrics.eventsPublished.inc({ kind: event.seq === null ? 'live' : 'durable' });
    countPublished(events);
  };
  let liveDeliveryUp = true;
  bus.onOutage(() => {
    liveDeliveryUp = false;
  });
  bus.onResync(() => {
    liveDeliveryUp = true;
    metrics.redisReconnects.inc();
  });
  const refuseOverLimit = (error: LimitExceededError): never => {
    metrics.limitRefusals.inc({ setting: error.setting });
    logger.info({ setting: error.setting, limit: error.limit }, `refused: ${error.message}`);
    throw error;
  };
  const runListeners = (model: string, queuedAt?: Date) => [
    new RunMetricsListener(metrics, { provider: models.providerName(model), model: modelNameOf(model), queuedAt }),
  ];
  const access = new AccessPolicy(prisma);
  const authenticator = new TokenAuthenticator(prisma, new TokenUsageRecorder(prisma), (error) =>
    logger.warn({ err: error }, 'recording a token’s last use failed'),
  );
  const tokens = new ApiTokens(prisma, async (tokenId) => {
    authenticator.forget(tokenId);
    // The token is gone from the database already; other instances' cached lookups end within seconds anyway.
    await bus
      .announceToInstances({ kind: 'token-revoked', tokenId })
      .catch((error) => logger.warn({ err: error, tokenId }, 'announcing a token revocation failed'));
  });
  const revocations = bus.instanceMessages();
  const revocationListener = revocations[Symbol.asyncIterator]();
  void (async () => {
    for await (const message of revocations) if (message.kind === 'token-revoked') authenticator.forget(message.tokenId);
  })().catch((error) => logger.error({ err: error }, 'token revocation listener stopped'));
  const running = new RunningExecutions();
  // Past its lease other instances may take this one's runs: they are handed back as interrupted.
  const lease = new InstanceLease(prisma, instanceId, config.PARLEY_LEASE_MS, logger, () => {
    logger.warn('the instance lease ran out: interrupting the runs of this instance');
    for (const run of running.all()) run.controller.abort(new LeaseLost());
  });
  const outagePatience = new OutagePatience(() => lease.heldUntil);
  const steering = new Steering(prisma, bus);
  const flushPolicy = { flushMs: config.PARLEY_TEXT_FLUSH_MS, flushChars: config.PARLEY_TEXT_FLUSH_CHARS };
  const launcher = new RunLauncher({
    prisma,
    bus,
    models,
    running,
    retryPolicy: retryPolicyFrom(config),
    flushPolicy,
    logger,
    instanceId,
    steering,
    outagePatience,
    runtime: overrides.runtime,
    tracing,
    runListeners,
  });
  const consumer = new QueueConsumer(
    prisma,
    bus,
    new Admission(prisma, running, instanceId),
    launcher,
    running,
    logger,
    config.PARLEY_CONSUMER_SWEEP_MS,
    new RunSlots({
      perInstance: config.PARLEY_MAX_CONCURRENT_RUNS,
      perUser: config.PARLEY_MAX_CONCURRENT_RUNS_PER_USER,
      perProject: config.PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT,
    }),
    (cap) => metrics.admissionsDeferred.inc({ reason: cap }),
    () => sweepInterruptions(),
  );
  const kick = (threadId: string) => consumer.kick(threadId);
  const interruptions = new Interruptions(prisma, bus, flushPolicy, kick, logger, (execution) =>
    runListeners(execution.agent.model),
  );
  const sweepInterruptions = async () => metrics.interruptionsSwept.inc(await interruptions.sweep());
  const suspensions = new SuspensionService(
    prisma,
    access,
    bus,
    running,
    instanceId,
    config.PARLEY_MAX_MESSAGE_CHARS,
    (run, messages) => consumer.launch(run, messages),
  );
  const queue = new QueueService(
    prisma,
    bus,
    access,
    kick,
    {
      maxMessageChars: config.PARLEY_MAX_MESSAGE_CHARS,
      maxAttachmentBytes: config.PARLEY_MAX_ATTACHMENT_BYTES,
      maxAttachments: config.PARLEY_MAX_ATTACHMENTS,
      maxQueuedPerThread: config.PARLEY_MAX_QUEUED_PER_THREAD,
      maxAttachmentBytesPerUser: config.PARLEY_MAX_ATTACHMENT_BYTES_PER_USER,
    },
    suspensions,
    refuseOverLimit,
  );
  // Its own connection: a count must not wait behind the thousands of PUBLISHes a fast run queues
  // on the bus's connection.
  const rateLimitClient = bus.commandClient?.duplicate() ?? null;
  const queueState = new QueueStateReader(prisma, logger);
  metrics.observe({
    runningExecutions: () => running.all().length,
    queue: () => queueState.read(),
    databasePool: () => db.poolUsage?.() ?? null,
    redisConnected: () => bus.kind === 'memory' || (liveDeliveryUp && bus.commandClient?.status === 'ready'),
  });
  // While Redis is away the counts fall back to this process (rate-limits.ts); its reconnects are not news.
  rateLimitClient?.on('error', (error) => logger.debug({ err: error }, 'the rate-limit connection to Redis failed'));
  return {
    config,
    logger,
    instanceId,
    db,
    bus,
    models,
    access,
    tokens,
    authenticator,
    directory: new DirectoryService(prisma, access, models, {
      maxThreadsPerUser: config.PARLEY_MAX_THREADS_PER_USER,
      onLimitExceeded: refuseOverLimit,
    }),
    queue,
    conversations: new ConversationService(prisma, access),
    cancellation: new CancellationService(prisma, access, running, bus, kick),
    suspensions,
    running,
    consumer,
    outagePatience,
    rateLimits: new RateLimits({
      mutationsPerMinute: config.PARLEY_MUTATIONS_PER_MINUTE,
      queriesPerMinute: config.PARLEY_QUERIES_PER_MINUTE,
      scope: rateLimitScope(config),
      redis: rateLimitClient,
    }),
    metrics,
    tracing,
    async startWork() {
      await lease.start(hostname());
      if (db.kind === 'pglite') await lease.dropOthers();
      await sweepInterruptions();
      consumer.start();
    },
    async close() {
      await consumer.stop();
      for (const run of running.all()) run.controller.abort(new ServerShutdown());
      outagePatience.abandon();
      if (!(await consumer.waitForRuns(CLOSING_RUNS_MS))) {
        logger.warn({ executionIds: running.all().map((run) => run.executionId) }, 'closing with runs that did not record their end: left to the sweeper');
      }
      await lease.stop().catch((error) => logger.warn({ err: error }, 'releasing the instance lease failed'));
      await revocationListener.return?.();
      rateLimitClient?.disconnect();
      await bus.close();
      await db.close();
      await tracing.shutdown().catch((error) => logger.warn({ err: error }, 'exporting the last spans failed'));
    },
  };
}
