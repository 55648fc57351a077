import type { MessagePart } from '../conversation/parts.ts';
import type { LiveBus } from '../events/live-bus.ts';
import { snapshotRecord } from '../events/run-event-stream.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';

/** The abort reason of a Stop: the run ends CANCELLED. */
export const STOP_REASON = 'stopped by the user';

/** The abort reason when the server stops: the run is handed back as interrupted, not cancelled. */
export class ServerShutdown extends Error {
  constructor() {
    super('the server is shutting down');
    this.name = 'ServerShutdown';
  }
}

/**
 * The abort reason when this instance's lease ran out (the database was out of reach for longer):
 * other instances may now take its runs, so they are handed back as interrupted, not finished here.
 */
export class LeaseLost extends Error {
  constructor() {
    super('the instance lease ran out while the database was out of reach');
    this.name = 'LeaseLost';
  }
}

/** The abort reason when a run's user has spent the agent's daily token budget while it ran. */
export class TokenBudgetSpent extends Error {
  constructor(readonly budget: number) {
    super(`the daily token budget of ${budget} was spent while the run streamed`);
    this.name = 'TokenBudgetSpent';
  }
}

export interface LiveReply {
  snapshot(): { messageId: string | null; parts: MessagePart[] };
}

/** One execution this instance runs: how to abort it, and once its recording exists, its live reply. */
export class RunningExecution {
  readonly controller = new AbortController();
  private liveReply: LiveReply | null = null;

  constructor(
    readonly executionId: string,
    readonly threadId: string,
  ) {}

  /** From now on `snapshot()` reads the reply from `reply`, fresher than its last recorded snapshot. */
  showLiveReply(reply: LiveReply): void {
    this.liveReply = reply;
  }

  /** The live assistant message; none (no id, no parts) until the run's recording exists. */
  snapshot(): { messageId: string | null; parts: MessagePart[] } {
    return this.liveReply?.snapshot() ?? { messageId: null, parts: [] };
  }
}

/** Cancellation handles of the executions this instance runs, registered under the session lock. */
export class RunningExecutions {
  private readonly byId = new Map<string, RunningExecution>();

  /**
   * What other instances ask of the runs of this one, by execution id: a Stop (the user's request
   * reached another instance), and the live reply for a subscriber that joined mid-stream there.
   * Returns the function that stops listening.
   */
  answerRelays(bus: LiveBus): () => void {
    return bus.onInstanceMessage((message) => {
      if (message.kind !== 'cancel' && message.kind !== 'snapshot') return;
      const run = this.get(message.executionId);
      if (!run) return;
      if (message.kind === 'cancel') {
        run.controller.abort(new Error(STOP_REASON));
        return;
      }
      const snapshot = run.snapshot();
      if (snapshot.messageId) bus.publishThreadEvents([snapshotRecord(run.threadId, run.executionId, snapshot.messageId, snapshot.parts)]);
    });
  }

  /** Stops recorded while their relay was lost (another instance's, with Redis down) still land: read and applied. */
  async abortRecordedStops(prisma: PrismaClient): Promise<void> {
    if (this.byId.size === 0) return;
    const requested = await prisma.execution.findMany({
      where: { id: { in: [...this.byId.keys()] }, cancelRequestedAt: { not: null } },
      select: { id: true },
    });
    for (const { id } of requested) this.get(id)?.controller.abort(new Error(STOP_REASON));
  }

  register(executionId: string, threadId: string): RunningExecution {
    const entry = new RunningExecution(executionId, threadId);
    this.byId.set(executionId, entry);
    return entry;
  }

  get(executionId: string): RunningExecution | undefined {
    return this.byId.get(executionId);
  }

  unregister(executionId: string): void {
    this.byId.delete(executionId);
  }

  all(): RunningExecution[] {
    return [...this.byId.values()];
  }
}
