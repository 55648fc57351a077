import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { AttachmentRef } from '../conversation/parts.ts';
import { InvalidInputError } from '../domain/errors.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { checkedMediaType, safeFilename } from '../queue/attachment-policy.ts';
import type { QueueLimits } from '../queue/message-input.ts';
import { storedAttachmentBytes } from '../queue/queue-insert.ts';

/** A file a tool returned (an image, audio, or a resource with binary contents), before it is kept. */
export interface ToolFile {
  /** Its position among the result's content items. */
  index: number;
  kind: 'image' | 'audio' | 'resource';
  filename: string;
  mediaType: string;
  data: Buffer;
}

/** Where a run's tool files go: the reply they belong to (null before it exists) and whose quota they count against. */
export interface ToolFileOwner {
  userId: string;
  replyMessageId(): string | null;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The files among a result's content, each named after the tool (an image) or its resource's URI. */
export function filesOf(result: CallToolResult, toolName: string): ToolFile[] {
  const files: ToolFile[] = [];
  (result.content ?? []).forEach((item, index) => {
    const number = files.length + 1;
    if (item.type === 'image' || item.type === 'audio') {
      const extension = EXTENSIONS[item.mimeType] ?? 'bin';
      files.push({ index, kind: item.type, filename: `${toolName}-${number}.${extension}`, mediaType: item.mimeType, data: Buffer.from(item.data, 'base64') });
    } else if (item.type === 'resource' && 'blob' in item.resource) {
      const { uri, mimeType, blob } = item.resource;
      const name = uri.replace(/[?#].*$/, '').split('/').pop() || `${toolName}-${number}`;
      files.push({ index, kind: 'resource', filename: name, mediaType: mimeType ?? 'application/octet-stream', data: Buffer.from(String(blob), 'base64') });
    }
  });
  return files;
}

/**
 * Keeps a tool's files as attachments of the reply, within the limits a user's own files have
 * (PARLEY_MAX_ATTACHMENT_BYTES each, PARLEY_MAX_ATTACHMENTS per call, the accepted media types
 * with their content checked, PARLEY_MAX_ATTACHMENT_BYTES_PER_USER in all). Each file gets a
 * note for the tool's text: kept as which attachment, or why not.
 */
export class ToolFiles {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly limits: QueueLimits,
    private readonly logger: Logger,
  ) {}

  async keep(files: readonly ToolFile[], owner: ToolFileOwner | undefined): Promise<{ kept: AttachmentRef[]; notes: Map<number, string> }> {
    const notes = new Map<number, string>();
    if (files.length === 0) return { kept: [], notes };
    const messageId = owner?.replyMessageId() ?? null;
    const describe = (file: ToolFile, fate: string) => `[${file.kind} ${file.mediaType.slice(0, 80)}, ${file.data.byteLength} bytes, ${fate}]`;
    const accepted: { file: ToolFile; attachment: AttachmentRef }[] = [];
    let quotaLeft = owner ? this.limits.maxAttachmentBytesPerUser - (await storedAttachmentBytes(this.prisma, owner.userId)) : 0;
    for (const file of files) {
      const verdict = this.verdict(file, messageId, accepted.length, quotaLeft);
      if ('refusal' in verdict) {
        notes.set(file.index, describe(file, `not kept: ${verdict.refusal}`));
        continue;
      }
      accepted.push({ file, attachment: { attachmentId: randomUUID(), filename: safeFilename(file.filename), mediaType: verdict.mediaType, size: file.data.byteLength } });
      quotaLeft -= file.data.byteLength;
    }
    if (accepted.length === 0) return { kept: [], notes };
    try {
      await this.prisma.attachment.createMany({
        data: accepted.map(({ file, attachment }) => ({
          id: attachment.attachmentId,
          messageId: messageId!,
          filename: attachment.filename,
          mediaType: attachment.mediaType,
          size: attachment.size,
          dataBase64: file.data.toString('base64'),
        })),
      });
    } catch (error) {
      // The reply went away meanwhile (a deleted thread), or the database is out of reach: the call's text still stands.
      this.logger.warn({ err: error, messageId }, 'keeping the files of a tool result failed');
      for (const { file } of accepted) notes.set(file.index, describe(file, 'not kept: storing it failed'));
      return { kept: [], notes };
    }
    for (const { file, attachment } of accepted) notes.set(file.index, describe(file, `kept as the attachment ${attachment.filename}`));
    return { kept: accepted.map(({ attachment }) => attachment), notes };
  }

  /** The media type to store the file as, or why it is not kept. */
  private verdict(file: ToolFile, messageId: string | null, keptSoFar: number, quotaLeft: number): { mediaType: string } | { refusal: string } {
    if (messageId === null) return { refusal: 'the call has no reply to attach it to' };
    if (keptSoFar >= this.limits.maxAttachments) return { refusal: `at most ${this.limits.maxAttachments} files per call (PARLEY_MAX_ATTACHMENTS)` };
    if (file.data.byteLength > this.limits.maxAttachmentBytes) return { refusal: `larger than ${this.limits.maxAttachmentBytes} bytes (PARLEY_MAX_ATTACHMENT_BYTES)` };
    if (file.data.byteLength > quotaLeft) return { refusal: 'the user’s files would exceed PARLEY_MAX_ATTACHMENT_BYTES_PER_USER' };
    try {
      return { mediaType: checkedMediaType(file.filename, file.mediaType, file.data) };
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      // The message names the field and the file, which the note already says.
      return { refusal: error.message.replace(`${error.field}: `, '').replace(`${file.filename.slice(0, 80)}: `, '') };
    }
  }
}
