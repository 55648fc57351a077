import { builder } from './builder.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';

interface ConversationShape {
  threadId: string;
  eventCursor: string;
  activeExecutionId: string | null;
}

const Conversation = builder.objectRef<ConversationShape>('Conversation').implement({
  description: 'Everything a reloading client needs; then follow runEvents(after: eventCursor).',
  fields: (t) => ({
    threadId: t.id({ resolve: (conversation) => encodeId('Thread', conversation.threadId) }),
    eventCursor: t.exposeString('eventCursor'),
    activeExecutionId: t.id({
      nullable: true,
      description: 'Set from the moment an execution is admitted, before any output; null when none runs.',
      resolve: (conversation) => encodeOptionalId('Execution', conversation.activeExecutionId),
    }),
    messages: t.prismaConnection({
      type: 'Message',
      cursor: 'id',
      defaultSize: 50,
      maxSize: 200,
      resolve: (query, conversation, _args, context) =>
        context.loader.message.findMany({
          ...query,
          where: { threadId: conversation.threadId },
          orderBy: { seq: 'asc' },
        }),
    }),
    openSuspensions: t.prismaField({
      type: ['Suspension'],
      resolve: (query, conversation, _args, context) =>
        context.loader.suspension.findMany({
          ...query,
          where: { threadId: conversation.threadId, status: 'OPEN' },
          orderBy: { createdAt: 'asc' },
        }),
    }),
  }),
});

builder.queryField('conversation', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: Conversation,
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const head = await services.conversations.conversation(viewer, decodeIdArg(args, 'threadId', 'Thread'));
      return { threadId: head.thread.id, eventCursor: head.eventCursor, activeExecutionId: head.activeExecutionId };
    },
  }),
);
