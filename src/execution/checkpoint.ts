import type { ModelMessage } from 'ai';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { QUESTION_TOOL } from '../runtime/tools.ts';

// A resumed run's first events, read from the message that resumes it.

/** The tool-call update a resumed question or frontend tool call shows: answered, with the user's text or the client's result. */
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
    output: result.toolName === QUESTION_TOOL ? { answer: result.output.value } : result.output.value,
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
