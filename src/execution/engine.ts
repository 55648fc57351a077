import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { OutagePatience } from '../db/outage-patience.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { Module } from '../lifecycle/module.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { ParleyTracing } from '../observability/tracing.ts';
import type { RunListener } from '../recording/run-listener.ts';
import { Admission } from './admission.ts';
import { HandedOffResumes } from './handed-off-resumes.ts';
import { QueueConsumer } from './queue-consumer.ts';
import { InstanceLease, Interruptions } from './recovery.ts';
import { RunLauncher } from './run-launcher.ts';
import type { RunLauncherDeps } from './run-launcher-deps.ts';
import { RunSlots, type SlotCap } from './run-slots.ts';
import { LeaseLost, RunningExecutions, ServerShutdown } from './running-executions.ts';
import { retryPolicyFrom, type ExecutionSettings } from './settings.ts';
import { Steering } from './steering.ts';

/** How long runs aborted at the end of the shutdown grace period get to record that they were interrupted. */
const RECORDING_AFTER_ABORT_MS = 5_000;

export interface ExecutionEngineDeps {
  settings: ExecutionSettings;
  prisma: PrismaClient;
  /** The driver under Prisma: the turn's statements (src/storage/). */
  sql: SqlClient;
  bus: LiveBus;
  models: ModelRegistry;
  logger: Logger;
  instanceId: string;
  /** The embedded database has one instance: the leases of earlier processes are dropped at start. */
  embedded: boolean;
  tracing: ParleyTracing;
  /** The tools of the project's tool servers (src/tools). */
  tools?: RunLauncherDeps['tools'];
  /** Replaces the agent loop (tests make it fail the way a broken loop would). */
  runtime?: RunLauncherDeps['runtime'];
  runListeners: (model: string, queuedAt?: Date) => RunListener[];
  /** Told each time a turn is left waiting because a cap was full. */
  onDeferred: (cap: SlotCap) => void;
  /** Told how many executions of dead instances each sweep interrupted. */
  onSwept: (count: number) => void;
}

/** What runs this instance's turns: the consumer and its launcher, the lease, the sweeper of dead instances' runs. */
export class ExecutionEngine {
  readonly running = new RunningExecutions();
  readonly consumer: QueueConsumer;
  /** Abandoning it ends the retries of run ends held in memory through a database outage (at shutdown). */
  readonly outagePatience: OutagePatience;
  /** This instance's lease and the sweeping of the runs of instances whose lease ran out. */
  readonly recovery: Module;
  /** Claiming and running queued turns; stopping it lets running replies finish within PARLEY_SHUTDOWN_GRACE_MS. */
  readonly consuming: Module;
  readonly kick = (threadId: string): void => this.consumer.kick(threadId);

  constructor(deps: ExecutionEngineDeps) {
    const { settings, prisma, sql, bus, logger, instanceId, runListeners } = deps;
    const running = this.running;
    // Past its lease other instances may take this one's runs: they are handed back as interrupted.
    const lease = new InstanceLease(prisma, instanceId, settings.PARLEY_LEASE_MS, logger, () => {
      logger.warn('the instance lease ran out: interrupting the runs of this instance');
      for (const run of running.all()) run.controller.abort(new LeaseLost());
    });
    this.outagePatience = new OutagePatience(() => lease.heldUntil);
    const flushPolicy = { flushMs: settings.PARLEY_TEXT_FLUSH_MS, flushChars: settings.PARLEY_TEXT_FLUSH_CHARS };
    const launcher = new RunLauncher({
      prisma,
      sql,
      bus,
      models: deps.models,
      running,
      retryPolicy: retryPolicyFrom(settings),
      flushPolicy,
      logger,
      instanceId,
      steering: new Steering(sql, bus),
      outagePatience: this.outagePatience,
      runtime: deps.runtime,
      tools: deps.tools,
      tracing: deps.tracing,
      runListeners,
      deltaWindowMs: settings.PARLEY_DELTA_WINDOW_MS,
    });
    const interruptions = new Interruptions(prisma, sql, bus, flushPolicy, this.kick, logger, (execution) =>
      runListeners(execution.agent.model),
    );
    const sweepInterruptions = async () => deps.onSwept(await interruptions.sweep());
    const slots = new RunSlots({
      perInstance: settings.PARLEY_MAX_CONCURRENT_RUNS,
      perUser: settings.PARLEY_MAX_CONCURRENT_RUNS_PER_USER,
      perProject: settings.PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT,
    });
    const admission = new Admission(sql, running, instanceId);
    const handedOff = new HandedOffResumes(prisma, running, instanceId);
    const consumer = new QueueConsumer(prisma, bus, admission, launcher, running, logger, settings.PARLEY_CONSUMER_SWEEP_MS, slots, deps.onDeferred, sweepInterruptions, handedOff);
    this.consumer = consumer;
    this.recovery = {
      name: 'leases and sweeping',
      async start() {
        await lease.start(hostname());
        if (deps.embedded) await lease.dropOthers();
        await sweepInterruptions();
      },
      stop: () => lease.stop().catch((error) => logger.warn({ err: error }, 'releasing the instance lease failed')),
    };
    this.consuming = {
      name: 'queue consumer',
      start: async () => consumer.start(),
      stop: () => this.drain(settings.PARLEY_SHUTDOWN_GRACE_MS, logger),
    };
  }

  /**
   * Stops claiming and lets running replies finish within `graceMs`; then aborts the rest, which
   * get a little longer to record that they were interrupted. Stopping must end: a run that cannot
   * record its end in time is left to the sweeper of whichever instance outlives this one's lease,
   * which records it INTERRUPTED.
   */
  private async drain(graceMs: number, logger: Logger): Promise<void> {
    await this.consumer.stop();
    if (!(await this.consumer.waitForRuns(graceMs))) {
      for (const run of this.running.all()) run.controller.abort(new ServerShutdown());
      this.outagePatience.abandon();
      if (!(await this.consumer.waitForRuns(RECORDING_AFTER_ABORT_MS))) {
        const executionIds = this.running.all().map((run) => run.executionId);
        logger.warn({ executionIds }, 'runs still recording their end after the shutdown grace period: left to the sweeper');
      }
    }
    this.outagePatience.abandon();
  }
}
