import type { TurnScheduler } from '../execution/turn-scheduler.ts';
import { prismaRunner, type SqlRunner } from '../storage/sql-client.ts';
import type { PrismaClient, QueueItem, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, type LimitExceededError, NotFoundError, QueueChangedError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { NewThreadEvent, ThreadEvent } from '../events/thread-event.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import type { SuspensionService } from '../execution/suspensions.ts';
import { validateAttachments, validateIdempotencyKey, validateMessageText, type NewAttachment, type QueueLimits } from './message-input.ts';
import { QueueInsert } from './queue-insert.ts';

const QUEUED_MESSAGE = 'Queued message';

/** The durable queue of a thread's pending user messages. */
export class QueueService {
  private readonly inserts: QueueInsert;

  constructor(
    private readonly prisma: PrismaClient,
    /** The driver under Prisma: a new message's insert (src/storage/). */
    private readonly sql: SqlRunner,
    private readonly bus: LiveBus,
    private readonly access: AccessPolicy,
    private readonly scheduler: Pick<TurnScheduler, 'kick'>,
    private readonly limits: QueueLimits,
    private readonly questions: Pick<SuspensionService, 'answerOpenQuestion'>,
    /** Throws the error, after counting it. */
    onLimitExceeded: (error: LimitExceededError) => never,
  ) {
    this.inserts = new QueueInsert(sql, limits, onLimitExceeded);
  }

  /**
   * Queues a message to a thread whose access and input were checked already; commits the item
   * (and its MessageQueued event) before anyone is told about it.
   */
  private async enqueueChecked(
    user: User,
    threadId: string,
    input: { text: string; idempotencyKey?: string | null; attachments?: readonly NewAttachment[] },
  ): Promise<ThreadEvent> {
    const { text } = input;
    const attachments = input.attachments ?? [];
    const idempotencyKey = input.idempotencyKey ?? null;
    validateIdempotencyKey(idempotencyKey);
    // Keys are namespaced by who chose them, so a client's key can never pose as a retry's.
    const storedKey = idempotencyKey === null ? null : `client:${idempotencyKey}`;
    if (attachments.length > 0) await this.inserts.checkAttachmentQuota(user.id, attachments);
    const outcome = await this.inserts.insert('tail', this.sql, threadId, user.id, text, storedKey, attachments);
    if (outcome.isNew) this.announce(threadId, [outcome.event]);
    return outcome.event;
  }

  /** sendMessage: answers the open question card if there is one, else queues the message. */
  async enqueueOrAnswer(
    user: User,
    input: { threadId: string; text: string; idempotencyKey?: string | null; attachments?: readonly NewAttachment[] },
  ): Promise<ThreadEvent> {
    const text = validateMessageText(input.text, this.limits);
    const attachments = validateAttachments(input.attachments ?? [], this.limits);
    const thread = await this.access.thread(user, input.threadId, 'agent:execute');
    // An answer to a question card is text only; with files it is a new message.
    const answered = attachments.length || !thread.openQuestion ? null : await this.questions.answerOpenQuestion(thread.id, text);
    return answered ?? this.enqueueChecked(user, thread.id, { ...input, text, attachments });
  }

  /**
   * Re-queues the input of a failed turn at the head of the queue, for a failure a retry can fix.
   * Retrying the same execution again answers with the item the first retry queued.
   */
  async retryFailed(user: User, executionId: string): Promise<ThreadEvent> {
    const execution = await this.prisma.execution.findUnique({ where: { id: executionId } });
    const askedFor = { entity: 'Execution', id: executionId };
    if (!execution) throw new NotFoundError(askedFor.entity, askedFor.id);
    const thread = await this.access.thread(user, execution.threadId, 'agent:execute', askedFor);
    if (execution.parentExecutionId) {
      throw new InvalidInputError('executionId', 'is a delegated child execution; retry the turn it belongs to.');
    }
    const retryKey = `retry:${execution.id}`;
    const outcome = await withSessionLock(this.prisma, thread.id, async (tx) => {
      const previous = await this.inserts.queuedEventForKey(prismaRunner(tx), thread.id, retryKey);
      if (previous) return { event: previous, isNew: false };
      const current = await tx.execution.findUniqueOrThrow({ where: { id: execution.id } });
      if (current.status !== 'FAILED' && current.status !== 'INTERRUPTED') {
        throw new ConflictError(`This execution is ${current.status}; only a failed or interrupted execution can be retried.`);
      }
      const failure = current.error as { reason?: string; retryable?: boolean } | null;
      // "Summarise and retry": a turn too long for the window can be tried again once the thread was compacted.
      const summarised = failure?.reason === 'CONTEXT_LENGTH' && (await compactedSince(tx, thread.id, current.finishedAt ?? current.createdAt));
      if (!failure?.retryable && !summarised) {
        const hint = failure?.reason === 'CONTEXT_LENGTH' ? ' Compact the thread (compactThread) first.' : '';
        throw new ConflictError(`This execution failed with ${failure?.reason ?? 'an error'}, which a retry cannot fix.${hint}`);
      }
      const later = await tx.execution.findFirst({
        where: { threadId: thread.id, parentExecutionId: null, createdAt: { gt: current.createdAt } },
        select: { id: true },
      });
      if (later) {
        throw new ConflictError('A later turn has run since; send the message again instead of retrying this one.');
      }
      return this.inserts.insert('head', prismaRunner(tx), thread.id, user.id, current.acceptedText, retryKey);
    });
    if (outcome.isNew) this.announce(thread.id, [outcome.event]);
    return outcome.event;
  }

  /** Changes a pending message's text; its position and attachments stay. */
  async edit(user: User, queueId: string, text: string): Promise<QueueItem> {
    validateMessageText(text, this.limits);
    return this.changePending(user, queueId, (tx, item) => tx.queueItem.update({ where: { id: item.id }, data: { text } }));
  }

  /** Removes a pending message and discards its attachments. */
  async remove(user: User, queueId: string): Promise<void> {
    await this.changePending(user, queueId, (tx, item) => tx.queueItem.delete({ where: { id: item.id } }));
  }

  /**
   * Moves a pending message to the target's position, shifting the messages between, provided the
   * pending order (reserved steers excluded) is exactly `expectedQueueIds`.
   */
  async reorder(user: User, queueId: string, targetQueueId: string, expectedQueueIds: string[]): Promise<{ threadId: string }> {
    const item = await this.pendingItemOf(user, queueId);
    await this.locked(item.threadId, async (tx) => {
      const pending = await tx.queueItem.findMany({
        where: { threadId: item.threadId, steeringExecutionId: null },
        orderBy: { position: 'asc' },
        select: { id: true, position: true },
      });
      const order = pending.map((row) => row.id);
      const unchanged = order.length === expectedQueueIds.length && order.every((id, index) => id === expectedQueueIds[index]);
      if (!unchanged || !order.includes(queueId) || !order.includes(targetQueueId)) {
        throw new QueueChangedError(order);
      }
      const moved = order.filter((id) => id !== queueId);
      moved.splice(order.indexOf(targetQueueId), 0, queueId);
      // The pending items keep the set of positions they had; only who holds which one changes.
      const slots = pending.map((row) => row.position);
      const changed = moved.map((id, index) => ({ id, position: slots[index]! })).filter((row, index) => row.id !== order[index]);
      for (const row of changed) await tx.queueItem.update({ where: { id: row.id }, data: { position: row.position } });
      return { result: null, events: [queueUpdated()] };
    });
    return { threadId: item.threadId };
  }

  /** Reserves a pending message for the running execution, which takes it at its next boundary. */
  async steer(user: User, queueId: string, executionId: string): Promise<QueueItem> {
    return this.changePending(user, queueId, async (tx, item) => {
      const active = await tx.execution.findFirst({
        where: { threadId: item.threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
        select: { id: true, status: true, acceptsSteering: true },
      });
      // A request meant for an older execution never reaches a newer one.
      if (!active || active.id !== executionId) {
        throw new ConflictError('That execution is not running any more; the message stays in the queue.');
      }
      if (active.status !== 'RUNNING' || !active.acceptsSteering) {
        throw new ConflictError('That execution does not accept steering now (it waits for an approval or answer).');
      }
      return tx.queueItem.update({ where: { id: item.id }, data: { steeringExecutionId: executionId } });
    });
  }

  private async changePending<T>(
    user: User,
    queueId: string,
    change: (tx: Tx, item: { id: string; threadId: string }) => Promise<T>,
  ): Promise<T> {
    const item = await this.pendingItemOf(user, queueId);
    return this.locked(item.threadId, async (tx) => {
      const current = await tx.queueItem.findUnique({ where: { id: queueId } });
      if (!current) throw await this.goneError(tx, queueId);
      if (current.steeringExecutionId) {
        throw new ConflictError('This message is reserved for steering into the running reply; it can no longer change.');
      }
      return { result: await change(tx, current), events: [queueUpdated()] };
    });
  }

  /** The pending item, checked for access; a claimed one is reported as started, not as missing. */
  private async pendingItemOf(user: User, queueId: string) {
    const askedFor = { entity: QUEUED_MESSAGE, id: queueId };
    const item = await this.prisma.queueItem.findUnique({ where: { id: queueId }, select: { id: true, threadId: true } });
    if (item) {
      await this.access.thread(user, item.threadId, 'agent:execute', askedFor);
      return item;
    }
    const started = await this.prisma.execution.findUnique({ where: { queueItemId: queueId }, select: { threadId: true } });
    if (started) await this.access.thread(user, started.threadId, 'agent:execute', askedFor);
    throw await this.goneError(this.prisma, queueId);
  }

  private async goneError(db: Tx, queueId: string): Promise<Error> {
    const started = await db.execution.findUnique({ where: { queueItemId: queueId }, select: { id: true } });
    return started
      ? new ConflictError('This message has already started; it is part of the conversation now.')
      : new NotFoundError(QUEUED_MESSAGE, queueId);
  }

  /** A queue change under the session lock; its events are published after the commit. */
  private async locked<T>(threadId: string, work: (tx: Tx) => Promise<{ result: T; events: NewThreadEvent[] }>): Promise<T> {
    const { result, events } = await withSessionLock(this.prisma, threadId, async (tx) => {
      const outcome = await work(tx);
      return { result: outcome.result, events: await appendThreadEvents(prismaRunner(tx), threadId, outcome.events) };
    });
    this.announce(threadId, events);
    return result;
  }

  /** After a commit: subscribers get the change's events, and the consumers a kick. */
  private announce(threadId: string, events: ThreadEvent[]): void {
    this.bus.publishThreadEvents(events);
    this.scheduler.kick(threadId);
  }

}

function queueUpdated(): NewThreadEvent {
  return { executionId: null, payload: { type: 'QueueUpdated' } };
}

/** Whether a compaction in force on the thread was made after that moment (a summary the failed turn did not have). */
async function compactedSince(tx: Tx, threadId: string, moment: Date): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ compacted: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM "message" m, jsonb_array_elements(m."parts") AS part
      WHERE m."threadId" = ${threadId} AND part->>'type' = 'compaction' AND part->>'undone' = 'false'
        AND (part->>'createdAt')::timestamptz > ${moment.toISOString()}::timestamptz
    ) AS "compacted"`;
  return row?.compacted ?? false;
}
