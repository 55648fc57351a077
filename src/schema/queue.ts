import { errorTypeMap, wrapOrThrow } from '@pothos/plugin-errors';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  LimitExceededError,
  NotFoundError,
  QueueChangedError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../domain/errors.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS, ErrorInterface } from './errors.ts';
import { decodeIdArg, decodeIdListArg, encodeId, encodeOptionalId } from './ids.ts';
import { MessageQueuedRef, SuspensionResolvedRef } from './run-events.ts';

builder.prismaNode('QueueItem', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    text: t.exposeString('text'),
    position: t.exposeInt('position'),
    steeringExecutionId: t.id({
      nullable: true,
      description: 'Set while the item is reserved for steering into that running execution.',
      resolve: (item) => encodeOptionalId('Execution', item.steeringExecutionId),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface QueueShape {
  threadId: string;
  steerableExecutionId: string | null;
}

const Queue = builder.objectRef<QueueShape>('Queue').implement({
  description: 'Pending messages of a thread in their saved order.',
  fields: (t) => ({
    threadId: t.id({ resolve: (queue) => encodeId('Thread', queue.threadId) }),
    steerableExecutionId: t.id({
      nullable: true,
      resolve: (queue) => encodeOptionalId('Execution', queue.steerableExecutionId),
    }),
    items: t.prismaField({
      type: ['QueueItem'],
      resolve: (query, queue, _args, context) =>
        context.loader.queueItem.findMany({
          ...query,
          where: { threadId: queue.threadId },
          orderBy: { position: 'asc' },
        }),
    }),
  }),
});

builder.queryField('queue', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Queue,
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const view = await services.conversations.queue(viewer, decodeIdArg(args, 'threadId', 'Thread'));
      return { threadId: view.thread.id, steerableExecutionId: view.steerableExecutionId };
    },
  }),
);

const SEND_MESSAGE_ERRORS = [
  NotFoundError,
  ForbiddenError,
  InvalidInputError,
  RateLimitedError,
  ServiceUnavailableError,
  ConflictError,
  LimitExceededError,
];

const SendMessageResult = builder.unionType('SendMessageResult', {
  description:
    'MessageQueued, or SuspensionResolved when the text answered the open question card instead; else a typed error.',
  types: [MessageQueuedRef, SuspensionResolvedRef, ...SEND_MESSAGE_ERRORS],
  resolveType: (value) =>
    errorTypeMap.get(value as object)?.name ?? (value as { payload: { type: string } }).payload.type,
});

builder.mutationField('sendMessage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SendMessageResult,
    description:
      'Queues a message; it is committed before this returns. The same idempotencyKey never queues twice. ' +
      'While a question card is open, the text answers it and resumes the execution instead.',
    args: {
      threadId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      attachments: t.arg({ type: ['File'], description: 'Files (GraphQL multipart request), kept with the message.' }),
      idempotencyKey: t.arg.string(),
    },
    // Two success types, so the errors plugin (one success type) cannot build this union; it does
    // the same by hand: expected errors become the union's typed members.
    resolve: async (_root, args, { services, viewer, requestId }) => {
      try {
        const event = await services.queue.enqueueOrAnswer(viewer, {
          threadId: decodeIdArg(args, 'threadId', 'Thread'),
          text: args.text,
          idempotencyKey: args.idempotencyKey,
          attachments: await Promise.all(
            (args.attachments ?? []).map(async (file) => ({
              filename: file.name,
              mediaType: file.type,
              data: new Uint8Array(await file.arrayBuffer()),
            })),
          ),
        });
        if (event.payload.type === 'MessageQueued') services.tracing.rememberQueued(event.payload.queueId, requestId);
        return { ...event, cursor: String(event.seq) } as never;
      } catch (error) {
        return wrapOrThrow(error, SEND_MESSAGE_ERRORS) as never;
      }
    },
  }),
);

const QUEUE_ERRORS = [...COMMON_MUTATION_ERRORS, ConflictError];

builder.mutationField('editQueuedMessage', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'QueueItem',
    errors: { types: QUEUE_ERRORS },
    description: 'Changes a pending message’s text (position and attachments stay); refused once it has started.',
    args: { queueId: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, { services, viewer }) =>
      services.queue.edit(viewer, decodeIdArg(args, 'queueId', 'QueueItem'), args.text),
  }),
);

const QueueItemRemoved = builder.objectRef<{ queueId: string }>('QueueItemRemoved').implement({
  fields: (t) => ({ queueId: t.id({ resolve: (removed) => encodeId('QueueItem', removed.queueId) }) }),
});

builder.mutationField('removeQueuedMessage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: QueueItemRemoved,
    errors: { types: QUEUE_ERRORS },
    description: 'Removes a pending message and discards its attachments; refused once it has started.',
    args: { queueId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const queueId = decodeIdArg(args, 'queueId', 'QueueItem');
      await services.queue.remove(viewer, queueId);
      return { queueId };
    },
  }),
);

builder.objectType(QueueChangedError, {
  name: 'QueueChangedError',
  description: 'The 409 of reorder: the pending order differs from expectedQueueIds (or an item started).',
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof QueueChangedError,
  fields: (t) => ({
    currentQueueIds: t.idList({ resolve: (error) => error.currentQueueIds.map((id) => encodeId('QueueItem', id)) }),
  }),
});

builder.mutationField('reorderQueuedMessage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Queue,
    errors: { types: [QueueChangedError, ...QUEUE_ERRORS] },
    description:
      'Moves a pending message to the target’s position, shifting those between, if the pending order ' +
      '(steers excluded) is exactly expectedQueueIds.',
    args: {
      queueId: t.arg.id({ required: true }),
      targetQueueId: t.arg.id({ required: true }),
      expectedQueueIds: t.arg.idList({ required: true }),
    },
    resolve: async (_root, args, { services, viewer }) => {
      const { threadId } = await services.queue.reorder(
        viewer,
        decodeIdArg(args, 'queueId', 'QueueItem'),
        decodeIdArg(args, 'targetQueueId', 'QueueItem'),
        decodeIdListArg(args, 'expectedQueueIds', 'QueueItem'),
      );
      const view = await services.conversations.queue(viewer, threadId);
      return { threadId: view.thread.id, steerableExecutionId: view.steerableExecutionId };
    },
  }),
);

builder.mutationField('steerQueuedMessage', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'QueueItem',
    errors: { types: QUEUE_ERRORS },
    description:
      'Reserves a pending message for that running execution, which takes it after its current model request ' +
      'and tool batch (MessageSteered). A request for an execution that is no longer running is refused.',
    args: { queueId: t.arg.id({ required: true }), executionId: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, { services, viewer }) =>
      services.queue.steer(
        viewer,
        decodeIdArg(args, 'queueId', 'QueueItem'),
        decodeIdArg(args, 'executionId', 'Execution'),
      ),
  }),
);
