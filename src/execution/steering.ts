import type { LiveBus } from '../events/live-bus.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import { hasSteeringReserved, takeSteeringReserved } from '../storage/run-statements.ts';
import { withThreadLock } from '../storage/session-lock.ts';
import type { SqlClient } from '../storage/sql-client.ts';

export interface SteeredMessage {
  queueId: string;
  text: string;
}

/** Moves reserved queue items into their running execution; the run's settlement returns the rest. */
export class Steering {
  constructor(
    /** The driver under Prisma: the probe runs at every step's end (src/storage/). */
    private readonly sql: SqlClient,
    private readonly bus: LiveBus,
  ) {}

  /**
   * At a boundary: takes the messages reserved for this execution in one transaction (the queue
   * rows go; the caller records the markers), then announces MessageSteered.
   */
  async take(threadId: string, executionId: string): Promise<SteeredMessage[]> {
    // Asked at every boundary of every run, so one plain probe (the items are taken under the lock below).
    if (!(await hasSteeringReserved(this.sql, executionId))) return [];
    const { taken, events } = await withThreadLock(this.sql, threadId, async (tx) => {
      const items = await takeSteeringReserved(tx, executionId);
      if (items.length === 0) return { taken: [], events: [] };
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
