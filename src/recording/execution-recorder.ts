import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';
import type { RunListener, RunState, RuntimeEvent } from '../runtime/runtime-event.ts';

/** Keeps the execution row in step with the run: start, the failure taxonomy, the final status and usage. */
export class ExecutionRecorder implements RunListener {
  constructor(private readonly prisma: PrismaClient) {}

  async handle(event: RuntimeEvent, run: RunState): Promise<void> {
    switch (event.type) {
      case 'run-started':
        await this.ensureExecution(run);
        break;
      case 'provider-error':
        await this.ensureExecution(run);
        await this.prisma.execution.update({
          where: { id: run.executionId },
          data: { error: event.failure as unknown as Prisma.InputJsonValue, errorReason: event.failure.reason },
        });
        break;
      case 'run-completed':
        await this.ensureExecution(run);
        // A terminal status is final: only a live execution moves on.
        await this.prisma.execution.updateMany({
          where: { id: run.executionId, status: { in: ['RUNNING', 'SUSPENDED'] } },
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

  /** A failure can come before the run started (a backend that refuses it): the row must exist then too. */
  private async ensureExecution(run: RunState): Promise<void> {
    await this.prisma.execution.upsert({
      where: { id: run.executionId },
      update: {},
      create: {
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
}
