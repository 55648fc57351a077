import type { SqlRunner } from '../storage/sql-client.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEventPayload } from '../events/thread-event.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunListener, RunState } from './run-listener.ts';

/**
 * Turns runtime events into durable thread events for subscribers: appended to the thread log first,
 * published after. (Deltas are live only and go out from RunRecording before any listener; the
 * end's events are the settlement's.)
 */
export class LiveBroadcaster implements RunListener {
  constructor(
    private readonly sql: SqlRunner,
    private readonly bus: LiveBus,
  ) {}

  onEvent(event: RuntimeEvent, run: RunState): Promise<void> | void {
    switch (event.type) {
      case 'tool-call':
        return this.appendDurable(run, {
          type: 'ToolCallEvent',
          messageId: run.assistantMessageId ?? '',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          state: event.state,
          input: event.input,
          output: event.output,
          error: event.error ?? null,
          durationMs: event.durationMs ?? null,
        });
      case 'retry-scheduled':
        return this.appendDurable(run, {
          type: 'RetryScheduled',
          attempt: event.attempt,
          delayS: event.delayS,
          reason: event.reason,
        });
      case 'budget-warning':
        return this.appendDurable(run, { type: 'BudgetWarning', ...event.warning });
      default:
        return;
    }
  }

  private async appendDurable(run: RunState, payload: ThreadEventPayload): Promise<void> {
    const event = [{ executionId: run.executionId, parentExecutionId: run.parentExecutionId, payload }];
    const records = await appendThreadEvents(this.sql, run.threadId, event);
    this.bus.publishThreadEvents(records);
  }
}
