import type { MessagePart } from '../conversation/parts.ts';
import { ERROR_REASONS } from '../errors/taxonomy.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import { requireViewer } from './context.ts';
import { builder, type BuilderTypes } from './builder.ts';
import { decodeId, encodeId, encodeOptionalId } from './ids.ts';

export const ErrorReasonEnum = builder.enumType('ErrorReason', { values: ERROR_REASONS });

export const ExecutionStatusEnum = builder.enumType('ExecutionStatus', {
  values: ['RUNNING', 'SUSPENDED', 'COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'REFUSED'] as const,
});

export const ToolCallStateEnum = builder.enumType('ToolCallState', {
  values: ['CALLED', 'SUCCEEDED', 'FAILED', 'AWAITING_APPROVAL', 'AWAITING_ANSWER', 'DENIED'] as const,
});

export const MessageRoleEnum = builder.enumType('MessageRole', { values: ['USER', 'ASSISTANT'] as const });

/** The full failure taxonomy (SPEC §5), identical on ErrorPart, Execution.error and ErrorEvent. */
export function failureFields<Parent>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Parent>,
  failureOf: (parent: Parent) => RecordedFailure,
) {
  return {
    reason: t.field({ type: ErrorReasonEnum, resolve: (parent) => failureOf(parent).reason }),
    retryable: t.boolean({ resolve: (parent) => failureOf(parent).retryable }),
    retryAfterS: t.float({ nullable: true, resolve: (parent) => failureOf(parent).retryAfterS }),
    message: t.string({
      description: 'Localized copy in the language of the run’s user.',
      resolve: (parent) => failureOf(parent).message,
    }),
    messageKey: t.string({
      description: 'Catalog key of `message`, to re-localize.',
      resolve: (parent) => failureOf(parent).messageKey,
    }),
    params: t.field({ type: 'JSON', resolve: (parent) => failureOf(parent).params }),
    provider: t.string({ nullable: true, resolve: (parent) => failureOf(parent).provider }),
    httpStatus: t.int({ nullable: true, resolve: (parent) => failureOf(parent).httpStatus }),
    providerCode: t.string({ nullable: true, resolve: (parent) => failureOf(parent).providerCode }),
    requestId: t.string({ nullable: true, resolve: (parent) => failureOf(parent).requestId }),
    detail: t.string({
      description: 'The provider’s own technical message (for a details view, not the headline).',
      resolve: (parent) => failureOf(parent).detail,
    }),
  };
}

export const ExecutionErrorRef = builder.objectRef<RecordedFailure>('ExecutionError').implement({
  fields: (t) => failureFields(t, (failure) => failure),
});

type PartOf<T extends MessagePart['type']> = Extract<MessagePart, { type: T }>;

const TextPart = builder.objectRef<PartOf<'text'>>('TextPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'text',
  fields: (t) => ({ text: t.exposeString('text') }),
});
const ReasoningPart = builder.objectRef<PartOf<'reasoning'>>('ReasoningPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'reasoning',
  fields: (t) => ({ text: t.exposeString('text') }),
});
const ToolCallPart = builder.objectRef<PartOf<'tool-call'>>('ToolCallPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'tool-call',
  fields: (t) => ({
    toolCallId: t.exposeString('toolCallId'),
    toolName: t.exposeString('toolName'),
    state: t.field({ type: ToolCallStateEnum, resolve: (part) => part.state }),
    input: t.field({ type: 'JSON', nullable: true, resolve: (part) => part.input }),
    output: t.field({ type: 'JSON', nullable: true, resolve: (part) => part.output }),
  }),
});
const ErrorPart = builder.objectRef<PartOf<'error'>>('ErrorPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'error',
  fields: (t) => failureFields(t, (part) => part),
});
const DelegationPart = builder.objectRef<PartOf<'delegation'>>('DelegationPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'delegation',
  fields: (t) => ({
    toolCallId: t.exposeString('toolCallId'),
    childExecutionId: t.id({ resolve: (part) => encodeId('Execution', part.childExecutionId) }),
    text: t.exposeString('text'),
    reasoning: t.exposeString('reasoning'),
    truncated: t.exposeBoolean('truncated', { description: 'Text beyond 4,000 characters is not recorded.' }),
    error: t.field({ type: ExecutionErrorRef, nullable: true, resolve: (part) => part.error }),
  }),
});
const AttachmentPart = builder.objectRef<PartOf<'attachment'>>('AttachmentPart').implement({
  isTypeOf: (part) => (part as MessagePart).type === 'attachment',
  fields: (t) => ({
    attachmentId: t.exposeString('attachmentId'),
    filename: t.exposeString('filename'),
    mediaType: t.exposeString('mediaType'),
    size: t.exposeInt('size'),
  }),
});
const SteeredInputPart = builder.objectRef<PartOf<'steered-input'>>('SteeredInputPart').implement({
  description: 'Marks where a steered message entered the running reply.',
  isTypeOf: (part) => (part as MessagePart).type === 'steered-input',
  fields: (t) => ({
    queueId: t.id({ resolve: (part) => encodeId('QueueItem', part.queueId) }),
    text: t.exposeString('text'),
  }),
});

