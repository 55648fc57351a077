import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the database says about the queues and the instances; one query, cached briefly by the reader. */
export interface QueueState {
  pending: number;
  steeringReservations: number;
  oldestPendingAt: Date | null;
  liveLeases: number;
}

/** The live state behind the gauges, read at each scrape. */
export interface InstanceState {
  /** Tool servers by status, as this instance's clients last saw them. */
  toolServers?: () => Record<string, number>;
  runningExecutions(): number;
  queue(): Promise<QueueState>;
  /** Null on the embedded database, which has no pool. */
  databasePool(): { inUse: number; waiting: number } | null;
  redisConnected(): boolean;
}

/**
 * Every Prometheus metric of one Parley instance, in a registry of its own (several instances
 * may share a process in tests). Labels carry only bounded, schema- or configuration-defined
 * values (an operation's root field, a status, an ErrorReason, a provider and model name), never
 * ids, tokens or anything a user typed.
 */
export class ParleyMetrics {
  readonly registry = new Registry();

  // GraphQL
  readonly graphqlOperations = new Counter({
    name: 'parley_graphql_operations_total',
    help: 'GraphQL operations started, by type and root field',
    labelNames: ['type', 'operation'] as const,
    registers: [this.registry],
  });
  readonly graphqlDuration = new Histogram({
    name: 'parley_graphql_operation_duration_seconds',
    help: 'Time to execute a query or mutation (a subscription: until its stream is set up)',
    labelNames: ['type', 'operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly graphqlErrors = new Counter({
    name: 'parley_graphql_errors_total',
    help: 'GraphQL errors sent to clients, by extensions.code',
    labelNames: ['type', 'operation', 'code'] as const,
    registers: [this.registry],
  });

  // Tool calls (a tool server's name and its tool's: chosen by project admins, never by users' messages)
  readonly toolCalls = new Counter({
    name: 'parley_tool_calls_total',
    help: 'Calls of tool-server tools, by server, tool and outcome (SUCCEEDED, FAILED, CANCELLED)',
    labelNames: ['server', 'tool', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly toolCallDuration = new Histogram({
    name: 'parley_tool_call_duration_seconds',
    help: 'From a tool-server call being sent to its result',
    labelNames: ['server', 'tool'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  readonly toolServerReconnects = new Counter({
    name: 'parley_tool_server_reconnects_total',
    help: 'Sessions a tool server lost (it restarted) opened again to retry a call it refused unrun, by server',
    labelNames: ['server'] as const,
    registers: [this.registry],
  });

  readonly toolServers: Gauge = new Gauge({
    name: 'parley_tool_servers',
    help: 'Tool servers by status as this instance last saw them (CONNECTED, UNAVAILABLE, UNAUTHORIZED)',
    labelNames: ['status'] as const,
    collect: async (): Promise<void> => {
      const counts = this.state?.toolServers?.() ?? {};
      for (const status of ['CONNECTED', 'UNAVAILABLE', 'UNAUTHORIZED']) this.toolServers.set({ status }, counts[status] ?? 0);
    },
    registers: [this.registry],
  });

  observeToolCall(call: { server: string; tool: string; outcome: string; durationMs: number }): void {
    this.toolCalls.inc({ server: call.server, tool: call.tool, outcome: call.outcome });
    this.toolCallDuration.observe({ server: call.server, tool: call.tool }, call.durationMs / 1000);
  }

  // Runs
  readonly runsStarted = new Counter({
    name: 'parley_runs_started_total',
    help: 'Executions this instance started (delegated children included; a resumed run counts again)',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  readonly runsFinished = new Counter({
    name: 'parley_runs_finished_total',
    help: 'Executions ended, by status (COMPLETED, FAILED, CANCELLED, SUSPENDED, INTERRUPTED, REFUSED)',
    labelNames: ['status', 'provider'] as const,
    registers: [this.registry],
  });
  readonly runDuration = new Histogram({
    name: 'parley_run_duration_seconds',
    help: 'From an execution starting here to its end',
    labelNames: ['status'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });
  readonly runQueueWait = new Histogram({
    name: 'parley_run_queue_wait_seconds',
    help: 'From a message being queued to its execution starting',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly modelTokens = new Counter({
    name: 'parley_model_tokens_total',
    help: 'Tokens reported by model requests, by provider, model and direction (input, output)',
    labelNames: ['provider', 'model', 'direction'] as const,
    registers: [this.registry],
  });
  readonly runRetries = new Counter({
    name: 'parley_run_retries_total',
    help: 'Model requests retried, by the ErrorReason of the failed attempt',
    labelNames: ['reason', 'provider'] as const,
    registers: [this.registry],
  });
  readonly runFailures = new Counter({
    name: 'parley_run_failures_total',
    help: 'Runs that ended with an error, by ErrorReason and provider',
    labelNames: ['reason', 'provider'] as const,
    registers: [this.registry],
  });
  readonly runsRunning: Gauge = new Gauge({
    name: 'parley_runs_running',
    help: 'Executions running on this instance now',
    collect: async (): Promise<void> => void this.runsRunning.set(this.state?.runningExecutions() ?? 0),
    registers: [this.registry],
  });

  readonly admissionsDeferred = new Counter({
    name: 'parley_run_admissions_deferred_total',
    help: 'Turns left queued because a run-slot cap of this instance was full, by cap (instance, user, project)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly limitRefusals = new Counter({
    name: 'parley_limit_refusals_total',
    help: 'Requests refused with LimitExceededError, by the setting whose limit was reached',
    labelNames: ['setting'] as const,
    registers: [this.registry],
  });

  // Queue (read from the database; the same value on every instance)
  readonly queuePending: Gauge = new Gauge({
    name: 'parley_queue_pending_items',
    help: 'Messages waiting in all thread queues (read from the database, at most every few seconds)',
    collect: async (): Promise<void> => void this.queuePending.set((await this.queueState())?.pending ?? 0),
    registers: [this.registry],
  });
  readonly queueSteering: Gauge = new Gauge({
    name: 'parley_queue_steering_reservations',
    help: 'Queued messages reserved for steering into a running execution',
    collect: async (): Promise<void> => void this.queueSteering.set((await this.queueState())?.steeringReservations ?? 0),
    registers: [this.registry],
  });
  readonly queueOldestAge: Gauge = new Gauge({
    name: 'parley_queue_oldest_pending_age_seconds',
    help: 'Age of the oldest pending message (0 when none is pending)',
    collect: async (): Promise<void> => {
      const oldest = (await this.queueState())?.oldestPendingAt;
      this.queueOldestAge.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
    },
    registers: [this.registry],
  });

  // Delivery
  readonly subscriptionsActive = new Gauge({
    name: 'parley_subscriptions_active',
    help: 'Subscriptions open on this instance, by transport (websocket, sse: GraphQL; ag-ui: AG-UI run streams)',
    labelNames: ['transport'] as const,
    registers: [this.registry],
  });
  readonly eventsPublished = new Counter({
    name: 'parley_events_published_total',
    help: 'Thread events published on the live bus by this instance, by kind (durable, live)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly eventsDelivered = new Counter({
    name: 'parley_events_delivered_total',
    help: 'Thread events handed to subscribers on this instance, by kind (durable, live, snapshot)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  /** The two counters above with each kind's labels bound once: counting a chunk hashes no labels. */
  readonly eventsPublishedOf = {
    live: this.eventsPublished.labels({ kind: 'live' }),
    durable: this.eventsPublished.labels({ kind: 'durable' }),
  };
  readonly eventsDeliveredOf = {
    live: this.eventsDelivered.labels({ kind: 'live' }),
    durable: this.eventsDelivered.labels({ kind: 'durable' }),
    snapshot: this.eventsDelivered.labels({ kind: 'snapshot' }),
  };
  readonly deliveryLag = new Histogram({
    name: 'parley_delivery_lag_seconds',
    help: 'Streamed chunks: from the runtime emitting them to their subscription handing them to the socket',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly slowReadersDropped = new Counter({
    name: 'parley_slow_reader_drops_total',
    help: 'Times a subscription passed PARLEY_MAX_BUFFERED_EVENT_BYTES and had its waiting events dropped',
    registers: [this.registry],
  });

  // Connections
  readonly connectionsOpen = new Gauge({
    name: 'parley_http_connections_open',
    help: 'TCP connections open to the HTTP server (WebSockets included)',
    registers: [this.registry],
  });
  readonly connectionLimitsHit = new Counter({
    name: 'parley_connection_limits_hit_total',
    help: 'Connections, requests and subscriptions refused or closed by a limit, by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  // Infrastructure
  readonly dbPoolInUse: Gauge = new Gauge({
    name: 'parley_db_pool_connections_in_use',
    help: 'PostgreSQL pool connections checked out (0 on the embedded database)',
    collect: async (): Promise<void> => void this.dbPoolInUse.set(this.state?.databasePool()?.inUse ?? 0),
    registers: [this.registry],
  });
  readonly dbPoolWaiting: Gauge = new Gauge({
    name: 'parley_db_pool_waiting_requests',
    help: 'Queries waiting for a free PostgreSQL pool connection',
    collect: async (): Promise<void> => void this.dbPoolWaiting.set(this.state?.databasePool()?.waiting ?? 0),
    registers: [this.registry],
  });
  readonly redisConnected: Gauge = new Gauge({
    name: 'parley_redis_connected',
    help: '1 while the live bus has Redis (always 1 with in-process pub/sub)',
    collect: async (): Promise<void> => void this.redisConnected.set(this.state === null || this.state.redisConnected() ? 1 : 0),
    registers: [this.registry],
  });
  readonly redisReconnects = new Counter({
    name: 'parley_redis_reconnects_total',
    help: 'Times live delivery came back after a Redis outage (every channel confirmed again)',
    registers: [this.registry],
  });
  readonly instanceLeases: Gauge = new Gauge({
    name: 'parley_instance_leases_held',
    help: 'Unexpired instance leases in the database: the instances alive',
    collect: async (): Promise<void> => void this.instanceLeases.set((await this.queueState())?.liveLeases ?? 0),
    registers: [this.registry],
  });
  readonly interruptionsSwept = new Counter({
    name: 'parley_interrupted_executions_swept_total',
    help: 'Executions of dead instances this instance finalized as INTERRUPTED',
    registers: [this.registry],
  });

  private state: InstanceState | null = null;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'parley_' });
  }

  /** Where the gauges that describe the instance's state read it, at each scrape. */
  observe(state: InstanceState): void {
    this.state = state;
  }

  /**
   * Lets go of the instance: prom-client's GC metric observes the process's garbage collections
   * for as long as the process lives and keeps this registry; emptied, it keeps nothing of the
   * instance (a process that opens instances one after another, as the test suite does, would
   * otherwise keep every one of them, its embedded database included).
   */
  close(): void {
    this.state = null;
    this.registry.clear();
  }

  /** One scrape reads the queue once, whatever the number of gauges built on it. */
  private queueState(): Promise<QueueState | null> {
    return this.state ? this.state.queue() : Promise.resolve(null);
  }

  /** The text format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
