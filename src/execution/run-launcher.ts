import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import type { Locale } from '../i18n/catalog.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import { ConversationLog, type FlushPolicy } from '../recording/conversation-log.ts';
import { ExecutionRecorder } from '../recording/execution-recorder.ts';
import { LiveBroadcaster } from '../recording/live-broadcaster.ts';
import { ApplicationError } from '../errors/taxonomy.ts';
import { runAgent } from '../runtime/agent-runtime.ts';
import { ListenerChain, type RunState } from '../runtime/runtime-event.ts';
import { buildTools } from '../runtime/tools.ts';
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
  /** The agent loop; replaceable so tests can make it throw the way a broken loop would. */
  runtime?: typeof runAgent;
}

const HISTORY_MESSAGES = 100;
const MAX_STEPS = 16;

/** Runs an admitted execution to its end; every outcome, failures included, goes through its recording. */
export class RunLauncher {
  private readonly runtime: typeof runAgent;

  constructor(private readonly deps: RunLauncherDeps) {
    this.runtime = deps.runtime ?? runAgent;
  }

  async run(admitted: AdmittedRun): Promise<void> {
    const { prisma, bus, models, running, logger } = this.deps;
    const { execution, agent, user, handle } = admitted;
    const state: RunState = {
      executionId: execution.id,
      threadId: execution.threadId,
      agentId: agent.id,
      userId: user.id,
      parentExecutionId: execution.parentExecutionId,
      acceptedText: execution.acceptedText,
      assistantMessageId: null,
      textLength: 0,
      reasoningLength: 0,
    };
    const conversationLog = new ConversationLog(prisma, this.deps.flushPolicy, (error) =>
      logger.error({ err: error, executionId: execution.id }, 'recording streamed text failed'),
    );
    handle.snapshot = () => conversationLog.snapshot();
    const chain = new ListenerChain([new ExecutionRecorder(prisma), conversationLog, new LiveBroadcaster(prisma, bus)]);
    const recording = new RunRecording(chain, state, user.locale as Locale);
    const signal = handle.controller.signal;
    try {
      const model = this.resolveModel(agent.model);
      const messages = await this.history(execution.threadId, execution.id);
      const result = await this.runtime({
        model,
        provider: models.providerName(agent.model),
        system: agent.systemPrompt,
        messages,
        tools: buildTools(agent.tools),
        signal,
        retryPolicy: this.deps.retryPolicy,
        maxSteps: MAX_STEPS,
        emit: (event) => recording.emit(event),
      });
      if (result.outcome === 'FAILED') throw new Error('runAgent reports failures by throwing');
      await recording.finish(result.outcome, result.usage);
    } catch (error) {
      if (signal.aborted) await recording.finish('CANCELLED', { inputTokens: 0, outputTokens: 0 });
      else await recording.fail(error);
    } finally {
      running.unregister(execution.id);
    }
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

