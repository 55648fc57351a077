import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { RunEventRecord } from '../events/run-event.ts';
import { withSessionLock, type Tx } from '../execution/session-lock.ts';

export interface QueueLimits {
  maxMessageChars: number;
}

const MAX_IDEMPOTENCY_KEY_CHARS = 200;

export function validateMessageText(text: string, limits: QueueLimits): string {
  if (text.trim().length === 0) throw new InvalidInputError('text', 'must not be empty.');
  if (text.length > limits.maxMessageChars) {
    throw new InvalidInputError('text', `is ${text.length} characters long; the limit is ${limits.maxMessageChars}.`);
  }
  return text;
}

/** The durable queue of a thread's pending user messages (SPEC §6). */
export class QueueService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly bus: LiveBus,
    private readonly access: AccessPolicy,
    private readonly kick: (threadId: string) => void,
    private readonly limits: QueueLimits,
  ) {}

  /** Commits the item (and its MessageQueued event) before anyone is told about it. */
  async enqueue(
    user: User,
    input: { threadId: string; text: string; idempotencyKey?: string | null },
  ): Promise<RunEventRecord> {
    const text = validateMessageText(input.text, this.limits);
    const idempotencyKey = input.idempotencyKey ?? null;
    if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_CHARS)) {
      throw new InvalidInputError('idempotencyKey', `must be 1 to ${MAX_IDEMPOTENCY_KEY_CHARS} characters.`);
    }
    const thread = await this.access.thread(user, input.threadId, 'agent:execute');
    return this.commit(thread.id, (tx) => this.insert(tx, thread.id, user.id, text, idempotencyKey, 'tail'));
  }

  /**
   * Re-queues the input of a failed turn at the head of the queue, for a failure a retry can fix.
   * Retrying the same execution again answers with the item the first retry queued.
   */
  async retryFailed(user: User, executionId: string): Promise<RunEventRecord> {
    const execution = await this.prisma.execution.findUnique({ where: { id: executionId } });
    if (!execution) throw new NotFoundError('Execution', executionId);
    const thread = await this.access.thread(user, execution.threadId, 'agent:execute');
    if (execution.parentExecutionId) {
      throw new InvalidInputError('executionId', 'is a delegated child execution; retry the turn it belongs to.');
    }
    const retryKey = `retry:${execution.id}`;
    return this.commit(thread.id, async (tx) => {
      const previous = await this.queuedEventForKey(tx, thread.id, retryKey);
      if (previous) return { event: previous, isNew: false };
      const current = await tx.execution.findUniqueOrThrow({ where: { id: execution.id } });
      if (current.status !== 'FAILED') {
        throw new ConflictError(`This execution is ${current.status}; only a failed execution can be retried.`);
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
      createdAt: row.createdAt.toISOString(),
      payload: row.payload as unknown as RunEventRecord['payload'],
    };
  }
}
