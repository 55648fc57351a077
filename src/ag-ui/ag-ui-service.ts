import { contentToText, type BaseEvent, type Message } from '@ag-ui/core';
import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import type { MessagePart, ToolCallPart } from '../conversation/parts.ts';
import type { DirectoryService } from '../directory/directory-service.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { EventBacklog } from '../events/event-backlog.ts';
import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { CancellationService } from '../execution/cancellation.ts';
import type { SuspensionService } from '../execution/suspensions.ts';
import type { PrismaClient, Thread, User } from '../generated/prisma/client.ts';
import { validateMessageText, type QueueLimits } from '../queue/message-input.ts';
import type { QueueService } from '../queue/queue-service.ts';
import { clientOfferOf, saveClientOffer } from './client-offer.ts';
import { isClientToolCall, openSuspensions, resolutionsOf } from './interrupts.ts';
import { isAnswered, textOfKind } from './message-mapping.ts';
import { parseRunRequest, userText } from './run-request.ts';
import { followRun, type RunFollow } from './run-stream.ts';
import { newInput, threadHistory, type ThreadHistory } from './thread-history.ts';
import { nothingKnown, type KnownReply } from './run-translator.ts';

/** The history of a thread not created yet. */
const emptyHistory = (): ThreadHistory => ({ messages: [], userIds: [], knownIds: new Set(), answeredCalls: new Set() });

/** A frontend tool's result is bounded as a message is (it reaches the model as one). */
function validateToolResult(text: string, limits: QueueLimits): void {
  if (text.length > limits.maxMessageChars) {
    throw new InvalidInputError('messages', `a tool result is ${text.length} characters long; the limit is ${limits.maxMessageChars}.`);
  }
}

/** What bounds one response's stream: its connection's backlog, and the end of its sign-in. */
export interface StreamBounds {
  backlog?: EventBacklog;
  /** Aborted (with the reason as its message) when the request's sign-in ends (its JWT expired, its user was disabled) or its client went away. */
  streamEnded?: AbortSignal;
}

export interface AgUiDeps {
  prisma: PrismaClient;
  access: AccessPolicy;
  directory: Pick<DirectoryService, 'createThread'>;
  queue: Pick<QueueService, 'enqueueOrAnswer'>;
  suspensions: Pick<SuspensionService, 'resolve'>;
  cancellation: Pick<CancellationService, 'cancel'>;
  limits: QueueLimits;
  logger: Pick<Logger, 'error'>;
  /** A thread's events for one subscriber from a cursor (src/events/run-event-stream.ts). */
  threadEvents(options: { threadId: string; after: string | null; backlog?: EventBacklog }): AsyncIterableIterator<RunEvent>;
}

/**
 * AG-UI's run request on Parley's domain: the thread (the caller's own, created on first use), the
 * history checked against it, interrupts answered through `resolveSuspension`'s rules, the new user
 * message queued as `sendMessage` queues it; then the stream of the run that follows. Everything
 * refused is refused before the stream opens and before anything changes.
 */
export class AgUiService {
  constructor(private readonly deps: AgUiDeps) {}

  /** Checks and applies one request; the answer is its stream's events. Throws a DomainError for a refusal. */
  async run(user: User, agentId: string, body: unknown, stream: StreamBounds = {}): Promise<AsyncGenerator<BaseEvent>> {
    const request = parseRunRequest(body);
    const offer = clientOfferOf(request.input.tools, request.input.context);
    const { prisma } = this.deps;
    const existing = await this.ownThread(user, agentId, request.threadId);
    const history = existing ? await threadHistory(prisma, existing.id) : emptyHistory();
    const open = existing ? await openSuspensions(prisma, { threadId: existing.id }) : [];
    const awaited = new Set(open.filter(isClientToolCall).map((suspension) => suspension.toolCallId));
    const { users: fresh, toolResults } = newInput(request.messages, history, awaited);
    const texts = fresh.map((message) => validateMessageText(userText(message), this.deps.limits));
    for (const result of toolResults) validateToolResult(contentToText(result.content), this.deps.limits);
    const asksToGoOn = request.resume.length > 0 || fresh.length > 0 || toolResults.length > 0;
    const resolutions = existing && asksToGoOn ? await resolutionsOf(prisma, existing.id, open, request.resume, toolResults) : [];
    if (!existing && request.resume.length > 0) throw new NotFoundError('Interrupt', request.resume[0]!.interruptId);
    const thread = existing ?? (await this.createThread(user, agentId, request.threadId));
    for (const message of fresh) await saveClientOffer(prisma, thread.id, message.id, offer);
    const cursor = (await prisma.thread.findUniqueOrThrow({ where: { id: thread.id }, select: { lastEventSeq: true } })).lastEventSeq;
    const follow: Omit<RunFollow, 'target' | 'after' | 'known'> = { request, threadId: thread.id, ...stream, snapshot: null };
    if (request.messages.length === 0) follow.snapshot = history.messages;

    if (resolutions.length > 0) {
      const executionId = resolutions[0]!.suspension.executionId;
      const known = await this.knownReply(executionId, toolResults.map((result) => result.toolCallId));
      for (const { suspension, resolution } of resolutions) await this.deps.suspensions.resolve(user, suspension.id, resolution);
      for (const [index, message] of fresh.entries()) await this.enqueue(user, thread.id, message, texts[index]!);
      return followRun(this.deps, { ...follow, target: { executionId }, after: cursor, known });
    }
    if (fresh.length > 0) {
      let queueId = '';
      let after = cursor;
      for (const [index, message] of fresh.entries()) {
        const queued = await this.enqueue(user, thread.id, message, texts[index]!);
        queueId = queued.queueId;
        // Sent before (the same message id): follow its turn from where it was queued.
        after = Math.min(after, queued.seq - 1);
      }
      return followRun(this.deps, { ...follow, target: { queueId }, after, known: nothingKnown() });
    }
    return this.attach(thread.id, follow, cursor);
  }

