import type { ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { ToolProgress } from '../conversation/parts.ts';
import type { Agent, PrismaClient } from '../generated/prisma/client.ts';
import type { OutagePatience } from '../db/outage-patience.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { FlushPolicy } from '../recording/conversation-log.ts';
import type { RunListener } from '../recording/run-listener.ts';
import type { runAgent } from '../runtime/agent-runtime.ts';
import type { SpendGate } from '../runtime/spend-gate.ts';
import type { ToolLabel } from '../runtime/tools.ts';
import type { BudgetRow } from '../storage/budget-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { ParleyTracing } from '../observability/tracing.ts';
import type { ElicitationAnswer, ElicitationRequest, ElicitationService, ElicitingCall } from './elicitations.ts';
import type { RunningExecutions } from './running-executions.ts';
import type { RunSlots } from './run-slots.ts';
import type { Steering } from './steering.ts';

/** What a run's listeners are told of its agent: the model it runs and the project it is billed to. */
export type RunAgent = Pick<Agent, 'model' | 'projectId'>;

export interface RunLauncherDeps {
  prisma: PrismaClient;
  /** The driver under Prisma: the turn's statements (src/storage/). */
  sql: SqlClient;
  bus: LiveBus;
  models: ModelRegistry;
  running: RunningExecutions;
  retryPolicy: RetryPolicy;
  flushPolicy: FlushPolicy;
  logger: Logger;
  instanceId: string;
  steering: Steering;
  /** Keeps a run's end in memory and retries recording it while the database is out of reach. */
  outagePatience?: OutagePatience;
  /** The agent loop; replaceable so tests can make it end (or throw) the way a broken loop would. */
  runtime?: typeof runAgent;
  tracing: ParleyTracing;
  /** The agent's tools from tool servers, for a run in a thread; none without it. */
  tools?: {
    /**
     * `owner`: whose quota the files of tool results count against, and the reply they are kept
     * with; `reportProgress`: where a running call's progress goes (the run's recording);
     * `askUser`: how a call's server asks the run's user (a question card the call waits for).
     */
    toolsForRun(
      agent: Agent,
      threadId: string,
      owner: { userId: string; replyMessageId(): string | null },
      reportProgress: (toolCallId: string, progress: ToolProgress) => void,
      askUser: (call: Omit<ElicitingCall, 'threadId' | 'executionId'>, request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>,
    ): Promise<{ tools: ToolSet; labels: Map<string, ToolLabel> }>;
  };
  /** A tool server's questions during a call, as cards the call waits for. */
  elicitations?: Pick<ElicitationService, 'ask' | 'closesOf'>;
  /** Observers of each run (its metrics), after the listeners that record it; `queuedAt` only for a fresh turn. */
  runListeners?: (agent: RunAgent, queuedAt?: Date) => RunListener[];
  /**
   * Budgets in money: a gate for each run (a root or a delegated child), asked before each of its
   * model calls and hearing the run; `stop` ends the whole turn. `budgets`: those read at admission.
   */
  spendGate?: (run: { userId: string; agent: Agent; budgets?: BudgetRow[]; stop(reason: Error): void }) => SpendGate & RunListener;
  /** Deltas within this window go out to subscribers as one (PARLEY_DELTA_WINDOW_MS). */
  deltaWindowMs?: number;
  /** This instance's run slots: a launched run holds one until its end is recorded. */
  slots: RunSlots;
  /** A run ended and gave its slot back; `queuedForNextTurn`: a message waited in its thread when the end was recorded. */
  onEnded?: (threadId: string, userId: string, queuedForNextTurn: boolean) => void;
}

