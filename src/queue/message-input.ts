import { InvalidInputError } from '../domain/errors.ts';
import { checkedMediaType, safeFilename } from './attachment-policy.ts';

export interface QueueLimits {
  maxMessageChars: number;
  maxAttachmentBytes: number;
  maxAttachments: number;
  /** Pending messages one thread may hold (PARLEY_MAX_QUEUED_PER_THREAD). */
  maxQueuedPerThread: number;
  /** Attachment bytes one user may have stored, queued and sent (PARLEY_MAX_ATTACHMENT_BYTES_PER_USER). */
  maxAttachmentBytesPerUser: number;
}

export interface NewAttachment {
  filename: string;
  mediaType: string;
  data: Uint8Array;
}

/** Checks the files of a message and returns them as they are stored: safe names, checked media types. */
export function validateAttachments(attachments: readonly NewAttachment[], limits: QueueLimits): NewAttachment[] {
  if (attachments.length > limits.maxAttachments) {
    throw new InvalidInputError('attachments', `at most ${limits.maxAttachments} files per message.`);
  }
  return attachments.map((attachment) => {
    const filename = safeFilename(attachment.filename);
    if (attachment.data.byteLength > limits.maxAttachmentBytes) {
      throw new InvalidInputError(
        'attachments',
        `${filename.slice(0, 80)} is ${attachment.data.byteLength} bytes; the limit is ${limits.maxAttachmentBytes}.`,
      );
    }
    return { filename, mediaType: checkedMediaType(filename, attachment.mediaType, attachment.data), data: attachment.data };
  });
}

const MAX_IDEMPOTENCY_KEY_CHARS = 200;

export function validateIdempotencyKey(idempotencyKey: string | null): void {
  if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_CHARS)) {
    throw new InvalidInputError('idempotencyKey', `must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} characters.`);
  }
}

export function validateMessageText(text: string, limits: QueueLimits): string {
  if (text.trim().length === 0) throw new InvalidInputError('text', 'must not be empty.');
  if (text.length > limits.maxMessageChars) {
    throw new InvalidInputError('text', `is ${text.length} characters long; the limit is ${limits.maxMessageChars}.`);
  }
  return text;
}
