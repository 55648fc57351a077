import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { Agent, Prisma, PrismaClient, User } from '../generated/prisma/client.ts';
import { isDatabaseOutage } from '../db/outage.ts';
import type { OutagePatience } from '../db/outage-patience.ts';
import type { Tx } from '../db/session-lock.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import { ApplicationError } from '../errors/taxonomy.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import type { ConversationLog, FlushPolicy } from '../recording/conversation-log.ts';
import { DelegationCard } from '../recording/delegation-card.ts';
import { ExecutionRecorder } from '../recording/execution-recorder.ts';
import { LiveBroadcaster } from '../recording/live-broadcaster.ts';
import { rootRunRecording, runStateOf } from '../recording/root-run-recording.ts';
import { ListenerChain, type RunState, type Settlement } from '../recording/run-listener.ts';
import { RunRecording } from '../recording/run-recording.ts';
import { runAgent, type AgentRunResult, type PendingToolCall } from '../runtime/agent-runtime.ts';
import type { RunOutcome, RunUsage, RuntimeEvent } from '../runtime/runtime-event.ts';
import { TokenMeter } from '../runtime/token-meter.ts';
import { buildTools, ROOT_ONLY_TOOLS, type DelegationResult } from '../runtime/tools.ts';
import type { AdmittedRun } from './admission.ts';
import { LeaseLost, ServerShutdown, TokenBudgetSpent, type RunningExecution, type RunningExecutions } from './running-executions.ts';
import { tokenBudgetSpentError, tokensUsedToday } from './token-budget.ts';
import type { Steering } from './steering.ts';
import { outsideRequestScope } from '../observability/request-id.ts';
import type { ParleyTracing, TurnTrace } from '../observability/tracing.ts';
import type { RunListener } from '../recording/run-listener.ts';

export interface RunLauncherDeps {
  prisma: PrismaClient;
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
  /** The agent loop; replaceable so tests can make it fail the way a broken loop would. */
  runtime?: typeof runAgent;
  tracing: ParleyTracing;
  /** Observers of each run (its metrics), after the listeners that record it; `queuedAt` only for a fresh turn. */
  runListeners?: (model: string, queuedAt?: Date) => RunListener[];
}

/** What a suspended run needs to go on: its conversation so far and the call it waits for. */
export interface Checkpoint {
  messages: ModelMessage[];
  pending: PendingToolCall;
}

const HISTORY_MESSAGES = 100;
const MAX_STEPS = 16;

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
  /** Counts the tokens of the run and of the children it delegates to, against the daily budget. */
  meter: TokenMeter;
  /** The turn's trace, shared with the children it delegates to. */
  turn: TurnTrace;
}

/**
 * Runs an admitted execution to its end, and the children it delegates to. Every outcome,
 * failures included, goes through the run's recording and so through its listener chain.
 */
export class RunLauncher {
  private readonly runtime: typeof runAgent;

  constructor(private readonly deps: RunLauncherDeps) {
    this.runtime = deps.runtime ?? runAgent;
  }

  /**
   * Runs an admitted execution; `resumeWith` continues a suspended one from its checkpoint plus
   * the message that resolves it (an approval response or the user's answer).
   */
  async run(admitted: AdmittedRun, resumeWith?: ModelMessage[], admissionStartedAt?: Date): Promise<void> {
    // A turn is not part of the request that happened to kick it (its trace links to the one that queued it).
    return outsideRequestScope(() => this.runTurn(admitted, resumeWith, admissionStartedAt));
  }

