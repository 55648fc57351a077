import type { PrismaClient } from '../generated/prisma/client.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RunEventPayload } from '../events/run-event.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunListener, RunState, Settlement } from './run-listener.ts';

/**
 * Turns runtime events into durable RunEvents for subscribers: appended to the thread log first,
 * published after. (Deltas are live only and go out from RunRecording before any listener.)
 */
export class LiveBroadcaster implements RunListener {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
  ) {}

  async handle(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> {
    switch (event.type) {
      case 'tool-call':
        await this.appendDurable(run, {
          type: 'ToolCallEvent',
          messageId: run.assistantMessageId ?? '',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          state: event.state,
          input: event.input,
          output: event.output,
        });
        break;
      case 'retry-scheduled':
        await this.appendDurable(run, {
          type: 'RetryScheduled',
          attempt: event.attempt,
          delayS: event.delayS,
          reason: event.reason,
        });
        break;
      case 'run-failed':
        await this.appendDurable(run, { type: 'ErrorEvent', ...event.failure }, settlement);
        break;
      case 'run-completed':
        // ExecutionFinished ends a turn of the thread; a suspension (the turn goes on later) and a
        // delegated child's end are updates.
        await this.appendDurable(
          run,
          run.parentExecutionId || event.outcome === 'SUSPENDED'
            ? { type: 'ExecutionUpdated', status: event.outcome }
            : { type: 'ExecutionFinished', status: event.outcome },
          settlement,
        );
        break;
      default:
        break;
    }
  }

  private async appendDurable(run: RunState, payload: RunEventPayload, settlement?: Settlement): Promise<void> {
    const event = [{ executionId: run.executionId, parentExecutionId: run.parentExecutionId, payload }];
    if (settlement) {
      settlement.events.push(...event);
      return;
    }
    const records = await appendThreadEvents(this.prisma, run.threadId, event);
    this.bus.publishThreadEvents(records);
  }
}
