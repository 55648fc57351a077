import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import { OutagePatience } from '../db/outage-patience.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Module } from '../lifecycle/module.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { ParleyTracing } from '../observability/tracing.ts';
import type { RunListener } from '../recording/run-listener.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { Admission } from './admission.ts';
import { CancellationService } from './cancellation.ts';
import { HandedOffResumes } from './handed-off-resumes.ts';
import { QueueConsumer } from './queue-consumer.ts';
import { InstanceLease, Interruptions } from './recovery.ts';
import { RunLauncher } from './run-launcher.ts';
import type { RunAgent, RunLauncherDeps } from './run-launcher-deps.ts';
import { RunSlots, type SlotCap } from './run-slots.ts';
import { LeaseLost, RunningExecutions, ServerShutdown } from './running-executions.ts';
import { retryPolicyFrom, runsTurns, type ExecutionSettings } from './settings.ts';
import { Steering } from './steering.ts';
import { ElicitationService } from './elicitations.ts';
import { SuspensionService } from './suspensions.ts';
import { Sweeper } from './sweeper.ts';
import type { TurnScheduler } from './turn-scheduler.ts';

/** How long runs aborted at the end of the shutdown grace period get to record that they were interrupted. */
const RECORDING_AFTER_ABORT_MS = 5_000;

export interface ExecutionDeps {
  settings: ExecutionSettings & { PARLEY_MAX_MESSAGE_CHARS: number };
  prisma: PrismaClient;
  /** The driver under Prisma: the turn's statements (src/storage/). */
  sql: SqlClient;
  bus: LiveBus;
  models: ModelRegistry;
  access: AccessPolicy;
  logger: Logger;
  instanceId: string;
  /** The embedded database has one instance: the leases of earlier processes are dropped at start. */
  embedded: boolean;
  tracing: ParleyTracing;
  /** The tools of the project's tool servers (src/tools). */
  tools?: RunLauncherDeps['tools'];
  /** Replaces the agent loop (tests make it fail the way a broken loop would). */
  runtime?: RunLauncherDeps['runtime'];
  /** Observers of each run (its metrics), after the listeners that record it; `queuedAt` only for a fresh turn. */
  runListeners: (agent: RunAgent, queuedAt?: Date) => RunListener[];
  /** Budgets in money, asked before each model call (src/usage). */
  spendGate?: RunLauncherDeps['spendGate'];
  /** Told each time a turn is left waiting because a cap was full. */
  onDeferred: (cap: SlotCap) => void;
  /** Told how many executions of dead instances each sweep interrupted. */
  onSwept: (count: number) => void;
}

/**
 * Running turns: this instance's lease, the admission of queued turns, the runs and their
 * recording, Stop and suspensions, and the sweep that interrupts dead instances' runs. An instance
 * whose PARLEY_ROLE runs no turns starts none of it: it records what clients ask and kicks the
 * threads, and a worker runs them.
 */
export class ExecutionModule implements Module {
  readonly name = 'execution';
  readonly running = new RunningExecutions();
  /** How the rest of the server asks for turns to run. */
  readonly scheduler: TurnScheduler;
  readonly suspensions: SuspensionService;
  /** A tool server's questions to the user during a call. */
  readonly elicitations: ElicitationService;
  readonly cancellation: CancellationService;
  /** Keeps run ends in memory through a database outage; abandoned at shutdown. */
  readonly outagePatience: OutagePatience;
  readonly consumer: QueueConsumer;
  private readonly launcher: RunLauncher;
  private readonly lease: InstanceLease;
  private readonly sweeper: Sweeper;
  private readonly runsTurnsHere: boolean;
  private stopElicitationRelays: (() => void) | null = null;

