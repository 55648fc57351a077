import { prismaRunner } from '../storage/sql-client.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { withSessionLock } from '../db/session-lock.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import type { ModelMessage } from 'ai';
import type { AdmittedRun } from './admission.ts';
import type { RunningExecutions } from './running-executions.ts';
import type { RunLauncher } from './run-launcher.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { Logger } from 'pino';
import { claimResumption, recordedResolution } from './suspensions.ts';

/** A suspended execution with no open card: its card was resolved on an instance that runs no turns. */
const HANDED_OFF = { parentExecutionId: null, status: 'SUSPENDED', suspensions: { none: { status: 'OPEN' } } } as const;

/**
 * Resumptions that an instance of role `api` recorded and left for a consumer: the card RESOLVED,
 * the execution still SUSPENDED. Claimed under the thread's session lock, like an admission, so
 * exactly one instance resumes each.
 */
export class HandedOffResumes {
  /** Threads whose handed-off resumption this instance is claiming now. */
  private readonly resuming = new Set<string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly running: RunningExecutions,
    private readonly instanceId: string,
    private readonly bus: LiveBus,
    private readonly launcher: Pick<RunLauncher, 'resume'>,
    private readonly logger: Logger,
  ) {}

  /** Claims and runs the thread's resumption that an api instance handed off, if it has one. */
  async resume(threadId: string): Promise<void> {
    if (this.resuming.has(threadId)) return;
    this.resuming.add(threadId);
    try {
      const claimed = await this.claim(threadId);
      if (!claimed) return;
      this.bus.publishThreadEvents(claimed.events);
      this.launcher.resume(claimed.run, claimed.messages);
    } catch (error) {
      this.logger.error({ err: error, threadId }, 'resuming a handed-off execution failed; the sweep will try again');
    } finally {
      this.resuming.delete(threadId);
    }
  }

  /** The threads with a handed-off resumption (at most `take`). */
  async threads(take = 100): Promise<string[]> {
    const rows = await this.prisma.execution.findMany({ where: HANDED_OFF, select: { threadId: true }, take });
    return rows.map((row) => row.threadId);
  }

  /** Claims the thread's handed-off resumption for this instance; null when it has none (any more). */
  private async claim(threadId: string): Promise<{ run: AdmittedRun; messages: ModelMessage[]; events: ThreadEvent[] } | null> {
    // Read without the lock first: most kicks are for new messages, not resumptions.
    const candidate = await this.prisma.execution.findFirst({ where: { threadId, ...HANDED_OFF }, select: { id: true } });
    if (!candidate) return null;
    let registeredId: string | null = null;
    try {
      return await withSessionLock(this.prisma, threadId, async (tx) => {
        const execution = await tx.execution.findFirst({ where: { id: candidate.id, ...HANDED_OFF }, select: { id: true } });
        if (!execution) return null;
        const suspension = await tx.suspension.findFirst({
          where: { executionId: execution.id, status: 'RESOLVED' },
          orderBy: [{ resolvedAt: 'desc' }, { createdAt: 'desc' }],
          include: { execution: { include: { agent: true, user: true } } },
        });
        if (!suspension) return null;
        const claimed = await claimResumption(tx, this.running, this.instanceId, suspension, recordedResolution(suspension.resolution));
        registeredId = claimed.run.execution.id;
        return { run: claimed.run, messages: claimed.messages, events: await appendThreadEvents(prismaRunner(tx), threadId, claimed.events) };
      });
    } catch (error) {
      // The claim did not commit: the handle must not outlive it.
      if (registeredId) this.running.unregister(registeredId);
      throw error;
    }
  }
}
