import { builder } from './builder.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';

export interface ConversationShape {
  threadId: string;
  eventCursor: string;
  activeExecutionId: string | null;
  leafMessageId: string | null;
}

const ConversationContext = builder
  .objectRef<{ usedTokens: number; windowTokens: number | null; compactedThrough: string | null }>('ConversationContext')
  .implement({
    description: 'How full the context window is for the next model call (docs/compaction.md).',
    fields: (t) => ({
      usedTokens: t.exposeInt('usedTokens', {
        description: 'The input tokens the provider reported for the thread’s last model call, plus an estimate of what the next call adds.',
      }),
      windowTokens: t.exposeInt('windowTokens', { nullable: true, description: 'The agent’s context window; null when unknown (nothing is compacted).' }),
      compactedThrough: t.id({
        nullable: true,
        description: 'The last message the summary in force replaces: the model is sent the summary instead of it and the messages before it.',
        resolve: (context) => encodeOptionalId('Message', context.compactedThrough),
      }),
    }),
  });

export const ConversationRef = builder.objectRef<ConversationShape>('Conversation').implement({
  description: 'Everything a reloading client needs; then follow runEvents(after: eventCursor). Its messages are the active path, first to last.',
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
      resolve: async (query, conversation, _args, context) => {
        const ids = await context.services.conversations.pathWindow(conversation.threadId, conversation.leafMessageId, {
          take: query.take,
          cursorId: query.cursor?.id ?? null,
        });
        return context.loader.message.findMany({
          ...query,
          // The active path only: a parent's seq is below its children's, so seq order is root to leaf.
          where: { threadId: conversation.threadId, id: { in: ids } },
          orderBy: { seq: 'asc' },
        });
      },
    }),
    context: t.field({
      type: ConversationContext,
      resolve: (conversation, _args, { services }) => services.compaction.contextOf(conversation.threadId),
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
    type: ConversationRef,
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      return conversationOf(await services.conversations.conversation(viewer, decodeIdArg(args, 'threadId', 'Thread')));
    },
  }),
);

/** The Conversation of a thread's head as the conversation service reads it. */
export function conversationOf(head: { thread: { id: string }; eventCursor: string; activeExecutionId: string | null; leafMessageId: string | null }): ConversationShape {
  return { threadId: head.thread.id, eventCursor: head.eventCursor, activeExecutionId: head.activeExecutionId, leafMessageId: head.leafMessageId };
}
