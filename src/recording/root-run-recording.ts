import type { Execution } from '../generated/prisma/client.ts';
import { ConversationLog, type FlushPolicy } from './conversation-log.ts';
import { LiveBroadcaster } from './live-broadcaster.ts';
import { ListenerChain, type RunListener, type RunState } from './run-listener.ts';
import { RunRecording, type RecordingDeps } from './run-recording.ts';

export interface RootRunRecordingDeps extends RecordingDeps {
  flushPolicy: FlushPolicy;
}

export type RecordedExecution = Pick<Execution, 'id' | 'threadId' | 'agentId' | 'userId' | 'parentExecutionId' | 'acceptedText'>;

export interface RootRunRecordingOptions {
  /** Reports a batched text write that failed; such a failure does not end the run. */
  onFlushError: (error: unknown) => void;
  /** The reply's message when admission created it already (empty). */
  assistantMessageId?: string;
  /** Listeners after the standard ones (observers: metrics, the turn's trace), which then see everything those recorded. */
  extraListeners?: RunListener[];
}

export interface RootRunRecording {
  recording: RunRecording;
  /** The run's reply as recorded so far, which the run's delegated children write their cards into. */
  conversationLog: ConversationLog;
}

/**
 * How a root run is recorded, whether it runs here or is ended by an interruption: its reply, then
 * the events for subscribers — each listener sees what the ones before it recorded.
 */
export function rootRunRecording(deps: RootRunRecordingDeps, execution: RecordedExecution, options: RootRunRecordingOptions): RootRunRecording {
  const conversationLog = new ConversationLog(deps.sql, deps.flushPolicy, options.onFlushError);
  const chain = new ListenerChain([conversationLog, new LiveBroadcaster(deps.sql, deps.bus), ...(options.extraListeners ?? [])]);
  const state = runStateOf(execution);
  state.assistantMessageId = options.assistantMessageId ?? null;
  return { recording: new RunRecording(deps, chain, state), conversationLog };
}

/** A run's state before its first event. */
export function runStateOf(execution: RecordedExecution): RunState {
  return {
    executionId: execution.id,
    threadId: execution.threadId,
    agentId: execution.agentId,
    userId: execution.userId,
    parentExecutionId: execution.parentExecutionId,
    acceptedText: execution.acceptedText,
    assistantMessageId: null,
    textLength: 0,
    reasoningLength: 0,
  };
}
