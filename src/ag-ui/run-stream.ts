import { EventType, type BaseEvent, type Message, type TokenUsage } from '@ag-ui/core';
import type { Logger } from 'pino';
import { DomainError, UnauthenticatedError } from '../domain/errors.ts';
import type { EventBacklog } from '../events/event-backlog.ts';
import type { RunEvent } from '../events/subscriber-ledger.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { interruptOf, isClientToolCall, openSuspensions } from './interrupts.ts';
import type { RunRequest } from './run-request.ts';
import { RunTranslator, type KnownReply, type RunEnd, type RunTarget } from './run-translator.ts';

/** What one AG-UI response streams: the thread's events from a cursor, as one run of the request. */
export interface RunFollow {
  request: RunRequest;
  threadId: string;
  /** The run to follow; null when nothing runs (the stream is the snapshot and the run's end). */
  target: RunTarget | null;
  /** The thread's event cursor (a seq) the stream starts after: nothing after it is missed. */
  after: number;
  known: KnownReply;
  /** Sent as MESSAGES_SNAPSHOT right after RUN_STARTED. */
  snapshot: Message[] | null;
  /** The followed run waits for an interrupt's answer: the stream ends with it at once. */
  waiting?: RunEnd;
  backlog?: EventBacklog;
  streamEnded?: AbortSignal;
}

interface StreamDeps {
  prisma: PrismaClient;
  /** Told what ended a stream unexpectedly (the client is told only that it failed). */
  logger: Pick<Logger, 'error'>;
  threadEvents(options: { threadId: string; after: string | null; backlog?: EventBacklog }): AsyncIterableIterator<RunEvent>;
}

/**
 * RUN_STARTED, the snapshot if asked for, the followed run's events as AG-UI events, and its end:
 * RUN_FINISHED (success, interrupt or cancelled, with the usage when known) or RUN_ERROR with
 * Parley's reason as `code`. A stream that fails (live delivery lost) closes what it opened and ends
 * with RUN_ERROR; the run itself goes on, and a new request attaches to it.
 */
export async function* followRun(deps: StreamDeps, follow: RunFollow): AsyncGenerator<BaseEvent> {
  const { threadId: agUiThreadId, runId } = follow.request.input;
  yield { type: EventType.RUN_STARTED, threadId: agUiThreadId, runId };
  if (follow.snapshot) yield { type: EventType.MESSAGES_SNAPSHOT, messages: follow.snapshot };
  if (follow.target === null) {
    yield { type: EventType.RUN_FINISHED, threadId: agUiThreadId, runId, outcome: { type: 'success' } };
    return;
  }
  if (follow.waiting) {
    yield await runEnd(deps.prisma, follow, follow.waiting);
    return;
  }
  const translator = new RunTranslator(follow.target, follow.known);
  const events = deps.threadEvents({ threadId: follow.threadId, after: String(follow.after), backlog: follow.backlog });
  try {
    for (;;) {
      const next = await untilStreamEnds(events, follow.streamEnded);
      if (next.done) break;
      const { events: translated, end } = translator.translate(next.value);
      yield* translated;
      if (end) {
        yield* translator.close();
        yield await runEnd(deps.prisma, follow, end);
        return;
      }
    }
    throw new Error('The thread event stream ended before the run did.');
  } catch (error) {
    yield* translator.close();
    if (!(error instanceof DomainError)) deps.logger.error({ err: error, threadId: follow.threadId }, 'an AG-UI stream failed');
    const code = error instanceof DomainError ? error.code : 'INTERNAL';
    const message = error instanceof DomainError ? error.message : 'The stream failed; the run goes on: send the request again with nothing new to attach to it.';
    yield { type: EventType.RUN_ERROR, message, code, metadata: { retryable: true, retryAfterS: 1 } };
  } finally {
    // Not awaited: a stream parked for its next event finishes its return() only once that event comes.
    events.return?.()?.catch(() => undefined);
  }
}

/**
 * The stream's next event, or an UNAUTHENTICATED error once the stream is ended (its sign-in ended, its client left). A listener per wait,
 * removed after it: one long-lived promise raced on every event would keep a reaction per event.
 */
function untilStreamEnds(events: AsyncIterableIterator<RunEvent>, streamEnded: AbortSignal | undefined): Promise<IteratorResult<RunEvent>> {
  if (!streamEnded) return events.next();
  if (streamEnded.aborted) return Promise.reject(new UnauthenticatedError(String(streamEnded.reason)));
  return new Promise((resolve, reject) => {
    const ended = () => reject(new UnauthenticatedError(String(streamEnded.reason)));
    streamEnded.addEventListener('abort', ended, { once: true });
    events.next().then(resolve, reject).finally(() => streamEnded.removeEventListener('abort', ended));
  });
}

/** The run's last event, from how its execution ended. */
async function runEnd(prisma: PrismaClient, follow: RunFollow, end: RunEnd): Promise<BaseEvent> {
  const { threadId, runId } = follow.request.input;
  const usage = await usageOf(prisma, end.executionId);
  if (end.status === 'COMPLETED') return { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: 'success' }, ...usage };
  if (end.status === 'CANCELLED') return { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: 'cancelled' }, ...usage };
  if (end.status === 'SUSPENDED') {
    const open = await openSuspensions(prisma, { executionId: end.executionId });
    const interrupts = open.filter((suspension) => !isClientToolCall(suspension));
    // A run that stopped on a frontend tool call completed, as AG-UI says: the client answers it in its next request.
    const pendingToolCallIds = open.filter(isClientToolCall).map((suspension) => suspension.toolCallId);
    // Answered already (by another client) in the meantime: the run goes on, and a new request attaches to it.
    const outcome =
      interrupts.length > 0
        ? { type: 'interrupt' as const, interrupts: interrupts.map(interruptOf) }
        : { type: 'success' as const, ...(pendingToolCallIds.length > 0 ? { pendingToolCallIds } : {}) };
    return { type: EventType.RUN_FINISHED, threadId, runId, outcome, ...usage };
  }
  const failure = end.failure;
  return {
    type: EventType.RUN_ERROR,
    message: failure?.message ?? `The run ended ${end.status.toLowerCase()}.`,
    code: failure?.reason ?? end.status,
    metadata: { executionStatus: end.status, retryable: failure?.retryable ?? false, retryAfterS: failure?.retryAfterS ?? null },
    ...usage,
  };
}

async function usageOf(prisma: PrismaClient, executionId: string): Promise<{ usage?: TokenUsage[] }> {
  const execution = await prisma.execution.findUnique({
    where: { id: executionId },
    select: { inputTokens: true, outputTokens: true, agent: { select: { model: true } } },
  });
  if (!execution || execution.inputTokens + execution.outputTokens === 0) return {};
  const { inputTokens, outputTokens } = execution;
  return { usage: [{ model: execution.agent.model, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }] };
}
