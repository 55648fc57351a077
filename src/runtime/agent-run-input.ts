import type { Tracer } from '@opentelemetry/api';
import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { RetryPolicy } from '../errors/retry-policy.ts';
import type { RuntimeEvent } from './runtime-event.ts';
import type { SpendGate } from './spend-gate.ts';
import type { TokenMeter } from './token-meter.ts';
import type { ToolLabel } from './tools.ts';

export interface AgentRunInput {
  model: LanguageModel;
  provider: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  retryPolicy: RetryPolicy;
  maxSteps: number;
  /** Where the run's events go, in order (the run's recording). */
  /** Returns nothing when the event was taken in synchronously (a delta, as a rule): the stream goes on without a turn of the microtask queue. */
  emit(event: RuntimeEvent): Promise<void> | void;
  /** Asked at each boundary: user messages the run continues with (steering). */
  takeSteeringMessages?(): Promise<ModelMessage[]>;
  /** Counts the run's tokens as they stream (a budget aborts `signal` through it). */
  meter?: TokenMeter;
  /** Asked before each model request (budgets in money): it may abort `signal`. */
  gate?: SpendGate;
  /** Tools the model knows under another name (a tool server's): the name people see, and whether a crash may repeat them. */
  toolLabels?: ReadonlyMap<string, ToolLabel>;
  /** Tools an AG-UI client declared for this turn (no `execute`): a call to one suspends the run until the client sends its result. */
  clientTools?: ReadonlySet<string>;
  /** Passed to every model call as its provider options (the agent's context window, for the demo model). */
  providerOptions?: SharedV3ProviderOptions;
  /** With a tracer, each model request and tool call is a span (the AI SDK's), and so is each retry's wait. */
  tracer?: Tracer;
}

/** A tool call the run cannot go on without: an approval, the user's answer to a question, or a frontend tool's result. */
export interface PendingToolCall {
  kind: 'APPROVAL' | 'QUESTION' | 'CLIENT_TOOL';
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The AI SDK's approval id (APPROVAL only). */
  approvalId: string | null;
  /** What an approval card shows of a tool-server tool: its server, its name and description, the input. */
  card?: Record<string, unknown>;
}
