import type { TurnScheduler } from '../execution/turn-scheduler.ts';
import { prismaRunner, type SqlRunner } from '../storage/sql-client.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy, ThreadWithAgent } from '../auth/access.ts';
import { pathTo } from '../conversation/active-path.ts';
import { textOf, type MessagePart } from '../conversation/parts.ts';
import { withSessionLock, type Tx } from '../db/session-lock.ts';
import { ConflictError, InvalidInputError, type LimitExceededError, NotFoundError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import { validateIdempotencyKey, validateMessageText, type NewAttachment, type QueueLimits } from '../queue/message-input.ts';
import { QueueInsert } from '../queue/queue-insert.ts';

/** What names a message: its id, and the thread the caller believes it is in (checked when given). */
export interface MessageRef {
  messageId: string;
  threadId?: string | null;
}

interface MessageRow {
  id: string;
  threadId: string;
  role: 'USER' | 'ASSISTANT';
  parentId: string | null;
}

/**
 * A thread's messages form a tree and the thread shows one path of it, from the first message to
 * its active leaf (`Thread.activeLeafMessageId`). Edits and regenerations add a sibling through the
 * queue (their turn goes first, the pending items after it); a switch moves the leaf. Every change
 * of the leaf is a durable `BranchSwitched` event, and each message on the new path is stamped with
 * that event's seq (`Message.activeSeq`), so a switch to a message can find the leaf last active
 * under it. None of it runs while the thread has an active execution: stop it first.
 */
export class BranchService {
  private readonly inserts: QueueInsert;

  constructor(
    private readonly prisma: PrismaClient,
    /** The driver under Prisma: a new message's insert (src/storage/). */
    sql: SqlRunner,
    private readonly bus: LiveBus,
    private readonly access: AccessPolicy,
    private readonly scheduler: Pick<TurnScheduler, 'kick'>,
    private readonly limits: QueueLimits,
    onLimitExceeded: (error: LimitExceededError) => never,
  ) {
    this.inserts = new QueueInsert(sql, limits, onLimitExceeded);
  }

  /**
   * A new user message with the edited one's parent, text and its attachments kept, queued first;
   * the active path ends at that parent until its turn is admitted. The same idempotencyKey answers
   * with the first edit's MessageQueued.
   */
  async editMessage(user: User, ref: MessageRef, input: { text: string; idempotencyKey?: string | null }): Promise<ThreadEvent> {
    const text = validateMessageText(input.text, this.limits);
    const idempotencyKey = input.idempotencyKey ?? null;
    validateIdempotencyKey(idempotencyKey);
    // The namespace of sendMessage's keys: one key is one intent, whichever mutation carried it.
    const storedKey = idempotencyKey === null ? null : `client:${idempotencyKey}`;
    const { message, thread } = await this.messageOf(user, ref);
    if (message.role !== 'USER') {
      throw new InvalidInputError('messageId', 'is a reply; regenerate it (regenerateMessage) instead of editing it.');
    }
    const { queued, events } = await withSessionLock(this.prisma, thread.id, async (tx) => {
      if (storedKey !== null) {
        const previous = await this.inserts.queuedEventForKey(prismaRunner(tx), thread.id, storedKey);
        if (previous) return { queued: previous, events: [] };
      }
      await refuseWhileRunning(tx, thread.id);
      const files = await tx.attachment.findMany({ where: { messageId: message.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      const attachments: NewAttachment[] = files.map((file) => ({
        filename: file.filename,
        mediaType: file.mediaType,
        data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')),
      }));
      const switched = await moveLeaf(tx, thread.id, message.parentId);
      const outcome = await this.inserts.insert('head', prismaRunner(tx), thread.id, user.id, text, storedKey, attachments, message.id);
      return { queued: outcome.event, events: [switched, outcome.event] };
    });
    this.announce(thread.id, events);
    return queued;
  }

  /** A new reply to the same user message, a sibling of the given reply: its turn is queued first. */
  async regenerateMessage(user: User, ref: MessageRef): Promise<ThreadEvent> {
    const { message, thread } = await this.messageOf(user, ref);
    if (message.role !== 'ASSISTANT' || message.parentId === null) {
      throw new InvalidInputError('messageId', 'is a user message; edit it (editMessage), or regenerate its reply.');
    }
    const { queued, events } = await withSessionLock(this.prisma, thread.id, async (tx) => {
      await refuseWhileRunning(tx, thread.id);
      const asked = await tx.message.findUniqueOrThrow({ where: { id: message.parentId! }, select: { id: true, parts: true } });
      const switched = await moveLeaf(tx, thread.id, asked.id);
      const text = textOf(asked.parts as MessagePart[]);
      const outcome = await this.inserts.insert('head', prismaRunner(tx), thread.id, user.id, text, null, [], message.id);
      return { queued: outcome.event, events: [switched, outcome.event] };
    });
    this.announce(thread.id, events);
    return queued;
  }

  /**
   * The active path goes through the message, down to the leaf last active under it. Switching to
   * where the path already ends changes nothing (and appends no event).
   */
  async switchBranch(user: User, ref: MessageRef): Promise<{ threadId: string; leafMessageId: string | null }> {
    const { message, thread } = await this.messageOf(user, ref);
    const { leafMessageId, events } = await withSessionLock(this.prisma, thread.id, async (tx) => {
      await refuseWhileRunning(tx, thread.id);
      const tree = await tx.message.findMany({
        where: { threadId: thread.id },
        select: { id: true, parentId: true, seq: true, activeSeq: true },
      });
      const leaf = lastActiveLeafUnder(message.id, tree);
      const current = await tx.thread.findUniqueOrThrow({ where: { id: thread.id }, select: { activeLeafMessageId: true } });
      if (current.activeLeafMessageId === leaf) return { leafMessageId: leaf, events: [] };
      return { leafMessageId: leaf, events: [await moveLeaf(tx, thread.id, leaf)] };
    });
    this.announce(thread.id, events);
    return { threadId: thread.id, leafMessageId };
  }

  /** The message, if the user may act on its thread; its thread, checked against the one named. */
  private async messageOf(user: User, ref: MessageRef): Promise<{ message: MessageRow; thread: ThreadWithAgent }> {
    const askedFor = { entity: 'Message', id: ref.messageId };
    const message = await this.prisma.message.findUnique({
      where: { id: ref.messageId },
      select: { id: true, threadId: true, role: true, parentId: true },
    });
    if (!message) throw new NotFoundError(askedFor.entity, askedFor.id);
    const thread = await this.access.thread(user, message.threadId, 'agent:execute', askedFor);
    if (ref.threadId != null && ref.threadId !== message.threadId) {
      throw new InvalidInputError('messageId', 'belongs to another thread than threadId.');
    }
    return { message, thread };
  }

  /** After a commit: subscribers get the events, and the consumers a kick for the queued turn. */
  private announce(threadId: string, events: ThreadEvent[]): void {
    if (events.length === 0) return;
    this.bus.publishThreadEvents(events);
    this.scheduler.kick(threadId);
  }
}

/** Branches change only between turns: a running (or suspended) execution would answer on the old path. */
async function refuseWhileRunning(tx: Tx, threadId: string): Promise<void> {
  const active = await tx.execution.findFirst({
    where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
    select: { id: true },
  });
  if (active) {
    throw new ConflictError('An execution is running on this thread; stop it first (cancelExecution), then try again.');
  }
}

/**
 * Makes `leafId` the thread's active leaf, under the caller's session lock: appends the
 * BranchSwitched event and stamps the path to the leaf with its seq.
 */
async function moveLeaf(tx: Tx, threadId: string, leafId: string | null): Promise<ThreadEvent> {
  const [event] = await appendThreadEvents(prismaRunner(tx), threadId, [
    { executionId: null, payload: { type: 'BranchSwitched', leafMessageId: leafId } },
  ]);
  const path = await pathTo(tx, leafId);
  if (path.length > 0) await tx.message.updateMany({ where: { id: { in: path } }, data: { activeSeq: event!.seq! } });
  await tx.thread.update({ where: { id: threadId }, data: { activeLeafMessageId: leafId, lastActivityAt: new Date(event!.createdAt) } });
  return event!;
}

/**
 * From a message down to a leaf, taking at each step the child last made active (the highest
 * `activeSeq`; among children never active, the newest).
 */
export function lastActiveLeafUnder(
  messageId: string,
  tree: readonly { id: string; parentId: string | null; seq: bigint; activeSeq: number }[],
): string {
  const children = new Map<string, (typeof tree)[number][]>();
  for (const node of tree) {
    if (node.parentId === null) continue;
    const siblings = children.get(node.parentId) ?? [];
    siblings.push(node);
    children.set(node.parentId, siblings);
  }
  let leaf = messageId;
  const visited = new Set<string>();
  for (;;) {
    visited.add(leaf);
    const next = (children.get(leaf) ?? []).reduce<(typeof tree)[number] | null>((best, child) => {
      if (!best) return child;
      if (child.activeSeq !== best.activeSeq) return child.activeSeq > best.activeSeq ? child : best;
      return child.seq > best.seq ? child : best;
    }, null);
    if (!next || visited.has(next.id)) return leaf;
    leaf = next.id;
  }
}
