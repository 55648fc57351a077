import type { PrismaClient } from '../generated/prisma/client.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RunListener, RunState, RuntimeEvent, Settlement } from '../runtime/runtime-event.ts';
import { withSessionLock } from '../db/session-lock.ts';

export interface SteeredMessage {
  queueId: string;
  text: string;
}

/** Moves reserved queue items into their running execution, and returns unused reservations. */
export class Steering {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
  ) {}

  /**
   * At a boundary: takes the messages reserved for this execution in one transaction (the queue
   * rows go; the caller records the markers), then announces MessageSteered.
   */
  async take(threadId: string, executionId: string): Promise<SteeredMessage[]> {
    const reserved = await this.prisma.queueItem.count({ where: { steeringExecutionId: executionId } });
    if (reserved === 0) return [];
    const { taken, events } = await withSessionLock(this.prisma, threadId, async (tx) => {
      const items = await tx.queueItem.findMany({
        where: { steeringExecutionId: executionId },
        orderBy: { position: 'asc' },
        select: { id: true, text: true },
      });
      if (items.length === 0) return { taken: [], events: [] };
      await tx.queueItem.deleteMany({ where: { id: { in: items.map((item) => item.id) } } });
      const events = await appendThreadEvents(tx, threadId, [
        {
          executionId,
          payload: { type: 'MessageSteered', queueIds: items.map((item) => item.id), texts: items.map((item) => item.text) },
        },
        { executionId: null, payload: { type: 'QueueUpdated' } },
      ]);
      return { taken: items.map((item) => ({ queueId: item.id, text: item.text })), events };
    });
    this.bus.publishThreadEvents(events);
    return taken;
  }
}

/** In a run's settlement: reserved messages it did not take go back to their saved positions. */
export class ReservationReturn implements RunListener {
  async handle(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> {
    if (event.type !== 'run-completed' || !settlement || run.parentExecutionId) return;
    // Under the session lock no steer can commit meanwhile, so a read decides whether to write.
    const reserved = await settlement.tx.queueItem.count({ where: { steeringExecutionId: run.executionId } });
    if (reserved === 0) return;
    const released = await settlement.tx.queueItem.updateMany({
      where: { steeringExecutionId: run.executionId },
      data: { steeringExecutionId: null },
    });
    if (released.count === 0) return;
    settlement.publish.push(
      ...(await appendThreadEvents(settlement.tx, run.threadId, [{ executionId: null, payload: { type: 'QueueUpdated' } }])),
    );
  }
}
