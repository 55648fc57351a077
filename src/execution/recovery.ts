import type { Logger } from 'pino';
import type { Execution, PrismaClient } from '../generated/prisma/client.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { FlushPolicy } from '../recording/conversation-log.ts';
import type { RunListener } from '../recording/run-listener.ts';
import { rootRunRecording } from '../recording/root-run-recording.ts';
import { closeElicitationsOf } from './elicitations.ts';
import { interruption } from './ending.ts';
import type { RunAgent } from './run-launcher-deps.ts';
import type { TurnScheduler } from './turn-scheduler.ts';

/** This instance's lease: a row renewed by a heartbeat. An expired lease means the instance died. */
export class InstanceLease {
  private timer: NodeJS.Timeout | null = null;
  /** When the lease ends as last renewed (epoch ms); past it, other instances may take this one's runs. */
  heldUntil = 0;

  private lapsed = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly instanceId: string,
    private readonly leaseMs: number,
    private readonly logger: Logger,
    /** Called once each time the lease runs out because it could not be renewed. */
    private readonly onLapse: () => void = () => {},
  ) {}

  async start(hostname: string): Promise<void> {
    await this.renew(hostname);
    this.timer = setInterval(() => {
      this.renew(hostname).then(
        () => {
          this.lapsed = false;
        },
        (error) => {
          this.logger.warn({ err: error }, 'renewing the instance lease failed');
          if (this.lapsed || Date.now() < this.heldUntil) return;
          this.lapsed = true;
          this.onLapse();
        },
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
  }

  private async renew(host: string): Promise<void> {
    const expiresAt = new Date(Date.now() + this.leaseMs);
    await this.prisma.instance.upsert({
      where: { id: this.instanceId },
      update: { heartbeatAt: new Date(), expiresAt },
      create: { id: this.instanceId, host, expiresAt },
    });
    this.heldUntil = Math.max(this.heldUntil, expiresAt.getTime());
  }

  /** Only one process can open an embedded data folder: every other lease in it is from a dead one. */
  async dropOthers(): Promise<void> {
    await this.prisma.instance.deleteMany({ where: { id: { not: this.instanceId } } });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.prisma.instance.deleteMany({ where: { id: this.instanceId } });
  }
}

/**
 * Finalizes executions whose instance died: INTERRUPTED, with one ErrorPart and one ErrorEvent
 * through the usual listeners, in one settlement under the thread's lock — so exactly once, and
 * before the thread's next message can be claimed. Never replayed.
 */
export class Interruptions {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlClient,
    private readonly bus: LiveBus,
    private readonly flushPolicy: FlushPolicy,
    private readonly scheduler: Pick<TurnScheduler, 'kick'>,
    private readonly logger: Logger,
    /** Observers of each interrupted run (its metrics), after the listeners that record it. */
    private readonly observers: (execution: { agent: RunAgent }) => RunListener[] = () => [],
  ) {}

  async sweep(): Promise<number> {
    const live = await this.prisma.instance.findMany({ where: { expiresAt: { gt: new Date() } }, select: { id: true } });
    const orphans = await this.prisma.execution.findMany({
      where: {
        status: 'RUNNING',
        parentExecutionId: null,
        OR: [{ ownerInstanceId: null }, { ownerInstanceId: { notIn: live.map((instance) => instance.id) } }],
      },
      include: { user: true, agent: { select: { model: true, projectId: true } } },
      take: 100,
    });
    for (const execution of orphans) await this.interrupt(execution);
    return orphans.length;
  }

  private async interrupt(execution: Execution & { user: { locale: string }; agent: RunAgent }): Promise<void> {
    const { recording, conversationLog } = rootRunRecording({ sql: this.sql, bus: this.bus, flushPolicy: this.flushPolicy }, execution, {
      onFlushError: (error) => this.logger.error({ err: error, executionId: execution.id }, 'recording an interruption failed'),
      extraListeners: this.observers(execution),
    });
    // Its calls died with it: a question a tool server asked during one can no longer be answered.
    this.bus.publishThreadEvents(await closeElicitationsOf(this.prisma, execution.threadId, execution.id));
    // The reply as its dead instance last wrote it: its open tool calls are closed as interrupted.
    await conversationLog.open(recording.run);
    const detail = `instance ${execution.ownerInstanceId ?? '(none)'} stopped while running this execution`;
    await recording.settle(interruption(detail, execution.user.locale as Locale));
    this.logger.warn({ executionId: execution.id, instance: execution.ownerInstanceId }, 'execution interrupted');
    this.scheduler.kick(execution.threadId);
  }
}
