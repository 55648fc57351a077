import { randomUUID } from 'node:crypto';
import type { AccessPolicy } from '../auth/access.ts';
import { withSessionLock } from '../db/session-lock.ts';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import { appendThreadEvents } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ThreadEvent } from '../events/thread-event.ts';
import type { Prisma, PrismaClient, User } from '../generated/prisma/client.ts';
import { prismaRunner } from '../storage/sql-client.ts';
import { checkedContent, type ElicitedContent, type RequestedSchema } from '../domain/elicitation-form.ts';
import { LeaseLost, ServerShutdown, STOP_REASON } from './running-executions.ts';

/** What a tool server asks of a run's user during one of its calls. */
export interface ElicitationRequest {
  message: string;
  requestedSchema: RequestedSchema;
}

/** The call that asks, on the run it belongs to. */
export interface ElicitingCall {
  threadId: string;
  executionId: string;
  toolCallId: string;
  /** `<server>/<tool>`, with its parts for the card. */
  toolName: string;
  server: string;
  tool: string;
}

/** What goes back to the server: MCP's ElicitResult. */
export type ElicitationAnswer = { action: 'accept'; content: ElicitedContent } | { action: 'decline' } | { action: 'cancel' };

/** The user's response, as `resolveSuspension(elicitation:)` takes it. */
export interface ElicitationResponse {
  action: 'ACCEPT' | 'DECLINE' | 'CANCEL';
  content?: unknown;
}

/** Why a card closed without the user: what its SuspensionResolved says. */
export type ElicitationClosed = 'STOPPED' | 'RESTARTED' | 'CALL_ENDED';

const CLOSED_MESSAGES: Record<ElicitationClosed, string> = {
  STOPPED: 'Stopped: the tool call was cancelled before an answer.',
  RESTARTED: 'Parley restarted while this question waited: the tool call failed (a tool server’s question cannot outlive its connection).',
  CALL_ENDED: 'The tool call ended before an answer (its timeout, or the tool server gave up).',
};

/**
 * A tool server's questions to the user during a call (MCP elicitation), as question cards. Unlike
 * an approval the run does not suspend: the call waits in flight, on the instance that holds its
 * connection, for an answer (`answer`, from any instance: relayed over the bus), or until the call
 * ends (Stop, its timeout, a shutdown), which closes the card. A card left open by an instance that
 * died is closed by the interruption of its run (`closeElicitationsOf`).
 */
