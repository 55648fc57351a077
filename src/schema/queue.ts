import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId, encodeId, encodeOptionalId } from './ids.ts';
import { MessageQueuedRef } from './run-events.ts';

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
        context.parley.db.prisma.queueItem.findMany({
          ...query,
          where: { threadId: queue.threadId },
          orderBy: { position: 'asc' },
        }),
    }),
  }),
});

builder.queryField('queue', (t) =>
  t.field({
    type: Queue,
    authScopes: { authenticated: true },
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      const view = await context.parley.conversations.queue(
        requireViewer(context),
        decodeId('threadId', String(args.threadId), 'Thread'),
      );
      return { threadId: view.thread.id, steerableExecutionId: view.steerableExecutionId };
    },
  }),
);

builder.mutationField('sendMessage', (t) =>
  t.field({
    type: MessageQueuedRef,
    authScopes: { authenticated: true },
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Queues a message; it is committed before this returns. The same idempotencyKey never queues twice.',
    args: {
      threadId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (_root, args, context) => {
      const event = await context.parley.queue.enqueue(requireViewer(context), {
        threadId: decodeId('threadId', String(args.threadId), 'Thread'),
        text: args.text,
        idempotencyKey: args.idempotencyKey,
      });
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);