export const MessagePartUnion = builder.unionType('MessagePart', {
  types: [TextPart, ReasoningPart, ToolCallPart, DelegationPart, ErrorPart, AttachmentPart, SteeredInputPart],
});

builder.prismaNode('Message', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    role: t.expose('role', { type: MessageRoleEnum }),
    parts: t.field({ type: [MessagePartUnion], resolve: (message) => message.parts as MessagePart[] }),
    executionId: t.id({ nullable: true, resolve: (message) => encodeOptionalId('Execution', message.executionId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaNode('Execution', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    status: t.expose('status', { type: ExecutionStatusEnum }),
    thread: t.relation('thread'),
    parentExecutionId: t.id({
      nullable: true,
      resolve: (execution) => encodeOptionalId('Execution', execution.parentExecutionId),
    }),
    ownerInstanceId: t.exposeString('ownerInstanceId', { nullable: true }),
    acceptsSteering: t.exposeBoolean('acceptsSteering'),
    acceptedText: t.exposeString('acceptedText'),
    inputTokens: t.exposeInt('inputTokens'),
    outputTokens: t.exposeInt('outputTokens'),
    error: t.field({
      type: ExecutionErrorRef,
      nullable: true,
      resolve: (execution) => execution.error as RecordedFailure | null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaNode('Suspension', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    kind: t.exposeString('kind'),
    status: t.exposeString('status'),
    toolCallId: t.exposeString('toolCallId'),
    toolName: t.exposeString('toolName'),
    payload: t.field({ type: 'JSON', resolve: (suspension) => suspension.payload }),
    executionId: t.id({ resolve: (suspension) => encodeId('Execution', suspension.executionId) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface ConversationShape {
  threadId: string;
  eventCursor: string;
  activeExecutionId: string | null;
}

const Conversation = builder.objectRef<ConversationShape>('Conversation').implement({
  description: 'Everything a reloading client needs; then follow runEvents(after: eventCursor).',
  fields: (t) => ({
    threadId: t.id({ resolve: (conversation) => encodeId('Thread', conversation.threadId) }),
    eventCursor: t.exposeString('eventCursor'),
    activeExecutionId: t.id({
      nullable: true,
      description: 'Set from the moment an execution is admitted, before any output; null when none runs.',
      resolve: (conversation) => encodeOptionalId('Execution', conversation.activeExecutionId),
    }),
    messages: t.prismaConnection({
      type: 'Message',
      cursor: 'id',
      defaultSize: 50,
      maxSize: 200,
      resolve: (query, conversation, _args, context) =>
        context.parley.db.prisma.message.findMany({
          ...query,
          where: { threadId: conversation.threadId },
          orderBy: { seq: 'asc' },
        }),
    }),
    openSuspensions: t.prismaField({
      type: ['Suspension'],
      resolve: (query, conversation, _args, context) =>
        context.parley.db.prisma.suspension.findMany({
          ...query,
          where: { threadId: conversation.threadId, status: 'OPEN' },
          orderBy: { createdAt: 'asc' },
        }),
    }),
  }),
});

builder.queryField('conversation', (t) =>
  t.field({
    type: Conversation,
    authScopes: { authenticated: true },
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const head = await context.parley.conversations.conversation(
        requireViewer(context),
        decodeId('threadId', String(args.threadId), 'Thread'),
      );
      return { threadId: head.thread.id, eventCursor: head.eventCursor, activeExecutionId: head.activeExecutionId };
    },
  }),
);
