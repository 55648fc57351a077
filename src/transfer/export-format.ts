import { z } from 'zod';
import { ERROR_REASONS } from '../errors/taxonomy.ts';
import { TOOL_CALL_STATES } from '../conversation/parts.ts';
import { ExecutionStatus } from '../generated/prisma/enums.ts';

// The versioned JSON of a thread's export (docs/thread-export.md): what exportThread writes and
// importThread reads. A change that an older reader would misread is a new version.

export const EXPORT_FORMAT = 'parley.thread';
export const EXPORT_VERSION = 1;

/** A bound on what an import may hold, whatever the request body limit lets through. */
export const MAX_IMPORT_CHARS = 2_000_000;
export const MAX_IMPORT_MESSAGES = 5_000;

const text = z.string().max(MAX_IMPORT_CHARS);
const isoTime = z.iso.datetime({ offset: true });
const id = z.string().min(1).max(200);

const failure = z.object({
  reason: z.enum(ERROR_REASONS),
  retryable: z.boolean(),
  retryAfterS: z.number().int().nonnegative().nullable(),
  provider: z.string().max(200).nullable(),
  httpStatus: z.number().int().nullable(),
  providerCode: z.string().max(200).nullable(),
  requestId: z.string().max(200).nullable(),
  detail: text,
  message: text,
  messageKey: z.string().max(200),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  occurredAt: isoTime,
});

const progress = z.object({ progress: z.number(), total: z.number().nullable(), message: z.string().nullable() });

export const exportedPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text }),
  z.object({ type: z.literal('reasoning'), text }),
  z.object({
    type: z.literal('tool-call'),
    toolCallId: id,
    toolName: z.string().min(1).max(200),
    input: z.unknown(),
    state: z.enum(TOOL_CALL_STATES),
    output: z.unknown(),
    error: text.nullable().optional(),
    durationMs: z.number().int().nonnegative().nullable().optional(),
    safeToRepeat: z.boolean().optional(),
    progress: progress.nullable().optional(),
  }),
  z.object({
    type: z.literal('delegation'),
    toolCallId: id,
    childExecutionId: id,
    text,
    reasoning: text,
    truncated: z.boolean(),
    error: failure.nullable(),
  }),
  failure.extend({ type: z.literal('error') }),
  z.object({
    type: z.literal('attachment'),
    attachmentId: id,
    filename: z.string().min(1).max(500),
    mediaType: z.string().min(1).max(200),
    size: z.number().int().nonnegative(),
    /** Where the exporting server serves the file (with the reader's Authorization header). */
    downloadPath: z.string().max(300),
  }),
  z.object({ type: z.literal('steered-input'), queueId: id, text }),
  z.object({
    type: z.literal('compaction'),
    summary: text,
    firstMessageId: id,
    throughMessageId: id,
    replacedMessages: z.number().int().nonnegative(),
    model: z.string().max(200),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    replacedTokens: z.number().int().nonnegative(),
    summaryTokens: z.number().int().nonnegative(),
    createdAt: isoTime,
    undone: z.boolean(),
    undoneAt: isoTime.optional(),
  }),
]);

const outcome = z.enum(ExecutionStatus);

export const exportedMessage = z.object({
  id,
  role: z.enum(['USER', 'ASSISTANT']),
  createdAt: isoTime,
  /** How the turn's execution ended when it was exported (Message.outcome); an import keeps it only here. */
  outcome: outcome.nullable(),
  parts: z.array(exportedPart).max(10_000),
});

export const threadExport = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: isoTime,
  thread: z.object({
    id,
    title: z.string().max(500),
    createdAt: isoTime,
    agent: z.object({ id, name: z.string().max(200), model: z.string().max(200) }),
  }),
  /** The active path, first to last: each message follows the one before it. */
  messages: z.array(exportedMessage).max(MAX_IMPORT_MESSAGES),
});

export type ThreadExport = z.infer<typeof threadExport>;
export type ExportedMessage = z.infer<typeof exportedMessage>;
export type ExportedPart = z.infer<typeof exportedPart>;
