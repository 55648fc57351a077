import { z } from 'zod';
import { positiveInt } from '../lifecycle/settings.ts';

/** The slice of the settings that bounds what a thread's queue and a user's files may hold. */
export const queueSettings = z.object({
  PARLEY_MAX_MESSAGE_CHARS: positiveInt.default(32_000).describe('longest accepted message'),
  PARLEY_MAX_ATTACHMENT_BYTES: positiveInt.default(5_000_000).describe('largest accepted file per attachment'),
  PARLEY_MAX_ATTACHMENTS: positiveInt.default(10).describe('files per message'),
  PARLEY_MAX_QUEUED_PER_THREAD: positiveInt.default(100).describe('pending messages one thread may hold; `sendMessage` beyond it answers `LimitExceededError`'),
  PARLEY_MAX_ATTACHMENT_BYTES_PER_USER: positiveInt.default(1024 ** 3).describe('attachment bytes one user may have stored; a `sendMessage` whose files pass it answers `LimitExceededError`'),
});

export type QueueSettings = z.infer<typeof queueSettings>;

/** The bounds the queue service checks a message and its files against. */
export function queueLimits(settings: QueueSettings) {
  return {
    maxMessageChars: settings.PARLEY_MAX_MESSAGE_CHARS,
    maxAttachmentBytes: settings.PARLEY_MAX_ATTACHMENT_BYTES,
    maxAttachments: settings.PARLEY_MAX_ATTACHMENTS,
    maxQueuedPerThread: settings.PARLEY_MAX_QUEUED_PER_THREAD,
    maxAttachmentBytesPerUser: settings.PARLEY_MAX_ATTACHMENT_BYTES_PER_USER,
  };
}
