import { parseCursor, resumeAfter, type RunEvent } from '../events/subscriber-ledger.ts';
import type { ThreadEventPayload, ThreadEventType } from '../events/thread-event.ts';
import type { MessagePart } from '../conversation/parts.ts';
import type { ErrorReason } from '../errors/taxonomy.ts';
import { DomainError } from '../domain/errors.ts';
import { ExecutionStatus } from '../generated/prisma/enums.ts';
import { builder, type BuilderTypes } from './builder.ts';
import { requireViewer } from './context.ts';
import { ErrorReasonEnum, failureFields } from './failure.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';
import { MessagePartUnion, ToolCallStateEnum, ToolProgressRef } from './message.ts';

/**
 * A stream that ends with a domain error (e.g. live delivery unavailable) delivers it as its last
 * result, so that it reaches the client as a GraphQL error with its `extensions.code` (through the
 * same masking as any resolver error), then completes; a thrown iterator error would lose the code.
 */
function endingAsResult(
  events: AsyncIterableIterator<RunEvent>,
): AsyncIterableIterator<RunEvent | DomainError> {
  // Not an async generator: its return() would wait for the next event, on a quiet thread forever.
  let ended = false;
  // Promise chains, not an async function: an idle subscription waits in next(), and a suspended
  // async function keeps a frame for as long as it waits.
  const endWith = (error: unknown): IteratorResult<RunEvent | DomainError> => {
    if (!(error instanceof DomainError)) throw error;
    ended = true;
    return { done: false, value: error };
  };
  return {
    next: () => {
      if (ended) return Promise.resolve({ done: true, value: undefined });
      return events.next().catch(endWith);
    },
    return: (value?: unknown) => events.return!(value),
    throw: (error?: unknown) => events.throw!(error),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

type EventOf<T extends ThreadEventType> = RunEvent & { payload: Extract<ThreadEventPayload, { type: T }> };

/** Events that come before any execution exists: a message entering the queue, the queue changing. */
const THREAD_EVENT_TYPES: ReadonlySet<ThreadEventType> = new Set(['MessageQueued', 'QueueUpdated', 'BranchSwitched', 'ThreadCompacted']);

const eventTypeOf = (event: unknown) => (event as RunEvent).payload.type;

const RunEventInterface = builder.interfaceRef<RunEvent>('RunEvent').implement({
  description:
    'Every event of a thread. Select `cursor` here once: pass the last durable one (no dot) to `runEvents(after:)` to resume.',
  resolveType: eventTypeOf,
  fields: (t) => ({
    cursor: t.exposeString('cursor', {
      description:
        'Opaque resume point. A durable event’s cursor is the same on every connection and instance; a live-only one (TextDelta, ReasoningDelta, ToolCallProgress, MessageSnapshot) is valid only on its connection.',
    }),
    threadId: t.id({ resolve: (event) => encodeId('Thread', event.threadId) }),
    createdAt: t.field({ type: 'DateTime', resolve: (event) => event.createdAt }),
  }),
});

const ExecutionEventInterface = builder.interfaceRef<RunEvent>('ExecutionEvent').implement({
  description: 'An event about one execution (every event but MessageQueued, QueueUpdated, BranchSwitched and ThreadCompacted).',
  interfaces: [RunEventInterface],
  resolveType: eventTypeOf,
  fields: (t) => ({
    executionId: t.id({ resolve: (event) => encodeId('Execution', event.executionId!) }),
    parentExecutionId: t.id({
      nullable: true,
      description: 'Set on a delegated child’s events: the execution whose reply shows the child’s card.',
      resolve: (event) => encodeOptionalId('Execution', event.parentExecutionId),
    }),
  }),
});

/**
 * One GraphQL object type per event kind, implementing RunEvent (and ExecutionEvent when it is about
 * one). No `isTypeOf`: the interfaces' resolveType (and the unions' that hold some of these types)
 * names the type from `payload.type` once per event, instead of every member testing it.
 */
export function runEventType<T extends ThreadEventType>(
  type: T,
  description: string,
  fields: (t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, EventOf<T>>) => object = () => ({}),
) {
  return builder.objectRef<EventOf<T>>(type).implement({
    description,
    interfaces: (THREAD_EVENT_TYPES.has(type) ? [RunEventInterface] : [RunEventInterface, ExecutionEventInterface]) as never,
    fields: (t) => fields(t) as never,
  });
}

export const MessageQueuedRef = runEventType('MessageQueued', 'A message was accepted into the queue (committed).', (t) => ({
  queueId: t.id({ resolve: (event) => encodeId('QueueItem', event.payload.queueId) }),
  text: t.string({ resolve: (event) => event.payload.text }),
}));

export const SuspensionResolvedRef = runEventType(
  'SuspensionResolved',
  'An approval or question was answered (or cancelled with its execution).',
  (t) => ({
    suspensionId: t.id({ resolve: (event) => encodeId('Suspension', event.payload.suspensionId) }),
    resolution: t.field({ type: 'JSON', nullable: true, resolve: (event) => event.payload.resolution }),
  }),
);

// Each call adds its type to the schema; runEvents returns the RunEvent interface.
runEventType('ExecutionStarted', 'An execution was admitted; carries the text it accepted.', (t) => ({
  acceptedText: t.string({ resolve: (event) => event.payload.acceptedText }),
  queueId: t.id({ resolve: (event) => encodeId('QueueItem', event.payload.queueId) }),
  userMessageId: t.id({ resolve: (event) => encodeId('Message', event.payload.userMessageId) }),
}));
runEventType('TextDelta', 'Streamed reply text (live only; a reload shows the recorded snapshot).', (t) => ({
  messageId: t.id({ resolve: (event) => encodeId('Message', event.payload.messageId) }),
  text: t.string({ resolve: (event) => event.payload.text }),
  offset: t.int({
    description: 'Characters of the message’s text before this delta.',
    resolve: (event) => event.payload.offset,
  }),
}));
runEventType('ReasoningDelta', 'Streamed reasoning (live only).', (t) => ({
  messageId: t.id({ resolve: (event) => encodeId('Message', event.payload.messageId) }),
  text: t.string({ resolve: (event) => event.payload.text }),
  offset: t.int({ resolve: (event) => event.payload.offset }),
}));
runEventType('MessageSnapshot', 'The running reply as recorded so far, sent on resume before live deltas.', (t) => ({
  messageId: t.id({ resolve: (event) => encodeId('Message', event.payload.messageId) }),
  parts: t.field({ type: [MessagePartUnion], resolve: (event) => event.payload.parts as MessagePart[] }),
  textLength: t.int({ resolve: (event) => event.payload.textLength }),
}));
runEventType('ToolCallEvent', 'A tool call was made or changed state.', (t) => ({
  messageId: t.id({ resolve: (event) => encodeId('Message', event.payload.messageId) }),
  toolCallId: t.string({ resolve: (event) => event.payload.toolCallId }),
  toolName: t.string({ resolve: (event) => event.payload.toolName }),
  state: t.field({ type: ToolCallStateEnum, resolve: (event) => event.payload.state }),
  input: t.field({ type: 'JSON', nullable: true, resolve: (event) => event.payload.input }),
  output: t.field({ type: 'JSON', nullable: true, resolve: (event) => event.payload.output }),
  error: t.string({ nullable: true, resolve: (event) => event.payload.error ?? null }),
  durationMs: t.int({ nullable: true, resolve: (event) => event.payload.durationMs ?? null }),
}));
runEventType(
  'ToolCallProgress',
  'A running tool call’s server reported progress (live only, coalesced like text deltas: the latest within a window; a reload shows the last one on its ToolCallPart).',
  (t) => ({
    messageId: t.id({ resolve: (event) => encodeId('Message', event.payload.messageId) }),
    toolCallId: t.string({ resolve: (event) => event.payload.toolCallId }),
    progress: t.field({ type: ToolProgressRef, resolve: (event) => event.payload }),
  }),
);
runEventType('SuspensionOpened', 'The execution waits for an approval or an answer.', (t) => ({
  suspensionId: t.id({ resolve: (event) => encodeId('Suspension', event.payload.suspensionId) }),
  kind: t.string({ resolve: (event) => event.payload.kind }),
  toolCallId: t.string({ resolve: (event) => event.payload.toolCallId }),
  payload: t.field({ type: 'JSON', resolve: (event) => event.payload.payload }),
}));
runEventType('MessageSteered', 'Queued messages entered the running execution.', (t) => ({
  queueIds: t.idList({ resolve: (event) => event.payload.queueIds.map((id) => encodeId('QueueItem', id)) }),
  texts: t.stringList({ resolve: (event) => event.payload.texts }),
}));
runEventType('RetryScheduled', 'A retryable failure; the next attempt starts after delayS.', (t) => ({
  attempt: t.int({ resolve: (event) => event.payload.attempt }),
  delayS: t.float({ resolve: (event) => event.payload.delayS }),
  reason: t.field({ type: ErrorReasonEnum, resolve: (event) => event.payload.reason as ErrorReason }),
}));
runEventType('ErrorEvent', 'The run’s one failure, with the full taxonomy; the same as its ErrorPart.', (t) =>
  failureFields(t, (event) => event.payload),
);
export const ExecutionFinishedRef = runEventType('ExecutionFinished', 'The execution reached a final (or suspended) state.', (t) => ({
  status: t.field({ type: ExecutionStatus, resolve: (event) => event.payload.status }),
}));
runEventType('QueueUpdated', 'The queue changed; read queue(threadId) again.');
export const BranchSwitchedRef = runEventType(
  'BranchSwitched',
  'The active path now ends at leafMessageId (an edit or regeneration cut it at the parent of its new message; a switch moved it); read conversation again unless you hold that path.',
  (t) => ({
    leafMessageId: t.id({
      nullable: true,
      description: 'Null when no message is on the path (the first message was edited and its turn has not started).',
      resolve: (event) => encodeOptionalId('Message', event.payload.leafMessageId),
    }),
  }),
);
runEventType('ExecutionUpdated', 'An execution changed state; read conversation again.', (t) => ({
  status: t.field({ type: ExecutionStatus, resolve: (event) => event.payload.status }),
}));

builder.subscriptionField('runEvents', (t) =>
  t.field({
    type: RunEventInterface,
    // Not withAuth: its context type would promise a viewer to subscribe, which scope-auth does not
    // check (it checks each event as it resolves), so subscribe asks for the viewer itself.
    authScopes: { authenticated: true },
    description: 'A thread’s events. With `after`, replays what came after that cursor first: nothing missed, nothing twice.',
    args: { threadId: t.arg.id({ required: true }), after: t.arg.string() },
    subscribe: async (_root, args, context) => {
      if (args.after != null) parseCursor(args.after);
      const thread = await context.services.access.thread(
        requireViewer(context),
        decodeIdArg(args, 'threadId', 'Thread'),
        'agent:read',
      );
      if (args.after != null) resumeAfter(args.after, thread.lastEventSeq);
      return endingAsResult(context.threadEvents({ threadId: thread.id, after: args.after ?? null }));
    },
    resolve: (event: RunEvent | DomainError) => {
      if (event instanceof DomainError) throw event;
      return event as never;
    },
  }),
);
