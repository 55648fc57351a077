import type { PrismaClient, QueueItem, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, NotFoundError, QueueChangedError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { NewRunEvent, RunEventRecord } from '../events/run-event.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import type { SuspensionService } from '../execution/suspensions.ts';
import { checkedMediaType, safeFilename } from './attachment-policy.ts';

export interface QueueLimits {
  maxMessageChars: number;
  maxAttachmentBytes: number;
  maxAttachments: number;
}

export interface NewAttachment {
  filename: string;
  mediaType: string;
  data: Uint8Array;
}

const QUEUED_MESSAGE = 'Queued message';

/** Checks the files of a message and returns them as they are stored: safe names, checked media types. */
function validateAttachments(attachments: readonly NewAttachment[], limits: QueueLimits): NewAttachment[] {
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

export function validateMessageText(text: string, limits: QueueLimits): string {
  if (text.trim().length === 0) throw new InvalidInputError('text', 'must not be empty.');
  if (text.length > limits.maxMessageChars) {
    throw new InvalidInputError('text', `is ${text.length} characters long; the limit is ${limits.maxMessageChars}.`);
  }
  return text;
}

/** The durable queue of a thread's pending user messages. */
export class QueueService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly access: AccessPolicy,
    private readonly kick: (threadId: string) => void,
    private readonly limits: QueueLimits,
    private readonly questions: Pick<SuspensionService, 'answerOpenQuestion'>,
  ) {}

  /**
   * Queues a message to a thread whose access and input were checked already; commits the item
   * (and its MessageQueued event) before anyone is told about it.
   */
  private async enqueueChecked(
    user: User,
    threadId: string,
    input: { text: string; idempotencyKey?: string | null; attachments?: readonly NewAttachment[] },
  ): Promise<RunEventRecord> {
    const { text } = input;
    const attachments = input.attachments ?? [];
    const idempotencyKey = input.idempotencyKey ?? null;
    if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_CHARS)) {
      throw new InvalidInputError('idempotencyKey', `must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} characters.`);
    }
    const thread = { id: threadId };
    // Keys are namespaced by who chose them, so a client's key can never pose as a retry's.
    const storedKey = idempotencyKey === null ? null : `client:${idempotencyKey}`;
    return this.commit(thread.id, (tx) => this.insert(tx, thread.id, user.id, text, storedKey, 'tail', attachments));
  }

  /** sendMessage: answers the open question card if there is one, else queues the message. */
  async enqueueOrAnswer(
    user: User,
    input: { threadId: string; text: string; idempotencyKey?: string | null; attachments?: readonly NewAttachment[] },
  ): Promise<RunEventRecord> {
    const text = validateMessageText(input.text, this.limits);
    const attachments = validateAttachments(input.attachments ?? [], this.limits);
    const thread = await this.access.thread(user, input.threadId, 'agent:execute');
    // An answer to a question card is text only; with files it is a new message.
    const answered = attachments.length ? null : await this.questions.answerOpenQuestion(thread.id, text);
    return answered ?? this.enqueueChecked(user, thread.id, { ...input, text, attachments });
  }

  /**
   * Re-queues the input of a failed turn at the head of the queue, for a failure a retry can fix.
   * Retrying the same execution again answers with the item the first retry queued.
   */
  async retryFailed(user: User, executionId: string): Promise<RunEventRecord> {
    const execution = await this.prisma.execution.findUnique({ where: { id: executionId } });
    const askedFor = { entity: 'Execution', id: executionId };
    if (!execution) throw new NotFoundError(askedFor.entity, askedFor.id);
    const thread = await this.access.thread(user, execution.threadId, 'agent:execute', askedFor);
    if (execution.parentExecutionId) {
      throw new InvalidInputError('executionId', 'is a delegated child execution; retry the turn it belongs to.');
    }
    const retryKey = `retry:${execution.id}`;
    return this.commit(thread.id, async (tx) => {
      const previous = await this.queuedEventForKey(tx, thread.id, retryKey);
      if (previous) return { event: previous, isNew: false };
      const current = await tx.execution.findUniqueOrThrow({ where: { id: execution.id } });
      if (current.status !== 'FAILED' && current.status !== 'INTERRUPTED') {
        throw new ConflictError(`This execution is ${current.status}; only a failed or interrupted execution can be retried.`);
      }
      const failure = current.error as { reason?: string; retryable?: boolean } | null;
      if (!failure?.retryable) {
        throw new ConflictError(`This execution failed with ${failure?.reason ?? 'an error'}, which a retry cannot fix.`);
      }
      const later = await tx.execution.findFirst({
        where: { threadId: thread.id, parentExecutionId: null, createdAt: { gt: current.createdAt } },
        select: { id: true },
      });
      if (later) {
        throw new ConflictError('A later turn has run since; send the message again instead of retrying this one.');
      }
      return this.insert(tx, thread.id, user.id, current.acceptedText, retryKey, 'head');
    });
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
  private async locked<T>(threadId: string, work: (tx: Tx) => Promise<{ result: T; events: NewRunEvent[] }>): Promise<T> {
    const { result, events } = await withSessionLock(this.prisma, threadId, async (tx) => {
      const outcome = await work(tx);
      return { result: outcome.result, events: await appendThreadEvents(tx, threadId, outcome.events) };
    });
    this.bus.publishThreadEvents(events);
    this.kick(threadId);
    return result;
  }

  private async commit(
    threadId: string,
    work: (tx: Tx) => Promise<{ event: RunEventRecord; isNew: boolean }>,
  ): Promise<RunEventRecord> {
    const outcome = await withSessionLock(this.prisma, threadId, work);
    if (outcome.isNew) {
      this.bus.publishThreadEvents([outcome.event]);
      this.kick(threadId);
    }
    return outcome.event;
  }

  private async insert(
    tx: Tx,
    threadId: string,
    userId: string,
    text: string,
    idempotencyKey: string | null,
    where: 'head' | 'tail',
    attachments: readonly NewAttachment[] = [],
  ): Promise<{ event: RunEventRecord; isNew: boolean }> {
    if (idempotencyKey !== null) {
      const previous = await this.queuedEventForKey(tx, threadId, idempotencyKey);
      if (previous) return { event: previous, isNew: false };
    }
    const edge = await tx.queueItem.findFirst({
      where: { threadId },
      orderBy: { position: where === 'tail' ? 'desc' : 'asc' },
      select: { position: true },
    });
    const position = where === 'tail' ? (edge?.position ?? 0) + 1 : (edge?.position ?? 1) - 1;
    const item = await tx.queueItem.create({ data: { threadId, userId, text, idempotencyKey, position } });
    if (attachments.length > 0) {
      await tx.attachment.createMany({
        data: attachments.map((attachment) => ({
          queueItemId: item.id,
          filename: attachment.filename,
          mediaType: attachment.mediaType,
          size: attachment.data.byteLength,
          dataBase64: Buffer.from(attachment.data).toString('base64'),
        })),
      });
    }
    const [event] = await appendThreadEvents(tx, threadId, [
      { executionId: null, payload: { type: 'MessageQueued', queueId: item.id, text, idempotencyKey } },
    ]);
    return { event: event!, isNew: true };
  }

  /** A retried send answers with what the first one recorded, whether its item is pending or started. */
  private async queuedEventForKey(tx: Tx, threadId: string, idempotencyKey: string): Promise<RunEventRecord | null> {
    const row = await tx.threadEvent.findFirst({
      where: { threadId, type: 'MessageQueued', payload: { path: ['idempotencyKey'], equals: idempotencyKey } },
    });
    if (!row) return null;
    return {
      threadId,
      seq: row.seq,
      executionId: row.executionId,
      parentExecutionId: row.parentExecutionId,
      createdAt: row.createdAt.toISOString(),
      payload: row.payload as unknown as RunEventRecord['payload'],
    };
  }
}

function queueUpdated(): NewRunEvent {
  return { executionId: null, payload: { type: 'QueueUpdated' } };
}
