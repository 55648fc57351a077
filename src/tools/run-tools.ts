import { trace } from '@opentelemetry/api';
import { jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { ToolProgress } from '../conversation/parts.ts';
import type { Agent, PrismaClient, ToolServer } from '../generated/prisma/client.ts';
import { modelToolName, type ToolLabel, type ToolOutcome } from '../runtime/tools.ts';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { approvalOf, parseApprovals } from './approvals.ts';
import type { RequestedSchema } from '../domain/elicitation-form.ts';
import type { Elicit } from './elicitation-routing.ts';
import type { ToolServerConnection } from './connections.ts';
import type { ToolSettings } from './settings.ts';
import { qualifiedToolName, safeToRepeat, splitToolName, type ToolInfo } from './tool-catalog.ts';
import { filesOf, type ToolFileOwner, type ToolFiles } from './tool-files.ts';
import { projectServers } from './tool-names.ts';
import { boundedOutput } from './tool-output.ts';
import { ToolServerFailure } from './tool-server-failure.ts';

/** The tools a run may use from tool servers, as the AI SDK takes them, with what people see of each. */
export interface RunTools {
  tools: ToolSet;
  labels: Map<string, ToolLabel>;
}

/** Told of a running call's progress, by the AI SDK's id of the call (its part's toolCallId). */
export type ProgressReport = (toolCallId: string, progress: ToolProgress) => void;

/** Asks the run's user what a call's server elicits, by the call's id and `<server>/<tool>` (see ElicitationService). */
export type AskUser = (
  call: { toolCallId: string; toolName: string; server: string; tool: string },
  request: { message: string; requestedSchema: RequestedSchema },
  signal: AbortSignal,
) => Promise<ElicitResult>;

/** The longest progress message kept: a server's words on a card, not its output. */
const PROGRESS_MESSAGE_CHARS = 500;

/** Told of each finished call (metrics); never of its input or output. */
export type ToolCallObserver = (call: { server: string; tool: string; outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELLED'; durationMs: number }) => void;

/**
 * A run's tool-server tools, each calling its server through the instance's connection: the call's
 * span and metrics, its output bounded, its files kept as the reply's attachments, and any failure
 * handed to the model as the tool's result.
 */
export class RunToolBuilder {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly connectionOf: (row: ToolServer) => ToolServerConnection,
    private readonly files: ToolFiles,
    private readonly settings: ToolSettings,
    private readonly logger: Logger,
    private readonly observeCall: ToolCallObserver,
  ) {}

  /**
   * The agent's tool-server tools for a run in `threadId`: each asks for approval unless the
   * agent's policy says NEVER or the thread's user allowed it in this thread. The files their
   * results carry are kept for `owner` (as attachments of the run's reply).
   */
  async toolsFor(agent: Agent, threadId: string, owner?: ToolFileOwner, reportProgress?: ProgressReport, askUser?: AskUser): Promise<RunTools> {
    const run: RunTools = { tools: {}, labels: new Map() };
    const wanted = agent.tools.map(splitToolName).filter((entry) => entry !== null);
    if (wanted.length === 0) return run;
    const [servers, allowances] = await Promise.all([
      projectServers(this.prisma, agent.projectId, { name: { in: [...new Set(wanted.map((entry) => entry.server))] } }),
      this.prisma.threadToolAllowance.findMany({ where: { threadId }, select: { tool: true } }),
    ]);
    const allowed = new Set(allowances.map((entry) => entry.tool));
    const approvals = parseApprovals(agent.toolApprovals);
    for (const server of servers) {
      const names = new Set(wanted.filter((entry) => entry.server === server.name).map((entry) => entry.tool));
      for (const info of server.tools as unknown as ToolInfo[]) {
        if (!names.has('*') && !names.has(info.name)) continue;
        const qualified = qualifiedToolName(server.name, info.name);
        const modelName = modelToolName(qualified);
        const needsApproval = approvalOf(approvals, qualified) !== 'NEVER' && !allowed.has(qualified);
        run.labels.set(modelName, {
          name: qualified,
          safeToRepeat: safeToRepeat(info),
          card: { server: server.name, tool: info.name, description: info.description },
        });
        run.tools[modelName] = tool({
          description: info.description || `${info.name} of the tool server ${server.name}.`,
          inputSchema: jsonSchema<Record<string, unknown>>(info.inputSchema as never),
          // A call asked about before keeps needing its approval, so the one given is honoured (the
          // SDK treats an approval of a call that no longer needs one as a denial).
          needsApproval: (_input, { toolCallId, messages }) => needsApproval || askedBefore(messages, toolCallId),
          execute: (input, { abortSignal, toolCallId }) =>
            this.call(server, info.name, input ?? {}, abortSignal, owner, {
              onProgress: reportProgress && ((progress) => reportProgress(toolCallId, progress)),
              elicit:
                askUser &&
                ((request, signal) =>
                  askUser({ toolCallId, toolName: qualified, server: server.name, tool: info.name }, request as never, abortSignal ? AbortSignal.any([signal, abortSignal]) : signal)),
            }),
          toModelOutput: ({ output }) =>
            output.ok ? { type: 'text', value: output.text } : { type: 'error-text', value: output.error ?? 'the tool failed.' },
        });
      }
    }
    return run;
  }

  private async call(
    server: ToolServer,
    toolName: string,
    input: Record<string, unknown>,
    signal: AbortSignal | undefined,
    owner: ToolFileOwner | undefined,
    { onProgress, elicit }: { onProgress?: (progress: ToolProgress) => void; elicit?: Elicit },
  ): Promise<ToolOutcome> {
    const startedAt = performance.now();
    // The AI SDK's span of this call (ai.toolCall) is the active one: it learns which server and
    // tool answered and how, never the input or the output.
    const span = trace.getActiveSpan();
    span?.setAttributes({ 'parley.tool.server': server.name, 'parley.tool.name': toolName });
    const done = (outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELLED') => {
      span?.setAttribute('parley.tool.outcome', outcome);
      this.observeCall({ server: server.name, tool: toolName, outcome, durationMs: performance.now() - startedAt });
    };
    const failed = (error: string): ToolOutcome => {
      done('FAILED');
      return { toolOutcome: true, ok: false, text: '', truncated: false, error, attachments: [] };
    };
    const timeoutMs = server.timeoutMs ?? this.settings.PARLEY_TOOL_TIMEOUT_MS;
    try {
      const result = await this.connectionOf(server).call(toolName, input, {
        signal: signal ?? new AbortController().signal,
        timeoutMs,
        onProgress: onProgress && ((reported) => onProgress(progressOf(reported))),
        elicit,
      });
      const maxBytes = this.settings.PARLEY_TOOL_OUTPUT_MAX_BYTES;
      if (result.isError) return failed(boundedOutput(result, maxBytes).text || 'the tool reported an error without a message.');
      const { kept, notes } = await this.files.keep(filesOf(result, toolName), owner);
      const output = boundedOutput(result, maxBytes, notes);
      done('SUCCEEDED');
      return { toolOutcome: true, ok: true, text: output.text, truncated: output.truncated, error: null, attachments: kept };
    } catch (error) {
      if (signal?.aborted) {
        done('CANCELLED');
        throw signal.reason ?? error;
      }
      if (error instanceof ToolServerFailure) return failed(`${server.name}: ${error.message}`);
      this.logger.warn({ err: error, toolServer: server.name, tool: toolName }, 'a tool call failed unexpectedly');
      return failed(`${server.name}: the call failed (${(error as Error)?.name ?? 'error'}).`);
    }
  }
}

/** A server's progress report as a card shows it: its numbers as sent (the SDK checked them), its message bounded. */
function progressOf(reported: { progress: number; total?: number; message?: string }): ToolProgress {
  return {
    progress: reported.progress,
    total: reported.total ?? null,
    message: reported.message === undefined ? null : reported.message.slice(0, PROGRESS_MESSAGE_CHARS),
  };
}

function askedBefore(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId),
  );
}
