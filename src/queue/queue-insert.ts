import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { LimitExceededError, NotFoundError } from '../domain/errors.ts';
import { eventRecords } from '../events/event-log.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import type { Tx } from '../db/session-lock.ts';
import type { NewAttachment, QueueLimits } from './message-input.ts';
import { titleFromText } from './thread-title.ts';

/**
 * The bytes of every file a user has stored: sent and queued with their messages, and kept from
 * tool results in the replies of their turns (PARLEY_MAX_ATTACHMENT_BYTES_PER_USER bounds it).
 */
export async function storedAttachmentBytes(db: Pick<PrismaClient, '$queryRaw'>, userId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ bytes: number }[]>`
    SELECT COALESCE(sum(f."size"), 0)::float8 AS "bytes"
    FROM "attachment" f
    LEFT JOIN "queue_item" q ON q."id" = f."queueItemId"
    LEFT JOIN "message" m ON m."id" = f."messageId"
    LEFT JOIN "execution" e ON e."id" = m."executionId"
    WHERE q."userId" = ${userId} OR e."userId" = ${userId}`;
  return Number(row?.bytes ?? 0);
}

/**
 * How an item enters a thread's queue: the attachment quota checked before, the one statement that
 * inserts it, and the answer to a resend of a key sent before. The changes to pending items are
 * QueueService's.
 */
