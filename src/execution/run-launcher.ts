import type { ModelMessage, ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { Agent, PrismaClient, User } from '../generated/prisma/client.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { isDatabaseOutage } from '../db/outage.ts';
import type { OutagePatience } from '../db/outage-patience.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import { ApplicationError } from '../errors/taxonomy.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { ConversationLog, FlushPolicy } from '../recording/conversation-log.ts';
import { rootRunRecording } from '../recording/root-run-recording.ts';
import type { RunListener, RunState } from '../recording/run-listener.ts';
import { NO_USAGE, type RunEnding, type RunRecording } from '../recording/run-recording.ts';
import { runAgent, type AgentRunResult } from '../runtime/agent-runtime.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { TokenMeter } from '../runtime/token-meter.ts';
import { buildTools, ROOT_ONLY_TOOLS, type DelegationResult, type ToolLabel } from '../runtime/tools.ts';
import { outsideRequestScope } from '../observability/request-id.ts';
import type { ParleyTracing, TurnTrace } from '../observability/tracing.ts';
import type { AdmittedRun } from './admission.ts';
import { answeredQuestion, approvedCall, openingSuspension } from './checkpoint.ts';
import { startChildRun } from './delegation.ts';
import { loadHistory } from './history.ts';
import { abortedEnding, endingOf, endingOfThrown } from './run-ending.ts';
import { TokenBudgetSpent, type RunningExecution, type RunningExecutions } from './running-executions.ts';
import type { Steering } from './steering.ts';
import { tokensUsedToday } from './token-budget.ts';

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
    /** `owner`: whose quota the files of tool results count against, and the reply they are kept with. */
    toolsForRun(
      agent: Agent,
      threadId: string,
      owner: { userId: string; replyMessageId(): string | null },
    ): Promise<{ tools: ToolSet; labels: Map<string, ToolLabel> }>;
  };
  /** Observers of each run (its metrics), after the listeners that record it; `queuedAt` only for a fresh turn. */
  runListeners?: (model: string, queuedAt?: Date) => RunListener[];
  /** Deltas within this window go out to subscribers as one (PARLEY_DELTA_WINDOW_MS). */
  deltaWindowMs?: number;
}

const MAX_STEPS = 16;

/** A turn, ended and recorded. */
export interface RunFinished {
  /** A message waited in the thread's queue when the end was recorded: the thread has a next turn to admit. */
  queuedForNextTurn: boolean;
}

interface RunSetup {
  recording: RunRecording;
  agent: Agent;
  user: User;
  signal: AbortSignal;
  messages: () => Promise<ModelMessage[]>;
  /** The parent's reply log, which a root run offers to the children it delegates to. */
  delegationLog: ConversationLog | null;
  /** Root runs take steered messages at boundaries and can suspend; children do neither. */
  root: boolean;
  /** Recorded right after the run (re)starts: the answer a resumed question card now shows. */
  afterStart?: RuntimeEvent[];
  /** The call an approval let run (a resumed run), shown as CALLED once the run starts. */
  approved?: { toolCallId: string; toolName: string; input: unknown } | null;
  threadId: string;
  /** Counts the tokens of the run and of the children it delegates to, against the daily budget. */
  meter: TokenMeter;
  /** The turn's trace, shared with the children it delegates to. */
  turn: TurnTrace;
}

/**
 * Runs an admitted execution to its end, and the children it delegates to: the runtime returns how
 * the run ended (or throws), and that ending is settled once through the run's recording.
 */
export class RunLauncher {
  private readonly runtime: typeof runAgent;

  constructor(private readonly deps: RunLauncherDeps) {
    this.runtime = deps.runtime ?? runAgent;
  }

  /**
   * Runs an admitted execution; `resumeWith` continues a suspended one from its checkpoint plus
   * the message that resolves it (an approval response or the user's answer). Says whether, when
   * its end was recorded, a message waited in the thread's queue for the next turn.
   */
  async run(admitted: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): Promise<RunFinished> {
    // A turn is not part of the request that happened to kick it (its trace links to the one that queued it).
    return outsideRequestScope(() => this.runTurn(admitted, resumeWith, admissionStartedAt));
  }

  private async runTurn(admitted: AdmittedRun, resumeWith: ModelMessage[] | undefined, admissionStartedAt?: Date): Promise<RunFinished> {
    const answered = resumeWith ? answeredQuestion(resumeWith) : null;
    const { running, logger, prisma } = this.deps;
    const { execution, agent, user, handle } = admitted;
    const turn = this.deps.tracing.startTurn({
      executionId: execution.id,
      threadId: execution.threadId,
      queueItemId: resumeWith ? null : execution.queueItemId,
      admissionStartedAt: resumeWith ? undefined : admissionStartedAt,
    });
    const { recording, conversationLog } = rootRunRecording(this.deps, execution, {
      locale: user.locale as Locale,
      assistantMessageId: admitted.assistantMessageId,
      onFlushError: (error) => logger.error({ err: error, executionId: execution.id }, 'recording streamed text failed'),
      extraListeners: [turn, ...(this.deps.runListeners?.(agent.model, resumeWith ? undefined : admitted.queuedAt) ?? [])],
    });
    handle.showLiveReply(conversationLog);
    try {
      const meter = await this.tokenMeter(agent, user.id, handle);
      await turn.run(() =>
        this.execute({
          recording,
          agent,
          user,
          signal: handle.controller.signal,
          messages: async () => resumeWith ?? loadHistory(this.deps.sql, execution.threadId, execution.id),
          delegationLog: conversationLog,
          root: true,
          afterStart: answered ? [answered] : [],
          approved: resumeWith ? approvedCall(resumeWith) : null,
          threadId: execution.threadId,
          meter,
          turn,
        }),
      );
      return { queuedForNextTurn: recording.queuedForNextTurn };
    } finally {
      running.unregister(execution.id);
      turn.end();
    }
  }

