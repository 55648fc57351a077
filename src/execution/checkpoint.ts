import { prismaRunner } from '../storage/sql-client.ts';
import type { ModelMessage } from 'ai';
import type { Prisma } from '../generated/prisma/client.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { RunState } from '../recording/run-listener.ts';
import type { BeforeSettle } from '../recording/run-recording.ts';
import type { PendingToolCall } from '../runtime/agent-runtime.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';

/** What a suspended run needs to go on: its conversation so far and the call it waits for. */
export interface Checkpoint {
  messages: ModelMessage[];
  pending: PendingToolCall;
}

/**
 * In the settlement of a suspending run: persists the checkpoint (it survives restarts) and opens
 * the card the user answers — unless a Stop was recorded meanwhile, which then cancels the run.
 */
export function openingSuspension(run: RunState, checkpoint: Checkpoint): BeforeSettle {
  return async (tx, _outcome, settlement) => {
    const { pending } = checkpoint;
    const execution = await tx.execution.findUniqueOrThrow({ where: { id: run.executionId }, select: { cancelRequestedAt: true } });
    if (execution.cancelRequestedAt) return 'CANCELLED';
    const suspension = await tx.suspension.create({
      data: {
        threadId: run.threadId,
        executionId: run.executionId,
        toolCallId: pending.toolCallId,
        toolName: pending.toolName,
        kind: pending.kind,
        payload: (pending.card ?? pending.input ?? {}) as Prisma.InputJsonValue,
        checkpoint: checkpoint as unknown as Prisma.InputJsonValue,
      },
    });
    const opened = {
      type: 'SuspensionOpened' as const,
      suspensionId: suspension.id,
      kind: pending.kind,
      toolCallId: pending.toolCallId,
      payload: pending.card ?? pending.input ?? {},
    };
    settlement.publish.push(...(await appendThreadEvents(prismaRunner(tx), run.threadId, [{ executionId: run.executionId, payload: opened }])));
    return 'SUSPENDED';
  };
}

/** The tool-call update a resumed question shows: answered, with the user's text. */
export function answeredQuestion(messages: ModelMessage[]): RuntimeEvent | null {
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

/** The call an approval let run: it is CALLED from the resumed run's start until its result. */
export function approvedCall(messages: ModelMessage[]): { toolCallId: string; toolName: string; input: unknown } | null {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return null;
  const response = last.content.find((part) => part.type === 'tool-approval-response');
  if (!response || response.type !== 'tool-approval-response' || !response.approved) return null;
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const request = message.content.find((part) => part.type === 'tool-approval-request' && part.approvalId === response.approvalId);
    if (!request || request.type !== 'tool-approval-request') continue;
    const call = message.content.find((part) => part.type === 'tool-call' && part.toolCallId === request.toolCallId);
    if (call && call.type === 'tool-call') return { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
  }
  return null;
}