  /** Stop: the thread's running (or suspended) turn ends as cancelled; its stream ends with outcome `cancelled`. */
  async stop(user: User, agentId: string, threadId: string): Promise<{ cancelRequested: boolean }> {
    const thread = await this.ownThread(user, agentId, threadId.toLowerCase());
    if (!thread) throw new NotFoundError('Thread', threadId);
    const active = await this.activeExecution(thread.id);
    if (!active) throw new ConflictError('No run of this thread is active; nothing to stop.');
    return this.deps.cancellation.cancel(user, active.id);
  }

  /** Nothing new was sent: the thread as it stands, then the active run (if any) live, from the same position. */
  private async attach(threadId: string, follow: Omit<RunFollow, 'target' | 'after' | 'known'>, cursor: number) {
    const active = await this.activeExecution(threadId);
    const reply = active ? await this.deps.prisma.message.findFirst({ where: { executionId: active.id, role: 'ASSISTANT' }, select: { id: true } }) : null;
    const { messages } = await threadHistory(this.deps.prisma, threadId, reply?.id ?? null);
    const target = active ? { executionId: active.id } : null;
    const waiting = active?.status === 'SUSPENDED' ? { executionId: active.id, status: active.status, failure: null } : undefined;
    return followRun(this.deps, { ...follow, snapshot: messages, target, waiting, after: cursor, known: nothingKnown() });
  }

  private activeExecution(threadId: string) {
    return this.deps.prisma.execution.findFirst({
      where: { threadId, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      select: { id: true, status: true },
    });
  }

  /** The caller's thread of this agent; null when it does not exist yet; anyone else's is not found. */
  private async ownThread(user: User, agentId: string, threadId: string): Promise<Thread | null> {
    await this.deps.access.agent(user, agentId, 'agent:execute');
    const thread = await this.deps.prisma.thread.findUnique({ where: { id: threadId } });
    if (!thread) return null;
    if (thread.ownerId !== user.id || thread.agentId !== agentId) throw new NotFoundError('Thread', threadId);
    await this.deps.access.thread(user, thread.id, 'agent:execute');
    return thread;
  }

  private async createThread(user: User, agentId: string, threadId: string): Promise<Thread> {
    try {
      return await this.deps.directory.createThread(user, { agentId, id: threadId });
    } catch (error) {
      // Two first requests at once: the other one created it.
      const created = await this.ownThread(user, agentId, threadId);
      if (created) return created;
      throw error;
    }
  }

  private async enqueue(user: User, threadId: string, message: Message, text: string) {
    const event = await this.deps.queue.enqueueOrAnswer(user, { threadId, text, idempotencyKey: message.id });
    const payload = event.payload as { queueId: string };
    return { queueId: payload.queueId, seq: event.seq ?? Number.MAX_SAFE_INTEGER };
  }

  /**
   * What a client has of a suspended run's reply: its stream gave it all of that before the
   * interrupt, and it has its own tool messages for the frontend tool calls it answers now.
   */
  private async knownReply(executionId: string, answeredByClient: readonly string[]): Promise<KnownReply> {
    const reply = await this.deps.prisma.message.findFirst({ where: { executionId, role: 'ASSISTANT' }, select: { parts: true } });
    const parts = (reply?.parts ?? []) as MessagePart[];
    const calls = parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
    return {
      text: textOfKind(parts, 'text').length,
      reasoning: textOfKind(parts, 'reasoning').length,
      toolCalls: new Set(calls.map((call) => call.toolCallId)),
      results: new Set([...calls.filter(isAnswered).map((call) => call.toolCallId), ...answeredByClient]),
    };
  }
}