  private async runTurn(admitted: AdmittedRun, resumeWith: ModelMessage[] | undefined, admissionStartedAt?: Date): Promise<void> {
    const answered = resumeWith ? answeredQuestion(resumeWith) : null;
    const { running, logger } = this.deps;
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
    handle.snapshot = () => conversationLog.snapshot();
    try {
      const meter = await this.tokenMeter(agent, user.id, handle);
      await turn.run(() => this.execute({
        recording,
        agent,
        user,
        signal: handle.controller.signal,
        messages: async () => resumeWith ?? this.history(execution.threadId, execution.id),
        delegationLog: conversationLog,
        root: true,
        afterStart: answered ? [answered] : [],
        meter,
        turn,
      }));
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

  private async execute(setup: RunSetup): Promise<AgentRunResult | null> {
    const { recording, agent, signal } = setup;
    const state = recording.run;
    try {
      const settle = (work: () => Promise<void>) => setup.turn.inSpan('parley.settlement', work);
      // A Stop that came while the execution was being admitted: it never starts.
      if (signal.aborted) {
        await settle(() => finishAborted(recording, signal, { inputTokens: 0, outputTokens: 0 }, setup.root));
        return null;
      }
      const model = this.resolveModel(agent.model);
      const result = await this.runtime({
        model,
        provider: this.deps.models.providerName(agent.model),
        system: agent.systemPrompt,
        messages: await setup.messages(),
        // A delegated child neither waits for the user nor delegates further.
        tools: buildTools(setup.root ? agent.tools : agent.tools.filter((name) => !ROOT_ONLY_TOOLS.has(name)), {
          canDelegate: setup.delegationLog !== null,
          delegate: (message, toolCallId, toolSignal) =>
            this.delegate(setup, setup.delegationLog!, message, toolCallId, toolSignal ?? signal),
        }),
        signal,
        retryPolicy: this.deps.retryPolicy,
        maxSteps: MAX_STEPS,
        emit: async (event) => {
          await recording.emit(event);
          if (event.type === 'run-started') for (const extra of setup.afterStart ?? []) await recording.emit(extra);
        },
        takeSteeringMessages: setup.root ? () => this.takeSteering(state, recording) : undefined,
        meter: setup.meter,
        tracer: this.deps.tracing.enabled ? this.deps.tracing.tracer : undefined,
      });
      const pending = result.pending;
      await settle(async () => {
        if (signal.aborted) await finishAborted(recording, signal, result.usage, setup.root);
        else if (result.outcome === 'SUSPENDED' && pending && setup.root) {
          await recording.finish('SUSPENDED', result.usage, (tx, outcome, settlement) =>
            this.openCard(tx, settlement, state, { messages: result.messages, pending }),
          );
        } else await recording.finish(result.outcome === 'SUSPENDED' ? 'CANCELLED' : result.outcome, result.usage);
      });
      return result;
    } catch (error) {
      await setup.turn.inSpan('parley.settlement', async () => {
        if (signal.aborted) await finishAborted(recording, signal, { inputTokens: 0, outputTokens: 0 }, setup.root);
        else await recording.fail(error);
      });
      return null;
    }
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

  /**
   * In the settlement of a suspending run: persists the checkpoint (it survives restarts) and opens
   * the card the user answers — unless a Stop was recorded meanwhile, which then cancels the run.
   */
  private async openCard(tx: Tx, settlement: Settlement, state: RunState, checkpoint: Checkpoint): Promise<RunOutcome> {
    const { pending } = checkpoint;
    const execution = await tx.execution.findUniqueOrThrow({
      where: { id: state.executionId },
      select: { cancelRequestedAt: true },
    });
    if (execution.cancelRequestedAt) return 'CANCELLED';
    const suspension = await tx.suspension.create({
      data: {
        threadId: state.threadId,
        executionId: state.executionId,
        toolCallId: pending.toolCallId,
        toolName: pending.toolName,
        kind: pending.kind,
        payload: (pending.input ?? {}) as Prisma.InputJsonValue,
        checkpoint: checkpoint as unknown as Prisma.InputJsonValue,
      },
    });
    settlement.publish.push(
      ...(await appendThreadEvents(tx, state.threadId, [
        {
          executionId: state.executionId,
          payload: {
            type: 'SuspensionOpened',
            suspensionId: suspension.id,
            kind: pending.kind,
            toolCallId: pending.toolCallId,
            payload: pending.input ?? {},
          },
        },
      ])),
    );
    return 'SUSPENDED';
  }

  /** Runs a child execution for a `delegate` tool call; its failure is the parent's result, not its crash. */
  private async delegate(
    parent: RunSetup,
    parentLog: ConversationLog,
    message: string,
    toolCallId: string,
    signal: AbortSignal,
  ): Promise<DelegationResult> {
    const { prisma, bus } = this.deps;
    const child = await prisma.execution.create({
      data: {
        threadId: parent.recording.run.threadId,
        agentId: parent.agent.id,
        userId: parent.user.id,
        parentExecutionId: parent.recording.run.executionId,
        acceptedText: message,
        status: 'RUNNING',
        acceptsSteering: false,
        ownerInstanceId: this.deps.instanceId,
        startedAt: new Date(),
      },
    });
    const state = runStateOf(child);
    state.assistantMessageId = parent.recording.run.assistantMessageId;
    let failure: string | null = null;
    const chain = new ListenerChain([
      new ExecutionRecorder(),
      new DelegationCard(parentLog, toolCallId),
      {
        handle: (event) => {
          if (event.type === 'run-failed') failure = event.failure.message;
        },
      },
      new LiveBroadcaster(prisma, bus),
      ...(this.deps.runListeners?.(parent.agent.model) ?? []),
    ]);
    const result = await this.execute({
      recording: new RunRecording(this.deps, chain, state, parent.user.locale as Locale),
      agent: parent.agent,
      user: parent.user,
      signal,
      messages: async () => [{ role: 'user', content: message }],
      delegationLog: null,
      root: false,
      meter: parent.meter,
      turn: parent.turn,
    });
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    if (failure !== null || !result) return { ok: false, error: failure ?? 'The delegated run failed.' };
    return { ok: true, text: textOfResponse(result.messages) };
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

  /** Earlier turns as text; the current turn's message with its attachments as files. */
  private async history(threadId: string, executionId: string): Promise<ModelMessage[]> {
    const rows = await this.deps.prisma.message.findMany({
      where: { threadId, NOT: { executionId, role: 'ASSISTANT' } },
      orderBy: { seq: 'desc' },
      take: HISTORY_MESSAGES,
      select: { id: true, role: true, parts: true, executionId: true },
    });
    const messages: ModelMessage[] = [];
    for (const row of rows.reverse()) {
      const text = textOf(row.parts as MessagePart[]);
      if (row.role === 'ASSISTANT') {
        if (text.length > 0) messages.push({ role: 'assistant', content: text });
        continue;
      }
      // Only this turn's own message hands its files to the model, and only when it has any.
      const files =
        row.executionId === executionId && (row.parts as MessagePart[]).some((part) => part.type === 'attachment')
          ? await this.deps.prisma.attachment.findMany({ where: { messageId: row.id }, orderBy: { createdAt: 'asc' } })
          : [];
      if (files.length === 0) {
        if (text.length > 0) messages.push({ role: 'user', content: text });
        continue;
      }
      messages.push({
        role: 'user',
        content: [
          { type: 'text', text },
          ...files.map((file) => ({ type: 'file' as const, data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')), mediaType: file.mediaType, filename: file.filename })),
        ],
      });
    }
    return messages;
  }
}

/** The text of the assistant's final answer in a run's response messages. */
function textOfResponse(messages: ModelMessage[]): string {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The tool-call update a resumed question shows: answered, with the user's text. */
function answeredQuestion(messages: ModelMessage[]): RuntimeEvent | null {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return null;
  const result = last.content.find((part) => part.type === 'tool-result');
  if (!result || result.type !== 'tool-result' || result.output.type !== 'text') return null;
  return {
    type: 'tool-call',
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    input: null,
    state: 'SUCCEEDED',
    output: { answer: result.output.value },
  };
}

/**
 * A Stop cancels; a server shutdown hands the run back as interrupted, with its error; a spent
 * budget refuses the rest of the run, with the limit as the one error of the turn (on the root
 * run, not again on a delegated child).
 */
async function finishAborted(recording: RunRecording, signal: AbortSignal, usage: RunUsage, root: boolean): Promise<void> {
  if (signal.reason instanceof ServerShutdown) {
    await recording.interrupt('the server shut down while running this execution');
  } else if (signal.reason instanceof LeaseLost) {
    await recording.interrupt(signal.reason.message);
  } else if (signal.reason instanceof TokenBudgetSpent) {
    if (root) await recording.refuse(tokenBudgetSpentError(signal.reason.budget), usage);
    else await recording.finish('REFUSED', usage);
  } else {
    await recording.finish('CANCELLED', usage);
  }
}