export class QueueInsert {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly limits: QueueLimits,
    /** Throws the error, after counting it. */
    private readonly onLimitExceeded: (error: LimitExceededError) => never,
  ) {}

  /** Sends at the same moment may each pass it by their own files: the bound is checked before the enqueue. */
  async checkAttachmentQuota(userId: string, attachments: readonly NewAttachment[]): Promise<void> {
    const limit = this.limits.maxAttachmentBytesPerUser;
    const adding = attachments.reduce((sum, attachment) => sum + attachment.data.byteLength, 0);
    const stored = await storedAttachmentBytes(this.prisma, userId);
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
    db: Pick<Tx, '$queryRaw'>,
    threadId: string,
    userId: string,
    text: string,
    idempotencyKey: string | null,
    attachments: readonly NewAttachment[] = [],
    /** An edit's or a regeneration's turn: the message its new message will be a sibling of. */
    siblingOfMessageId: string | null = null,
  ): Promise<{ event: ThreadEvent; isNew: boolean }> {
    const atTail = at === 'tail';
    const queueId = randomUUID();
    const createdAt = new Date();
    const payload = { type: 'MessageQueued' as const, queueId, text, idempotencyKey };
    const files = attachments.map((attachment) => ({
      id: randomUUID(),
      filename: attachment.filename,
      mediaType: attachment.mediaType,
      size: attachment.data.byteLength,
      dataBase64: Buffer.from(attachment.data).toString('base64'),
    }));
    let rows: { seq: number }[];
    try {
      rows = await db.$queryRaw<{ seq: number }[]>`
        WITH locked AS (
          UPDATE "thread"
          SET "lastEventSeq" = "lastEventSeq" + 1, "queueTailPosition" = "queueTailPosition" + ${atTail ? 1 : 0}::int, "updatedAt" = ${createdAt}::timestamp(3),
              "lastActivityAt" = ${createdAt}::timestamp(3),
              "title" = CASE WHEN "title" = '' THEN ${titleFromText(text)}::text ELSE "title" END
          WHERE "id" = ${threadId}
            AND (SELECT count(*) FROM "queue_item" WHERE "threadId" = ${threadId}) < ${this.limits.maxQueuedPerThread}
          RETURNING "lastEventSeq", "queueTailPosition"
        ), item AS (
          INSERT INTO "queue_item" ("id", "threadId", "userId", "text", "position", "idempotencyKey", "siblingOfMessageId", "createdAt", "updatedAt")
          SELECT ${queueId}::text, ${threadId}::text, ${userId}::text, ${text}::text,
                 CASE WHEN ${atTail}::boolean THEN locked."queueTailPosition"
                      ELSE (SELECT COALESCE(MIN(head."position"), 1) - 1 FROM "queue_item" head WHERE head."threadId" = ${threadId}) END,
                 ${idempotencyKey}::text, ${siblingOfMessageId}::text,
                 ${createdAt}::timestamp(3), ${createdAt}::timestamp(3)
          FROM locked
          RETURNING "id"
        ), files AS (
          INSERT INTO "attachment" ("id", "queueItemId", "filename", "mediaType", "size", "dataBase64", "createdAt")
          -- One millisecond apart: readers order a message's files by createdAt, so they keep the order they were sent in.
          SELECT f.value->>'id', item."id", f.value->>'filename', f.value->>'mediaType', (f.value->>'size')::int, f.value->>'dataBase64',
                 ${createdAt}::timestamp(3) + (f.n - 1) * interval '1 millisecond'
          FROM item, jsonb_array_elements(${JSON.stringify(files)}::jsonb) WITH ORDINALITY AS f(value, n)
        )
        INSERT INTO "thread_event" ("threadId", "seq", "type", "payload", "createdAt")
        SELECT ${threadId}::text, locked."lastEventSeq", 'MessageQueued', ${JSON.stringify(payload)}::jsonb, ${createdAt}::timestamp(3)
        FROM locked, item
        RETURNING "seq"`;
    } catch (error) {
      if (!atTail || idempotencyKey === null || !isUniqueViolation(error)) throw error;
      const previous = await this.queuedEventForKey(this.prisma, threadId, idempotencyKey);
      if (!previous) throw error;
      return { event: previous, isNew: false };
    }
    const [row] = rows;
    if (!row) {
      // Nothing was written: the thread's queue is full (or the thread is gone). A resend of a
      // message queued before is still answered with its event.
      const previous = idempotencyKey === null ? null : await this.queuedEventForKey(db, threadId, idempotencyKey);
      if (previous) return { event: previous, isNew: false };
      const limit = this.limits.maxQueuedPerThread;
      const [queued] = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "queue_item" WHERE "threadId" = ${threadId}`;
      if ((queued?.n ?? 0) >= limit) {
        this.onLimitExceeded(new LimitExceededError('PARLEY_MAX_QUEUED_PER_THREAD', limit, `this thread has ${limit} messages queued`));
      }
      throw new NotFoundError('Thread', threadId);
    }
    return { event: eventRecords(threadId, row.seq, createdAt, [{ executionId: null, payload }])[0]!, isNew: true };
  }

  /** A retried send answers with what the first one recorded, whether its item is pending or started. */
  async queuedEventForKey(db: Pick<Tx, '$queryRaw'>, threadId: string, idempotencyKey: string): Promise<ThreadEvent | null> {
    // Matches the partial unique index on the key (migration 0006), so it is one index probe.
    const [row] = await db.$queryRaw<
      { seq: number; executionId: string | null; parentExecutionId: string | null; createdAt: Date; payload: unknown }[]
    >`
      SELECT "seq", "executionId", "parentExecutionId", "createdAt", "payload" FROM "thread_event"
      WHERE "threadId" = ${threadId} AND "type" = 'MessageQueued' AND "payload"->>'idempotencyKey' = ${idempotencyKey}`;
    if (!row) return null;
    return {
      threadId,
      seq: row.seq,
      executionId: row.executionId,
      parentExecutionId: row.parentExecutionId,
      createdAt: row.createdAt.toISOString(),
      payload: row.payload as ThreadEvent['payload'],
    };
  }
}

/** A unique index refused the write (as Prisma reports it for raw statements, on either adapter). */
function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { code?: string; originalCode?: string; kind?: string } } } }).meta
    ?.driverAdapterError?.cause;
  return (error as { code?: string }).code === 'P2002' || cause?.code === '23505' || cause?.originalCode === '23505' || cause?.kind === 'UniqueConstraintViolation';
}
