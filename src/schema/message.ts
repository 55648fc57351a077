import { downloadPathOf, TOOL_CALL_STATES, type MessagePart, type ToolProgress } from '../conversation/parts.ts';
import { ExecutionStatus, MessageRole } from '../generated/prisma/enums.ts';
import { builder } from './builder.ts';
import { ExecutionErrorRef, failureFields } from './failure.ts';
import { encodeId, encodeOptionalId } from './ids.ts';

builder.enumType(MessageRole, { name: 'MessageRole' });

export const ToolCallStateEnum = builder.enumType('ToolCallState', { values: TOOL_CALL_STATES });

type PartOf<T extends MessagePart['type']> = Extract<MessagePart, { type: T }>;

export const ToolProgressRef = builder.objectRef<ToolProgress>('ToolProgress').implement({
  description: 'How far a running tool call has got, as its tool server reported it (MCP progress notifications).',
  fields: (t) => ({
    progress: t.exposeFloat('progress', { description: 'Grows with each report; a fraction of `total` when there is one.' }),
    total: t.exposeFloat('total', { nullable: true, description: 'Null when the server does not know the total.' }),
    message: t.exposeString('message', { nullable: true, description: 'What the server says it is doing, in its own words.' }),
  }),
});

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
    output: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'A tool server’s call: `{ text, truncated }`, with `attachments` (`attachmentId`, `filename`, `mediaType`, `size`, ' +
        '`downloadPath`) when files of its result were kept as attachments of the reply.',
      resolve: (part) => part.output,
    }),
    error: t.string({ nullable: true, description: 'Why a FAILED call failed, as the model was told.', resolve: (part) => part.error ?? null }),
    durationMs: t.int({ nullable: true, resolve: (part) => part.durationMs ?? null }),
    progress: t.field({
      type: ToolProgressRef,
      nullable: true,
      description: 'The last progress the tool server reported while the call ran (live: ToolCallProgress events); null when it reported none.',
      resolve: (part) => part.progress ?? null,
    }),
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
    downloadPath: t.string({
      description:
        'GET it on this server with the same Authorization header; it is always served as a download ' +
        '(Content-Disposition: attachment, X-Content-Type-Options: nosniff).',
      // A shared snapshot's files carry the link's own path (src/sharing/snapshot.ts).
      resolve: (part) => ('downloadPath' in part && typeof part.downloadPath === 'string' ? part.downloadPath : downloadPathOf(part.attachmentId)),
    }),
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

const CompactionPart = builder.objectRef<PartOf<'compaction'>>('CompactionPart').implement({
  description:
    'A summary that replaces, for the model, the messages of the path before the message that holds it (docs/compaction.md); ' +
    'they stay readable here. Undone (uncompactThread): the model is sent the originals again.',
  isTypeOf: (part) => (part as MessagePart).type === 'compaction',
  fields: (t) => ({
    summary: t.exposeString('summary'),
    firstMessageId: t.id({ resolve: (part) => encodeId('Message', part.firstMessageId) }),
    throughMessageId: t.id({ description: 'The last message the summary replaces.', resolve: (part) => encodeId('Message', part.throughMessageId) }),
    replacedMessages: t.exposeInt('replacedMessages'),
    model: t.exposeString('model', { description: 'The model that wrote the summary.' }),
    inputTokens: t.exposeInt('inputTokens', { description: 'What the summary’s model call took, as its provider reported.' }),
    outputTokens: t.exposeInt('outputTokens'),
    replacedTokens: t.exposeInt('replacedTokens', { description: 'The replaced messages, estimated in the agent’s model’s tokens.' }),
    summaryTokens: t.exposeInt('summaryTokens', { description: 'The summary, estimated the same way.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (part) => new Date(part.createdAt) }),
    undone: t.exposeBoolean('undone'),
  }),
});

const PART_TYPES = {
  text: 'TextPart',
  reasoning: 'ReasoningPart',
  'tool-call': 'ToolCallPart',
  delegation: 'DelegationPart',
  error: 'ErrorPart',
  attachment: 'AttachmentPart',
  'steered-input': 'SteeredInputPart',
  compaction: 'CompactionPart',
} as const satisfies Record<MessagePart['type'], string>;

export const MessagePartUnion = builder.unionType('MessagePart', {
  types: [TextPart, ReasoningPart, ToolCallPart, DelegationPart, ErrorPart, AttachmentPart, SteeredInputPart, CompactionPart],
  // By the part's own type, at once (the members' isTypeOf would each be asked in turn).
  resolveType: (part) => PART_TYPES[(part as MessagePart).type],
});

builder.prismaNode('Message', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    role: t.expose('role', { type: MessageRole }),
    parts: t.field({ type: [MessagePartUnion], resolve: (message) => message.parts as MessagePart[] }),
    executionId: t.id({ nullable: true, resolve: (message) => encodeOptionalId('Execution', message.executionId) }),
    outcome: t.field({
      type: ExecutionStatus,
      nullable: true,
      description:
        'How the execution of this turn ended, or where it is: a reply that was stopped reads CANCELLED after a reload, one that failed FAILED. Null for a message of no execution.',
      select: { execution: { select: { status: true } } },
      resolve: (message) => message.execution?.status ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