  /**
   * The budget binds while the run streams: what the user's runs of this agent used today is
   * read once at the start, and the run is aborted as soon as it has spent the rest.
   */
  private async tokenMeter(agent: Agent, userId: string, handle: RunningExecution): Promise<TokenMeter> {
    const budget = agent.dailyTokenBudget;
    if (budget === null) return new TokenMeter(null, () => {});
    const left = budget - (await tokensUsedToday(this.deps.prisma, agent.id, userId));
    return new TokenMeter(Math.max(left, 0), () => handle.controller.abort(new TokenBudgetSpent(budget)));
  }

  /** Runs one execution and settles how it ended; the runtime's result, or null when it did not return one. */
  private async execute(setup: RunSetup): Promise<AgentRunResult | null> {
    const { recording, signal, root } = setup;
    const settle = (ending: RunEnding) => setup.turn.inSpan('parley.settlement', () => recording.settle(ending));
    // A Stop that came while the execution was being admitted: it never starts.
    if (signal.aborted) {
      await settle(abortedEnding(signal, NO_USAGE, root));
      return null;
    }
    let result: AgentRunResult;
    try {
      result = await this.runtime(await this.runtimeInput(setup));
    } catch (error) {
      await settle(endingOfThrown(error, signal, root));
      return null;
    }
    await settle(endingOf(result, signal, root, (pending) => openingSuspension(recording.run, { messages: result.messages, pending })));
    return result;
  }

  private async runtimeInput(setup: RunSetup): Promise<Parameters<typeof runAgent>[0]> {
    const { recording, agent, signal } = setup;
    const external = this.deps.tools ? await this.deps.tools.toolsForRun(agent, setup.threadId, { userId: setup.user.id, replyMessageId: () => recording.run.assistantMessageId }) : { tools: {}, labels: new Map<string, ToolLabel>() };
    const builtIn = buildTools(setup.root ? agent.tools : agent.tools.filter((name) => !ROOT_ONLY_TOOLS.has(name)), {
      canDelegate: setup.delegationLog !== null,
      delegate: (message, toolCallId, toolSignal) => this.delegate(setup, setup.delegationLog!, message, toolCallId, toolSignal ?? signal),
    });
    const approved = setup.approved;
    const approvedEvent: RuntimeEvent[] = approved
      ? [{ type: 'tool-call', toolCallId: approved.toolCallId, toolName: external.labels.get(approved.toolName)?.name ?? approved.toolName, input: approved.input, state: 'CALLED', output: null }]
      : [];
    return {
      model: this.resolveModel(agent.model),
      provider: this.deps.models.providerName(agent.model),
      system: agent.systemPrompt,
      messages: await setup.messages(),
      // A delegated child neither waits for the user nor delegates further.
      tools: { ...external.tools, ...builtIn },
      toolLabels: external.labels,
      signal,
      retryPolicy: this.deps.retryPolicy,
      maxSteps: MAX_STEPS,
      emit: async (event) => {
        await recording.emit(event);
        if (event.type === 'run-started') for (const extra of [...(setup.afterStart ?? []), ...approvedEvent]) await recording.emit(extra);
      },
      takeSteeringMessages: setup.root ? () => this.takeSteering(recording.run, recording) : undefined,
      meter: setup.meter,
      tracer: this.deps.tracing.enabled ? this.deps.tracing.tracer : undefined,
    };
  }

  private async takeSteering(state: RunState, recording: RunRecording): Promise<ModelMessage[]> {
    let taken: Awaited<ReturnType<Steering['take']>>;
    try {
      taken = await this.deps.steering.take(state.threadId, state.executionId);
    } catch (error) {
      // The database is out of reach: the run goes on without the steered messages, which stay
      // reserved for its next boundary or go back to the queue when it ends.
      if (!isDatabaseOutage(error)) throw error;
      this.deps.logger.warn({ err: error, executionId: state.executionId }, 'taking steered messages met a database outage');
      return [];
    }
    if (taken.length === 0) return [];
    await recording.emit({ type: 'steered', items: taken });
    return taken.map((item) => ({ role: 'user', content: item.text }));
  }

  /** Runs a child execution for a `delegate` tool call. */
  private async delegate(parent: RunSetup, log: ConversationLog, message: string, toolCallId: string, signal: AbortSignal): Promise<DelegationResult> {
    const observers = this.deps.runListeners?.(parent.agent.model) ?? [];
    const child = await startChildRun(this.deps, { ...parent, log }, message, toolCallId, observers);
    const result = await this.execute({
      recording: child.recording,
      agent: parent.agent,
      user: parent.user,
      signal,
      messages: async () => [{ role: 'user', content: message }],
      threadId: parent.threadId,
      delegationLog: null,
      root: false,
      meter: parent.meter,
      turn: parent.turn,
    });
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    return child.resultOf(result);
  }

  /** A model that cannot be resolved (its provider no longer configured) is the backend refusing the run. */
  private resolveModel(modelId: string) {
    try {
      return this.deps.models.resolve(modelId);
    } catch (error) {
      throw new ApplicationError({
        message: (error as Error).message,
        messageKey: 'error.run_rejected',
        cause: error,
      });
    }
  }
}
