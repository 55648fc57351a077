import type { RunListener, RunState, Settlement } from './run-listener.ts';

/** In a run's settlement: reserved messages it did not take go back to their saved positions. */
export class ReservationReturn implements RunListener {
  async onSettle(_end: unknown, run: RunState, settlement: Settlement): Promise<void> {
    // Under the session lock no steer can commit meanwhile, so the read with the run's status decides.
    if (run.parentExecutionId || !settlement.reserved) return;
    const released = await settlement.tx.queueItem.updateMany({
      where: { steeringExecutionId: run.executionId },
      data: { steeringExecutionId: null },
    });
    if (released.count > 0) settlement.events.push({ executionId: null, payload: { type: 'QueueUpdated' } });
  }
}
