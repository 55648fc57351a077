import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { LimitExceededError, NotFoundError } from '../domain/errors.ts';
import { eventRecords, loggedEvent } from '../events/event-log.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import { countQueued, insertQueueItem, queuedEventForKey, storedAttachmentBytes as storedBytes } from '../storage/queue-statements.ts';
import { prismaRunner, type SqlRunner } from '../storage/sql-client.ts';
import type { NewAttachment, QueueLimits } from './message-input.ts';
import { titleFromText } from './thread-title.ts';

/**
 * The bytes of every file a user has stored: sent and queued with their messages, and kept from
 * tool results in the replies of their turns (PARLEY_MAX_ATTACHMENT_BYTES_PER_USER bounds it).
 */
export function storedAttachmentBytes(prisma: Pick<PrismaClient, '$queryRaw'>, userId: string): Promise<number> {
  return storedBytes(prismaRunner(prisma), userId);
}

/**
 * How an item enters a thread's queue: the attachment quota checked before, the one statement that
 * inserts it, and the answer to a resend of a key sent before. The changes to pending items are
 * QueueService's.
 */
export class QueueInsert {
  constructor(
    /** The driver under Prisma: a message's insert commits on its own there. */
    private readonly sql: SqlRunner,
    private readonly limits: QueueLimits,
    /** Throws the error, after counting it. */
    private readonly onLimitExceeded: (error: LimitExceededError) => never,
  ) {}

  /** Sends at the same moment may each pass it by their own files: the bound is checked before the enqueue. */
  async checkAttachmentQuota(userId: string, attachments: readonly NewAttachment[]): Promise<void> {
    const limit = this.limits.maxAttachmentBytesPerUser;
    const adding = attachments.reduce((sum, attachment) => sum + attachment.data.byteLength, 0);
    const stored = await storedBytes(this.sql, userId);
    if (stored + adding > limit) {
      this.onLimitExceeded(
        new LimitExceededError(
          'PARLEY_MAX_ATTACHMENT_BYTES_PER_USER',
          limit,
          `your attachments take ${stored} bytes and these files ${adding} more`,
        ),
      );
    }
  }

  /**
   * The one way a queue item is inserted, as one statement: locks the thread row (the session lock)
   * while bumping its event counter (and, at the tail, its tail position), inserts the item, its
   * files and its MessageQueued event. At the tail it commits on its own: a key sent before fails on
   * its unique index, whatever this statement's snapshot saw, and is answered with the first send's
   * event. At the head it runs in the caller's session-locked transaction, below the current head.
   */
  async insert(
    at: 'tail' | 'head',
    /** At the tail, this instance's driver; at the head, the caller's transaction. */
    db: SqlRunner,
    threadId: string,
    userId: string,
    text: string,
    idempotencyKey: string | null,
    attachments: readonly NewAttachment[] = [],
    /** An edit's or a regeneration's turn: the message its new message will be a sibling of. */
    siblingOfMessageId: string | null = null,
  ): Promise<{ event: ThreadEvent; isNew: boolean }> {
    const createdAt = new Date();
    const payload = { type: 'MessageQueued' as const, queueId: randomUUID(), text, idempotencyKey };
    const files = attachments.map((attachment) => ({
      id: randomUUID(),
      filename: attachment.filename,
      mediaType: attachment.mediaType,
      size: attachment.data.byteLength,
      dataBase64: Buffer.from(attachment.data).toString('base64'),
    }));
    let seq: number | null;
    try {
      seq = await insertQueueItem(db, {
        at,
        queueId: payload.queueId,
        threadId,
        userId,
        text,
        idempotencyKey,
        siblingOfMessageId,
        title: titleFromText(text),
        files,
        payload,
        maxQueuedPerThread: this.limits.maxQueuedPerThread,
        createdAt,
      });
    } catch (error) {
      if (at !== 'tail' || idempotencyKey === null || !isUniqueViolation(error)) throw error;
      const previous = await this.queuedEventForKey(this.sql, threadId, idempotencyKey);
      if (!previous) throw error;
      return { event: previous, isNew: false };
    }
    if (seq === null) {
      // Nothing was written: the thread's queue is full (or the thread is gone). A resend of a
      // message queued before is still answered with its event.
      const previous = idempotencyKey === null ? null : await this.queuedEventForKey(db, threadId, idempotencyKey);
      if (previous) return { event: previous, isNew: false };
      const limit = this.limits.maxQueuedPerThread;
      if ((await countQueued(db, threadId)) >= limit) {
        this.onLimitExceeded(new LimitExceededError('PARLEY_MAX_QUEUED_PER_THREAD', limit, `this thread has ${limit} messages queued`));
      }
      throw new NotFoundError('Thread', threadId);
    }
    return { event: eventRecords(threadId, seq, createdAt, [{ executionId: null, payload }])[0]!, isNew: true };
  }

  /** A retried send answers with what the first one recorded, whether its item is pending or started. */
  async queuedEventForKey(db: SqlRunner, threadId: string, idempotencyKey: string): Promise<ThreadEvent | null> {
    const row = await queuedEventForKey(db, threadId, idempotencyKey);
    return row ? loggedEvent(threadId, row) : null;
  }
}

/** A unique index refused the write (as the driver reports it, or Prisma for statements in its transactions). */
function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { code?: string; originalCode?: string; kind?: string } } } }).meta
    ?.driverAdapterError?.cause;
  return (error as { code?: string }).code === 'P2002' || (error as { code?: string }).code === '23505' || cause?.code === '23505' || cause?.originalCode === '23505' || cause?.kind === 'UniqueConstraintViolation';
}
