import type { PrismaClient } from '../generated/prisma/client.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import { withSessionLock } from '../db/session-lock.ts';

export interface SteeredMessage {
  queueId: string;
  text: string;
}

/** Moves reserved queue items into their running execution; the run's settlement returns the rest (ReservationReturn). */
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
    // Asked at every boundary of every run, so one plain probe (the items are read under the lock below).
    const [probe] = await this.prisma.$queryRaw<{ reserved: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM "queue_item" WHERE "steeringExecutionId" = ${executionId}) AS "reserved"`;
    if (!probe?.reserved) return [];
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