  constructor(private readonly deps: ExecutionDeps) {
    const { settings, prisma, sql, bus, logger, instanceId } = deps;
    const running = this.running;
    this.runsTurnsHere = runsTurns(settings.PARLEY_ROLE);
    // Past its lease other instances may take this one's runs: they are handed back as interrupted.
    this.lease = new InstanceLease(prisma, instanceId, settings.PARLEY_LEASE_MS, logger, () => {
      logger.warn('the instance lease ran out: interrupting the runs of this instance');
      for (const run of running.all()) run.controller.abort(new LeaseLost());
    });
    this.outagePatience = new OutagePatience(() => this.lease.heldUntil);
    this.elicitations = new ElicitationService(prisma, deps.access, bus);
    const flushPolicy = { flushMs: settings.PARLEY_TEXT_FLUSH_MS, flushChars: settings.PARLEY_TEXT_FLUSH_CHARS };
    const slots = new RunSlots({
      perInstance: settings.PARLEY_MAX_CONCURRENT_RUNS,
      perUser: settings.PARLEY_MAX_CONCURRENT_RUNS_PER_USER,
      perProject: settings.PARLEY_MAX_CONCURRENT_RUNS_PER_PROJECT,
    });
    const launcher = new RunLauncher({
      ...deps,
      running,
      retryPolicy: retryPolicyFrom(settings),
      flushPolicy,
      steering: new Steering(sql, bus),
      outagePatience: this.outagePatience,
      deltaWindowMs: settings.PARLEY_DELTA_WINDOW_MS,
      slots,
      elicitations: this.elicitations,
      onEnded: (threadId, userId, queued) => this.consumer.runEnded(threadId, userId, queued),
    });
    this.launcher = launcher;
    this.consumer = new QueueConsumer({ bus, admission: new Admission(sql, running, instanceId), slots, launcher, logger, onDeferred: deps.onDeferred });
    this.scheduler = {
      kick: (threadId) => this.consumer.kick(threadId),
      resume: (run, resumeWith) => launcher.resume(run, resumeWith),
      runsTurnsHere: this.runsTurnsHere,
    };
    const interruptions = new Interruptions(prisma, sql, bus, flushPolicy, this.scheduler, logger, (execution) => deps.runListeners(execution.agent));
    this.sweeper = new Sweeper({
      prisma,
      bus,
      running,
      consumer: this.consumer,
      interruptions,
      handedOff: new HandedOffResumes(prisma, running, instanceId, bus, launcher, logger),
      logger,
      sweepMs: settings.PARLEY_CONSUMER_SWEEP_MS,
      onSwept: deps.onSwept,
    });
    this.suspensions = new SuspensionService(prisma, deps.access, bus, running, instanceId, settings.PARLEY_MAX_MESSAGE_CHARS, this.scheduler);
    this.cancellation = new CancellationService(prisma, deps.access, running, bus, this.scheduler);
  }

  /** Takes this instance's lease, interrupts the runs of dead instances, starts admitting turns. */
  async start(): Promise<void> {
    // An api instance neither claims turns nor sweeps dead instances' runs: it holds no lease.
    if (!this.runsTurnsHere) return;
    await this.lease.start(hostname());
    if (this.deps.embedded) await this.lease.dropOthers();
    await this.sweeper.interruptDeadInstancesRuns();
    this.consumer.start();
    this.sweeper.start();
    this.stopElicitationRelays = this.elicitations.answerRelays(this.deps.settings.PARLEY_CONSUMER_SWEEP_MS);
  }

  /**
   * Stops admitting and lets running replies finish within PARLEY_SHUTDOWN_GRACE_MS; then aborts
   * the rest, which get a little longer to record that they were interrupted, and releases the
   * lease. Stopping must end: a run that cannot record its end in time is left to the sweeper of
   * whichever instance outlives this one's lease, which records it INTERRUPTED.
   */
  async stop(): Promise<void> {
    if (!this.runsTurnsHere) return;
    await this.sweeper.stop();
    this.consumer.stop();
    if (!(await this.launcher.waitForRuns(this.deps.settings.PARLEY_SHUTDOWN_GRACE_MS))) {
      for (const run of this.running.all()) run.controller.abort(new ServerShutdown());
      this.outagePatience.abandon();
      if (!(await this.launcher.waitForRuns(RECORDING_AFTER_ABORT_MS))) {
        const executionIds = this.running.all().map((run) => run.executionId);
        this.deps.logger.warn({ executionIds }, 'runs still recording their end after the shutdown grace period: left to the sweeper');
      }
    }
    this.outagePatience.abandon();
    this.stopElicitationRelays?.();
    await this.lease.stop().catch((error) => this.deps.logger.warn({ err: error }, 'releasing the instance lease failed'));
  }

  /** Whether every run of this instance ended (its end recorded or given up) within `withinMs`. */
  waitForRuns(withinMs: number): Promise<boolean> {
    return this.launcher.waitForRuns(withinMs);
  }
}
