import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { InvalidInputError } from '../domain/errors.ts';
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

    const outcome = await withSessionLock(this.prisma, thread.id, async (tx) => {
      if (idempotencyKey !== null) {
        const previous = await this.queuedEventForKey(tx, thread.id, idempotencyKey);
        if (previous) return { event: previous, isNew: false };
      }
      const last = await tx.queueItem.findFirst({
        where: { threadId: thread.id },
        orderBy: { position: 'desc' },
        select: { position: true },
      });
      const item = await tx.queueItem.create({
        data: { threadId: thread.id, userId: user.id, text, idempotencyKey, position: (last?.position ?? 0) + 1 },
      });
      const [event] = await appendThreadEvents(tx, thread.id, [
        { executionId: null, payload: { type: 'MessageQueued', queueId: item.id, text, idempotencyKey } },
      ]);
      return { event: event!, isNew: true };
    });
    if (outcome.isNew) {
      this.bus.publishThreadEvents([outcome.event]);
      this.kick(thread.id);
    }
    return outcome.event;
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
