import { appendThreadEvents } from '../events/event-log.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunListener, RunState, Settlement } from './run-listener.ts';

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
