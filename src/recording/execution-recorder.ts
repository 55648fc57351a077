import type { Prisma } from '../generated/prisma/client.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { RunListener, RunState, Settlement } from './run-listener.ts';

/** Keeps the execution row in step with the run: the failure taxonomy, the final status and usage. */
export class ExecutionRecorder implements RunListener {
  async handle(event: RuntimeEvent, run: RunState, settlement?: Settlement): Promise<void> {
    if (!settlement) return;
    const { tx } = settlement;
    switch (event.type) {
      case 'run-failed':
        await ensureExecution(settlement, run);
        await tx.execution.update({
          where: { id: run.executionId },
          data: { error: event.failure as unknown as Prisma.InputJsonValue, errorReason: event.failure.reason },
        });
        break;
      case 'run-completed':
        await ensureExecution(settlement, run);
        await tx.execution.update({
          where: { id: run.executionId },
          data: {
            status: event.outcome,
            acceptsSteering: false,
            finishedAt: event.outcome === 'SUSPENDED' ? null : new Date(),
            inputTokens: { increment: event.usage.inputTokens },
            outputTokens: { increment: event.usage.outputTokens },
          },
        });
        break;
      default:
        break;
    }
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
