import type { MessagePart } from '../conversation/parts.ts';

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
