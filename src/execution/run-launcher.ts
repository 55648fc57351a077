import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { Agent, PrismaClient, User } from '../generated/prisma/client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import { ApplicationError } from '../errors/taxonomy.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import { ConversationLog, type FlushPolicy } from '../recording/conversation-log.ts';
import { DelegationCard } from '../recording/delegation-card.ts';
import { ExecutionRecorder } from '../recording/execution-recorder.ts';
import { LiveBroadcaster } from '../recording/live-broadcaster.ts';
import { runAgent, type AgentRunResult } from '../runtime/agent-runtime.ts';
import { ListenerChain, type RunListener, type RunState } from '../runtime/runtime-event.ts';
import { buildTools, type DelegationResult } from '../runtime/tools.ts';
import type { AdmittedRun } from './admission.ts';
import { RunRecording } from './run-recording.ts';
import type { RunningExecutions } from './running-executions.ts';

export interface RunLauncherDeps {
  prisma: PrismaClient;
  bus: LiveBus;
  models: ModelRegistry;
  running: RunningExecutions;
  retryPolicy: RetryPolicy;
  flushPolicy: FlushPolicy;
  logger: Logger;
  instanceId: string;
  /** The agent loop; replaceable so tests can make it fail the way a broken loop would. */
  runtime?: typeof runAgent;
}

const HISTORY_MESSAGES = 100;
const MAX_STEPS = 16;

interface RunSetup {
  state: RunState;
  agent: Agent;
  user: User;
  listeners: RunListener[];
  signal: AbortSignal;
  messages: () => Promise<ModelMessage[]>;
  /** The parent's reply log, which a root run offers to the children it delegates to. */
  delegationLog: ConversationLog | null;
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

  async run(admitted: AdmittedRun): Promise<void> {
    const { prisma, bus, running, logger } = this.deps;
    const { execution, agent, user, handle } = admitted;
    const conversationLog = new ConversationLog(prisma, this.deps.flushPolicy, (error) =>
      logger.error({ err: error, executionId: execution.id }, 'recording streamed text failed'),
    );
    handle.snapshot = () => conversationLog.snapshot();
    try {
      await this.execute({
        state: newRunState(execution.id, execution.threadId, agent, user, null, execution.acceptedText),
        agent,
        user,
        listeners: [new ExecutionRecorder(prisma), conversationLog, new LiveBroadcaster(prisma, bus)],
        signal: handle.controller.signal,
        messages: () => this.history(execution.threadId, execution.id),
        delegationLog: conversationLog,
      });
    } finally {
      running.unregister(execution.id);
    }
  }

  private async execute(setup: RunSetup): Promise<AgentRunResult | null> {
    const { state, agent, user, signal } = setup;
    const recording = new RunRecording(new ListenerChain(setup.listeners), state, user.locale as Locale);
    try {
      const model = this.resolveModel(agent.model);
      const result = await this.runtime({
        model,
        provider: this.deps.models.providerName(agent.model),
        system: agent.systemPrompt,
        messages: await setup.messages(),
        tools: buildTools(agent.tools, {
          canDelegate: setup.delegationLog !== null,
          delegate: (message, toolCallId, toolSignal) =>
            this.delegate(setup, setup.delegationLog!, message, toolCallId, toolSignal ?? signal),
        }),
        signal,
        retryPolicy: this.deps.retryPolicy,
        maxSteps: MAX_STEPS,
        emit: (event) => recording.emit(event),
      });
      await recording.finish(result.outcome, result.usage);
      return result;
    } catch (error) {
      if (signal.aborted) await recording.finish('CANCELLED', { inputTokens: 0, outputTokens: 0 });
      else await recording.fail(error);
      return null;
    }
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
        threadId: parent.state.threadId,
        agentId: parent.agent.id,
        userId: parent.user.id,
        parentExecutionId: parent.state.executionId,
        acceptedText: message,
        status: 'RUNNING',
        acceptsSteering: false,
        ownerInstanceId: this.deps.instanceId,
        startedAt: new Date(),
      },
    });
    const state = newRunState(child.id, child.threadId, parent.agent, parent.user, parent.state.executionId, message);
    state.assistantMessageId = parent.state.assistantMessageId;
    let failure: string | null = null;
    const result = await this.execute({
      state,
      agent: parent.agent,
      user: parent.user,
      listeners: [
        new ExecutionRecorder(prisma),
        new DelegationCard(parentLog, toolCallId),
        {
          handle: (event) => {
            if (event.type === 'provider-error') failure = event.failure.message;
          },
        },
        new LiveBroadcaster(prisma, bus),
      ],
      signal,
      messages: async () => [{ role: 'user', content: message }],
      delegationLog: null,
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

  private async history(threadId: string, executionId: string): Promise<ModelMessage[]> {
    const rows = await this.deps.prisma.message.findMany({
      where: { threadId, NOT: { executionId, role: 'ASSISTANT' } },
      orderBy: { seq: 'desc' },
      take: HISTORY_MESSAGES,
      select: { role: true, parts: true },
    });
    return rows
      .reverse()
      .map((row) => ({ role: row.role === 'USER' ? 'user' : 'assistant', text: textOf(row.parts as MessagePart[]) }) as const)
      .filter((message) => message.text.length > 0)
      .map((message) => ({ role: message.role, content: message.text }));
  }
}

function newRunState(
  executionId: string,
  threadId: string,
  agent: Agent,
  user: User,
  parentExecutionId: string | null,
  acceptedText: string,
): RunState {
  return {
    executionId,
    threadId,
    agentId: agent.id,
    userId: user.id,
    parentExecutionId,
    acceptedText,
    assistantMessageId: null,
    textLength: 0,
    reasoningLength: 0,
  };
}

/** The text of the assistant's final answer in a run's response messages. */
function textOfResponse(messages: ModelMessage[]): string {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
