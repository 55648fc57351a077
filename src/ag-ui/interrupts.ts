import { contentToText, type Interrupt, type Message, type ResumeEntry } from '@ag-ui/core';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { Resolution } from '../execution/suspensions.ts';
import type { PrismaClient, Suspension } from '../generated/prisma/client.ts';

const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { decision: { type: 'string', enum: ['APPROVE', 'DENY'] } },
  required: ['decision'],
  additionalProperties: false,
};
const QUESTION_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', minLength: 1 } },
  required: ['answer'],
  additionalProperties: false,
};

/** A frontend tool call waits for the client's tool message, not for an interrupt's answer. */
export function isClientToolCall(suspension: Suspension): boolean {
  return suspension.kind === 'CLIENT_TOOL';
}

/** An open approval or question card as an AG-UI interrupt: its id is the suspension's. */
export function interruptOf(suspension: Suspension): Interrupt {
  const payload = (suspension.payload ?? {}) as { action?: unknown; question?: unknown };
  const approval = suspension.kind === 'APPROVAL';
  const message = approval
    ? `Approve ${suspension.toolName}${typeof payload.action === 'string' ? `: ${payload.action}` : ''}?`
    : typeof payload.question === 'string' ? payload.question : `${suspension.toolName} asks a question.`;
  return {
    id: suspension.id,
    reason: approval ? 'tool_approval' : 'question',
    message,
    toolCallId: suspension.toolCallId,
    responseSchema: approval ? APPROVAL_SCHEMA : QUESTION_SCHEMA,
    metadata: { toolName: suspension.toolName, payload: suspension.payload },
  };
}

export function openSuspensions(prisma: PrismaClient, where: { threadId: string } | { executionId: string }): Promise<Suspension[]> {
  return prisma.suspension.findMany({ where: { ...where, status: 'OPEN' }, orderBy: { createdAt: 'asc' } });
}

/**
 * The resolution of each resume entry and frontend tool result, checked before anything changes:
 * every open interrupt of the thread must be answered (as AG-UI says, a run may not go on past an
 * unanswered one) and every frontend tool call it waits for must have its result; an entry must
 * name an interrupt of this thread that is still open, and its payload must match the schema its
 * interrupt gave. A cancelled approval is a denial; a question must be answered.
 */
export async function resolutionsOf(
  prisma: PrismaClient,
  threadId: string,
  open: readonly Suspension[],
  entries: readonly ResumeEntry[],
  toolResults: readonly Extract<Message, { role: 'tool' }>[],
): Promise<{ suspension: Suspension; resolution: Resolution }[]> {
  const unanswered = open.filter((suspension) => !isClientToolCall(suspension) && !entries.some((entry) => entry.interruptId === suspension.id));
  if (unanswered.length > 0) {
    throw new ConflictError(
      `The thread waits for ${unanswered.length} interrupt(s) not addressed by resume: ${unanswered.map((item) => item.id).join(', ')}.`,
    );
  }
  const awaited = open.filter((suspension) => isClientToolCall(suspension) && !toolResults.some((result) => result.toolCallId === suspension.toolCallId));
  if (awaited.length > 0) {
    throw new ConflictError(`The thread waits for the result of frontend tool call(s) ${awaited.map((item) => item.toolCallId).join(', ')}: send a tool message for each.`);
  }
  const resolutions: { suspension: Suspension; resolution: Resolution }[] = toolResults.map((result) => ({
    suspension: open.find((item) => isClientToolCall(item) && item.toolCallId === result.toolCallId)!,
    resolution: { answer: contentToText(result.content), messageId: result.id },
  }));
  for (const entry of entries) {
    const suspension = open.find((item) => item.id === entry.interruptId && !isClientToolCall(item));
    if (!suspension) {
      const known = await prisma.suspension.findFirst({ where: { id: entry.interruptId, threadId }, select: { status: true, kind: true } });
      if (known?.kind === 'CLIENT_TOOL' && known.status === 'OPEN') {
        throw new InvalidInputError('resume', `${entry.interruptId} is a frontend tool call, no interrupt: send its result as a tool message.`);
      }
      if (known) throw new ConflictError(`Interrupt ${entry.interruptId} is already ${known.status.toLowerCase()}.`);
      throw new NotFoundError('Interrupt', entry.interruptId);
    }
    resolutions.push({ suspension, resolution: resolutionOf(suspension, entry) });
  }
  return resolutions;
}

function resolutionOf(suspension: Suspension, entry: ResumeEntry): Resolution {
  const payload = (entry.payload ?? {}) as { decision?: unknown; answer?: unknown };
  if (suspension.kind === 'APPROVAL') {
    if (entry.status === 'cancelled') return { decision: 'DENY' };
    if (payload.decision === 'APPROVE' || payload.decision === 'DENY') return { decision: payload.decision };
    throw new InvalidInputError('resume', `interrupt ${suspension.id} is an approval: its payload is { "decision": "APPROVE" } or { "decision": "DENY" }.`);
  }
  if (entry.status === 'cancelled') {
    throw new InvalidInputError('resume', `interrupt ${suspension.id} is a question: answer it, or stop the run.`);
  }
  if (typeof payload.answer === 'string') return { answer: payload.answer };
  throw new InvalidInputError('resume', `interrupt ${suspension.id} is a question: its payload is { "answer": "…" }.`);
}
