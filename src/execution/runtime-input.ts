import type { ModelMessage } from 'ai';
import { isDatabaseOutage } from '../db/outage.ts';
import { ApplicationError } from '../errors/taxonomy.ts';
import type { ToolProgress } from '../conversation/parts.ts';
import type { Agent, User } from '../generated/prisma/client.ts';
import type { ConversationLog } from '../recording/conversation-log.ts';
import type { RunRecording } from '../recording/run-recording.ts';
import type { AgentRunInput } from '../runtime/agent-run-input.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import type { SpendGate } from '../runtime/spend-gate.ts';
import type { BudgetRow } from '../storage/budget-statements.ts';
import type { TokenMeter } from '../runtime/token-meter.ts';
import { buildTools, ROOT_ONLY_TOOLS, type ToolContext, type ToolLabel } from '../runtime/tools.ts';
import { clientToolSet, withClientContext, type ClientTurn } from '../runtime/client-tools.ts';
import type { TurnTrace } from '../observability/tracing.ts';
import type { RunLauncherDeps } from './run-launcher-deps.ts';

type AskUser = Parameters<NonNullable<RunLauncherDeps['tools']>['toolsForRun']>[4];
import { PARLEY_PROVIDER_OPTIONS } from '../models/summary-request.ts';

const MAX_STEPS = 16;

/** One execution as the launcher runs it: a turn's root run, or a child it delegates to. */
export interface RunSetup {
  recording: RunRecording;
  agent: Agent;
  user: User;
  signal: AbortSignal;
  messages: () => Promise<ModelMessage[]>;
  /** The root run's reply, which it offers to the children it delegates to; null in a child. */
  delegationLog: ConversationLog | null;
  /** Recorded right after the run (re)starts: the answer a resumed question card now shows. */
  afterStart: RuntimeEvent[];
  /** The call an approval let run (a resumed run), shown as CALLED once the run starts. */
  approved: { toolCallId: string; toolName: string; input: unknown } | null;
  /** Counts the tokens of the run and of the children it delegates to, against the daily budget. */
  meter: TokenMeter;
  /** Budgets in money, asked before each model call of this run. */
  gate: SpendGate | null;
  /** The budgets read at admission, for the children it delegates to (a resumed run reads its own). */
  budgets?: BudgetRow[];
  /** Ends the whole turn (a spent budget, in the root or in a child). */
  stopTurn: (reason: Error) => void;
  /** The turn's trace, shared with the children it delegates to. */
  turn: TurnTrace;
  /** What an AG-UI client offered the turn (frontend tools, context); null in a child and for other turns. */
  clientTurn: ClientTurn | null;
}

/**
 * What the agent loop is given for one execution: its model, history and tools, where its events
 * go (the run's recording), and for a root run where steered messages come from.
 */
export async function runtimeInput(deps: RunLauncherDeps, setup: RunSetup, delegate: ToolContext['delegate']): Promise<AgentRunInput> {
  const { recording, agent, signal } = setup;
  const root = recording.run.parentExecutionId === null;
  const owner = { userId: setup.user.id, replyMessageId: () => recording.run.assistantMessageId };
  // Progress is news for the card, not part of the run: one that cannot be recorded is dropped.
  const reportProgress = (toolCallId: string, progress: ToolProgress) =>
    void Promise.resolve(recording.emit({ type: 'tool-progress', toolCallId, ...progress })).catch((error: unknown) => {
      deps.logger.debug({ err: error, executionId: recording.run.executionId }, 'a tool call’s progress was not recorded');
    });
  const { threadId, executionId } = recording.run;
  const { elicitations } = deps;
  const askUser: AskUser = (call, request, signal) =>
    elicitations ? elicitations.ask({ ...call, threadId, executionId }, request, signal) : Promise.resolve({ action: 'decline' });
  const external = deps.tools
    ? await deps.tools.toolsForRun(agent, threadId, owner, reportProgress, askUser)
    : { tools: {}, labels: new Map<string, ToolLabel>() };
  // A delegated child neither waits for the user nor delegates further.
  const builtIn = buildTools(root ? agent.tools : agent.tools.filter((name) => !ROOT_ONLY_TOOLS.has(name)), { canDelegate: root, delegate });
  const { approved } = setup;
  const afterStart: RuntimeEvent[] = [
    ...setup.afterStart,
    ...(approved
      ? [{ type: 'tool-call' as const, toolCallId: approved.toolCallId, toolName: external.labels.get(approved.toolName)?.name ?? approved.toolName, input: approved.input, state: 'CALLED' as const, output: null }]
      : []),
  ];
  const window = await deps.models.context.windowOf(agent);
  // A server tool keeps its name: a frontend tool of the same name (refused when declared) never shadows it.
  const client = clientToolSet(setup.clientTurn);
  return {
    model: resolveModel(deps, agent.model),
    provider: deps.models.providerName(agent.model),
    system: withClientContext(agent.systemPrompt, setup.clientTurn),
    messages: await setup.messages(),
    tools: { ...client.tools, ...external.tools, ...builtIn },
    clientTools: client.names,
    toolLabels: external.labels,
    signal,
    retryPolicy: deps.retryPolicy,
    maxSteps: MAX_STEPS,
    providerOptions: window === null ? undefined : { [PARLEY_PROVIDER_OPTIONS]: { contextWindowTokens: window } },
    emit: (event) =>
      event.type === 'run-started'
        ? (async () => {
            await recording.emit(event);
            for (const extra of afterStart) await recording.emit(extra);
          })()
        : recording.emit(event),
    takeSteeringMessages: root ? () => takeSteering(deps, recording) : undefined,
    meter: setup.meter,
    gate: setup.gate ?? undefined,
    tracer: deps.tracing.enabled ? deps.tracing.tracer : undefined,
  };
}

async function takeSteering(deps: RunLauncherDeps, recording: RunRecording): Promise<ModelMessage[]> {
  const { threadId, executionId } = recording.run;
  let taken: Awaited<ReturnType<RunLauncherDeps['steering']['take']>>;
  try {
    taken = await deps.steering.take(threadId, executionId);
  } catch (error) {
    // The database is out of reach: the run goes on without the steered messages, which stay
    // reserved for its next boundary or go back to the queue when it ends.
    if (!isDatabaseOutage(error)) throw error;
    deps.logger.warn({ err: error, executionId }, 'taking steered messages met a database outage');
    return [];
  }
  if (taken.length === 0) return [];
  await recording.emit({ type: 'steered', items: taken });
  return taken.map((item) => ({ role: 'user', content: item.text }));
}

/** A model that cannot be resolved (its provider no longer configured) is the backend refusing the run. */
function resolveModel(deps: RunLauncherDeps, modelId: string) {
  try {
    return deps.models.resolve(modelId);
  } catch (error) {
    throw new ApplicationError({ message: (error as Error).message, messageKey: 'error.run_rejected', cause: error });
  }
}
