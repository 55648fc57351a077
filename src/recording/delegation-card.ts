import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { ConversationLog } from './conversation-log.ts';
import type { RunEnding } from './run-ending.ts';
import type { Contribution, RunListener, RunState } from './run-listener.ts';

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
    await this.parentLog.writesDone();
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

  /** The parent's reply, with the child's failure on its card, is what the child's end writes. */
  contribute(ending: RunEnding, run: RunState): Contribution {
    if (ending.failure) {
      this.parentLog.openDelegation(this.toolCallId, run.executionId);
      this.parentLog.setDelegationError(run.executionId, ending.failure);
    }
    return { reply: this.parentLog.currentReply() };
  }
}
