import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunEnd, RunListener, RunState, Settlement } from './run-listener.ts';
import type { ConversationLog } from './conversation-log.ts';

/**
 * Records a delegated child execution on its card (a DelegationPart of the parent's reply) instead
 * of a message of its own: text and reasoning up to the delegation limit, and its failure.
 */
export class DelegationCard implements RunListener {
  constructor(
    private readonly parentLog: ConversationLog,
    private readonly toolCallId: string,
  ) {}

  async drain(): Promise<void> {
    await this.parentLog.drain();
  }

  async onEvent(event: RuntimeEvent, run: RunState): Promise<void> {
    switch (event.type) {
      case 'run-started':
        this.parentLog.openDelegation(this.toolCallId, run.executionId);
        await this.parentLog.flush();
        break;
      case 'text-delta':
        this.parentLog.appendDelegationText(run.executionId, 'text', event.text);
        break;
      case 'reasoning-delta':
        this.parentLog.appendDelegationText(run.executionId, 'reasoning', event.text);
        break;
      case 'boundary':
        await this.parentLog.flush();
        break;
      default:
        break;
    }
  }

  onSettle(end: RunEnd, run: RunState, settlement: Settlement): void {
    if (end.failure) {
      this.parentLog.openDelegation(this.toolCallId, run.executionId);
      this.parentLog.setDelegationError(run.executionId, end.failure);
    }
    this.parentLog.settleInto(settlement);
  }
}
