import { prismaRunner } from '../storage/sql-client.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import { STOP_REASON, type RunningExecutions } from './running-executions.ts';
import type { TurnScheduler } from './turn-scheduler.ts';

/**
 * Stop. Taken under the thread's session lock, so it waits for an admission that is still
 * registering the execution's cancellation handle. The answer only says the request was made;
 * the execution's recorded status says when it has ended.
 */
export class CancellationService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
    private readonly running: RunningExecutions,
    private readonly bus: LiveBus,
    private readonly scheduler: Pick<TurnScheduler, 'kick'>,
  ) {}

  async cancel(user: User, executionId: string): Promise<{ cancelRequested: boolean }> {
    const execution = await this.prisma.execution.findUnique({
      where: { id: executionId },
      select: { threadId: true, parentExecutionId: true },
    });
    const askedFor = { entity: 'Execution', id: executionId };
    if (!execution) throw new NotFoundError(askedFor.entity, askedFor.id);
    await this.access.thread(user, execution.threadId, 'agent:execute', askedFor);
    if (execution.parentExecutionId) {
      throw new InvalidInputError('executionId', 'is a delegated child execution; stop the execution it belongs to.');
    }
    const events = await withSessionLock(this.prisma, execution.threadId, async (tx) => {
      const current = await tx.execution.findUniqueOrThrow({ where: { id: executionId } });
      if (current.status !== 'RUNNING' && current.status !== 'SUSPENDED') {
        throw new ConflictError(`This execution has already ended (${current.status}); nothing to stop.`);
      }
      if (current.status === 'SUSPENDED') return this.cancelSuspended(tx, current.threadId, current.id);
      // Recorded first, so the owning instance finds the request even if the relay is lost.
      await tx.execution.update({ where: { id: executionId }, data: { cancelRequestedAt: new Date() } });
      return [] as ThreadEvent[];
    });
    this.bus.publishThreadEvents(events);
    if (events.length > 0) this.scheduler.kick(execution.threadId);
    else this.signal(executionId);
    return { cancelRequested: true };
  }

  /** Aborts the run here if this instance runs it; otherwise tells the owner (it also polls the request). */
  signal(executionId: string): void {
    const local = this.running.get(executionId);
    if (local) local.controller.abort(new Error(STOP_REASON));
    else this.bus.relayToInstances({ kind: 'cancel', executionId });
  }

  /** A suspended execution has no running loop: it ends through its checkpoint, here. */
  private async cancelSuspended(tx: Tx, threadId: string, executionId: string): Promise<ThreadEvent[]> {
    const now = new Date();
    await tx.execution.update({
      where: { id: executionId },
      data: { status: 'CANCELLED', cancelRequestedAt: now, finishedAt: now, acceptsSteering: false },
    });
    const open = await tx.suspension.findMany({ where: { executionId, status: 'OPEN' }, select: { id: true } });
    await tx.suspension.updateMany({
      where: { executionId, status: 'OPEN' },
      data: { status: 'CANCELLED', resolvedAt: now, resolution: { cancelled: true } },
    });
    const released = await tx.queueItem.updateMany({
      where: { steeringExecutionId: executionId },
      data: { steeringExecutionId: null },
    });
    return appendThreadEvents(prismaRunner(tx), threadId, [
      ...open.map((suspension) => ({
        executionId,
        payload: { type: 'SuspensionResolved' as const, suspensionId: suspension.id, resolution: { cancelled: true } },
      })),
      ...(released.count > 0 ? [{ executionId: null, payload: { type: 'QueueUpdated' as const } }] : []),
      { executionId, payload: { type: 'ExecutionFinished', status: 'CANCELLED' } },
    ]);
  }
}
