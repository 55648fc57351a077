import type { ModelMessage } from 'ai';
import type { Agent, PrismaClient, User } from '../generated/prisma/client.ts';
import type { ConversationLog } from '../recording/conversation-log.ts';
import { DelegationCard } from '../recording/delegation-card.ts';
import { LiveBroadcaster } from '../recording/live-broadcaster.ts';
import { runStateOf } from '../recording/root-run-recording.ts';
import type { RunEnding } from '../recording/run-ending.ts';
import { ListenerChain, type RunListener } from '../recording/run-listener.ts';
import { RunRecording, type RecordingDeps } from '../recording/run-recording.ts';
import type { RunOutcome } from '../runtime/agent-runtime.ts';
import type { DelegationResult } from '../runtime/tools.ts';

export interface DelegationDeps extends RecordingDeps {
  prisma: PrismaClient;
  instanceId: string;
}

/** The root run a `delegate` tool call comes from. */
export interface DelegatingParent {
  recording: RunRecording;
  agent: Agent;
  user: User;
  /** The parent's reply, which holds the child's card. */
  log: ConversationLog;
}

/** A delegated child run, recorded on its card in the parent's reply; `resultOf` turns its end into the tool's result. */
export interface ChildRun {
  recording: RunRecording;
  resultOf(ending: RunEnding, outcome: RunOutcome | null): DelegationResult;
}

/** Creates a child execution for a `delegate` tool call, with the recording that puts it on its card. */
export async function startChildRun(
  deps: DelegationDeps,
  parent: DelegatingParent,
  message: string,
  toolCallId: string,
  observers: RunListener[],
): Promise<ChildRun> {
  const parentRun = parent.recording.run;
  const child = await deps.prisma.execution.create({
    data: {
      threadId: parentRun.threadId,
      agentId: parent.agent.id,
      userId: parent.user.id,
      parentExecutionId: parentRun.executionId,
      acceptedText: message,
      status: 'RUNNING',
      acceptsSteering: false,
      ownerInstanceId: deps.instanceId,
      startedAt: new Date(),
    },
  });
  const state = runStateOf(child);
  state.assistantMessageId = parentRun.assistantMessageId;
  const chain = new ListenerChain([new DelegationCard(parent.log, toolCallId), new LiveBroadcaster(deps.sql, deps.bus), ...observers]);
  return {
    recording: new RunRecording(deps, chain, state),
    // Its failure is the parent's result, not its crash.
    resultOf: (ending, outcome) => {
      if (ending.failure) return { ok: false, error: ending.failure.message };
      if (!outcome) return { ok: false, error: 'The delegated run failed.' };
      return { ok: true, text: textOfResponse(outcome.messages) };
    },
  };
}

/** The text of the assistant's final answer in a run's response messages. */
function textOfResponse(messages: ModelMessage[]): string {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