export class ElicitationService {
  /** The calls waiting here, by their card's id. */
  private readonly waiting = new Map<string, (answer: ElicitationAnswer) => void>();
  /** Closes under way of cards whose call was aborted, by the execution they belong to. */
  private readonly closing = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: Pick<AccessPolicy, 'thread'>,
    private readonly bus: LiveBus,
  ) {}

  /**
   * Hears answers given on other instances to the calls waiting here, and every `sweepMs` reads
   * those recorded while their relay was lost (Redis down). Returns the function that stops both.
   */
  answerRelays(sweepMs: number): () => void {
    const stopListening = this.bus.onInstanceMessage((message) => {
      if (message.kind !== 'elicitation-answered' || !this.waiting.has(message.suspensionId)) return;
      void this.deliverRecorded([message.suspensionId]);
    });
    const sweep = setInterval(() => {
      if (this.waiting.size > 0) void this.deliverRecorded([...this.waiting.keys()]);
    }, sweepMs);
    sweep.unref();
    return () => {
      stopListening();
      clearInterval(sweep);
    };
  }

  /**
   * Opens the card and waits for the user; a `signal` that aborts first closes the card (the run's
   * ending waits for that close: `closesOf`), and the server gets `cancel`.
   */
  async ask(call: ElicitingCall, request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    if (signal.aborted) return { action: 'cancel' };
    const id = randomUUID();
    const answered = new Promise<ElicitationAnswer>((resolve) => this.waiting.set(id, resolve));
    const opened = this.open(call, id, request);
    let onAbort = () => {};
    const ended = new Promise<ElicitationAnswer>((resolve) => {
      // Started as the signal aborts, not when the call unwinds: the run may end before that.
      onAbort = () => {
        this.trackClose(call.executionId, opened.then(() => this.close(call.threadId, id, closedBecause(signal.reason))));
        resolve({ action: 'cancel' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await opened;
      return await Promise.race([answered, ended]);
    } finally {
      this.waiting.delete(id);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Settles once the cards of `executionId` that its abort closes are closed (and their events published). */
  async closesOf(executionId: string): Promise<void> {
    await Promise.all(this.closing.get(executionId) ?? []);
  }

  private trackClose(executionId: string, close: Promise<void>): void {
    const quiet = close.catch(() => {});
    const pending = this.closing.get(executionId) ?? new Set<Promise<void>>();
    this.closing.set(executionId, pending.add(quiet));
    void quiet.then(() => {
      pending.delete(quiet);
      if (pending.size === 0 && this.closing.get(executionId) === pending) this.closing.delete(executionId);
    });
  }

  private async open(call: ElicitingCall, id: string, request: ElicitationRequest): Promise<void> {
    // JSON columns (jsonb) keep no key order: the form's order, as the server gave it, is kept aside.
    const fields = Object.keys(request.requestedSchema.properties ?? {});
    const payload = { server: call.server, tool: call.tool, message: request.message, requestedSchema: request.requestedSchema, fields };
    const events = await withSessionLock(this.prisma, call.threadId, async (tx) => {
      await tx.suspension.create({
        data: {
          id,
          threadId: call.threadId,
          executionId: call.executionId,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          kind: 'ELICITATION',
          payload: payload as unknown as Prisma.InputJsonValue,
          // Nothing to resume from: the call itself waits.
          checkpoint: {},
        },
      });
      const opened = { type: 'SuspensionOpened' as const, suspensionId: id, kind: 'ELICITATION' as const, toolCallId: call.toolCallId, payload };
      return appendThreadEvents(prismaRunner(tx), call.threadId, [{ executionId: call.executionId, payload: opened }]);
    });
    this.bus.publishThreadEvents(events);
  }

  /** The user's answer, decline or cancel: recorded, then given to the waiting call wherever it waits. */
  async answer(user: User, suspensionId: string, response: ElicitationResponse): Promise<ThreadEvent> {
    const askedFor = { entity: 'Suspension', id: suspensionId };
    const suspension = await this.prisma.suspension.findUnique({ where: { id: suspensionId }, include: { execution: { select: { userId: true } } } });
    if (!suspension) throw new NotFoundError(askedFor.entity, askedFor.id);
    await this.access.thread(user, suspension.threadId, 'agent:execute', askedFor);
    if (suspension.kind !== 'ELICITATION') {
      throw new InvalidInputError('elicitation', 'answers a tool server’s question only; resolve this card with decision or answer.');
    }
    if (suspension.execution.userId !== user.id) {
      throw new ForbiddenError('agent:execute', 'Only the user whose run asked this question may answer it.');
    }
    if (suspension.status !== 'OPEN') throw new ConflictError(`This question is already ${suspension.status.toLowerCase()}.`);
    const answer = answerOf(suspension.payload as unknown as ElicitationRequest, response);
    const events = await withSessionLock(this.prisma, suspension.threadId, async (tx) => {
      const resolved = await tx.suspension.updateMany({
        where: { id: suspensionId, status: 'OPEN' },
        data: { status: 'RESOLVED', resolution: answer as unknown as Prisma.InputJsonValue, resolvedAt: new Date() },
      });
      if (resolved.count === 0) throw new ConflictError('This question was closed meanwhile.');
      const payload = { type: 'SuspensionResolved' as const, suspensionId, resolution: answer };
      return appendThreadEvents(prismaRunner(tx), suspension.threadId, [{ executionId: suspension.executionId, payload }]);
    });
    this.bus.publishThreadEvents(events);
    const waiting = this.waiting.get(suspensionId);
    if (waiting) waiting(answer);
    else this.bus.relayToInstances({ kind: 'elicitation-answered', suspensionId });
    return events[0]!;
  }

  private async deliverRecorded(suspensionIds: string[]): Promise<void> {
    const rows = await this.prisma.suspension
      .findMany({ where: { id: { in: suspensionIds }, status: 'RESOLVED' }, select: { id: true, resolution: true } })
      .catch(() => []);
    for (const row of rows) this.waiting.get(row.id)?.(row.resolution as unknown as ElicitationAnswer);
  }

  private async close(threadId: string, suspensionId: string, closed: ElicitationClosed): Promise<void> {
    this.bus.publishThreadEvents(await closeElicitations(this.prisma, threadId, { id: suspensionId }, closed));
  }
}

/**
 * Closes the open question cards of a run (and of the children it delegated to) whose instance
 * died: their calls are gone with it. Returns the events to publish.
 */
export function closeElicitationsOf(prisma: PrismaClient, threadId: string, executionId: string): Promise<ThreadEvent[]> {
  return closeElicitations(prisma, threadId, { execution: { OR: [{ id: executionId }, { parentExecutionId: executionId }] } }, 'RESTARTED');
}

async function closeElicitations(prisma: PrismaClient, threadId: string, which: Prisma.SuspensionWhereInput, closed: ElicitationClosed): Promise<ThreadEvent[]> {
  const resolution = { action: 'cancel', closed, message: CLOSED_MESSAGES[closed] };
  return withSessionLock(prisma, threadId, async (tx) => {
    const open = await tx.suspension.findMany({ where: { ...which, threadId, kind: 'ELICITATION', status: 'OPEN' }, select: { id: true, executionId: true } });
    if (open.length === 0) return [];
    await tx.suspension.updateMany({
      where: { id: { in: open.map((card) => card.id) }, status: 'OPEN' },
      data: { status: 'CANCELLED', resolution, resolvedAt: new Date() },
    });
    return appendThreadEvents(
      prismaRunner(tx),
      threadId,
      open.map((card) => ({ executionId: card.executionId, payload: { type: 'SuspensionResolved' as const, suspensionId: card.id, resolution } })),
    );
  });
}

function answerOf(request: ElicitationRequest, response: ElicitationResponse): ElicitationAnswer {
  if (response.action === 'ACCEPT') return { action: 'accept', content: checkedContent(request.requestedSchema, response.content ?? {}) };
  if (response.content != null) throw new InvalidInputError('elicitation.content', 'goes only with ACCEPT.');
  return { action: response.action === 'DECLINE' ? 'decline' : 'cancel' };
}

function closedBecause(reason: unknown): ElicitationClosed {
  if (reason instanceof ServerShutdown || reason instanceof LeaseLost) return 'RESTARTED';
  if (reason instanceof Error && reason.message === STOP_REASON) return 'STOPPED';
  return 'CALL_ENDED';
}
