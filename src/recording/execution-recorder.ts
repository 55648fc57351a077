import type { RunEnd, RunListener, RunState, Settlement } from './run-listener.ts';

/**
 * Keeps the execution row in step with the run: the failure taxonomy, the final status and usage,
 * written by the settlement's one statement.
 */
export class ExecutionRecorder implements RunListener {
  async onSettle(end: RunEnd, run: RunState, settlement: Settlement): Promise<void> {
    await ensureExecution(settlement, run);
    settlement.end = end;
  }
}

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
