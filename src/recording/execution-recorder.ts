import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunListener, RunState, Settlement } from './run-listener.ts';

/**
 * Keeps the execution row in step with the run: the failure taxonomy, the final status and usage,
 * written by the settlement's one statement.
 */
export class ExecutionRecorder implements RunListener {
  async handle(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> {
    if (!settlement) return;
    switch (event.type) {
      case 'run-failed':
        await ensureExecution(settlement, run);
        settlement.end = { outcome: settlement.end?.outcome ?? 'FAILED', usage: settlement.end?.usage ?? NO_USAGE, failure: event.failure };
        break;
      case 'run-completed':
        await ensureExecution(settlement, run);
        settlement.end = { outcome: event.outcome, usage: event.usage, failure: settlement.end?.failure ?? null };
        break;
      default:
        break;
    }
  }
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

/** A failure can come before the run started (a backend that refuses it): the row must exist then too. */
async function ensureExecution(settlement: Settlement, run: RunState): Promise<void> {
  if (settlement.executionExists) return;
  settlement.executionExists = true;
  await settlement.tx.execution.create({
    data: {
      id: run.executionId,
      threadId: run.threadId,
      agentId: run.agentId,
      userId: run.userId,
      parentExecutionId: run.parentExecutionId,
      acceptedText: run.acceptedText,
      status: 'RUNNING',
      startedAt: new Date(),
    },
  });
}
