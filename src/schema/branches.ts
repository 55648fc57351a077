import { ConflictError, LimitExceededError } from '../domain/errors.ts';
import { builder } from './builder.ts';
import { ConversationRef } from './conversation.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';
import { MessageQueuedRef } from './run-events.ts';

builder.prismaObjectFields('Message', (t) => ({
  parentId: t.id({
    nullable: true,
    description: 'The message this one follows in its branch; null for a first message.',
    resolve: (message) => encodeOptionalId('Message', message.parentId),
  }),
  siblingIds: t.idList({
    description:
      'The messages with the same parent and role, oldest first, this one included: show "2 / 3" and switchBranch to a neighbour.',
    select: { threadId: true, parentId: true, role: true },
    // The request's one batch: every message of the response is read in one query.
    resolve: async (message, _args, { siblings }) => (await siblings.load(message)).map((id) => encodeId('Message', id)),
  }),
}));

const BRANCH_ERRORS = [...COMMON_MUTATION_ERRORS, ConflictError];

/** The message a branch mutation names, with the thread the client holds it in (optional, checked when given). */
function messageRefOf(args: { messageId: string; threadId?: string | null }) {
  return {
    messageId: decodeIdArg(args, 'messageId', 'Message'),
    threadId: args.threadId == null ? null : decodeIdArg(args as { threadId: string }, 'threadId', 'Thread'),
  };
}

const THREAD_ID_ARG_DESCRIPTION = 'The thread you show the message in; a message of another thread is then an InvalidInputError.';

builder.mutationField('editMessage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: MessageQueuedRef,
    errors: { types: [...BRANCH_ERRORS, LimitExceededError] },
    description:
      'A new user message with the same parent as the edited one (its attachments kept), made the active branch; ' +
      'its turn is queued first, before pending messages. A ConflictError while an execution runs: stop it first.',
    args: {
      messageId: t.arg.id({ required: true }),
      text: t.arg.string({ required: true }),
      idempotencyKey: t.arg.string(),
      threadId: t.arg.id({ description: THREAD_ID_ARG_DESCRIPTION }),
    },
    resolve: async (_root, args, { services, viewer }) => {
      const event = await services.branches.editMessage(viewer, messageRefOf(args), {
        text: args.text,
        idempotencyKey: args.idempotencyKey,
      });
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);

builder.mutationField('regenerateMessage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: MessageQueuedRef,
    errors: { types: [...BRANCH_ERRORS, LimitExceededError] },
    description:
      'A new reply to the same user message, a sibling of the given reply, made active; its turn is queued first. ' +
      'A ConflictError while an execution runs: stop it first.',
    args: { messageId: t.arg.id({ required: true }), threadId: t.arg.id({ description: THREAD_ID_ARG_DESCRIPTION }) },
    resolve: async (_root, args, { services, viewer }) => {
      const event = await services.branches.regenerateMessage(viewer, messageRefOf(args));
      return { ...event, cursor: String(event.seq) } as never;
    },
  }),
);

builder.mutationField('switchBranch', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    errors: { types: BRANCH_ERRORS },
    description:
      'The active path goes through that message, down to the leaf last active under it (BranchSwitched); answers the ' +
      'conversation as it now is. A ConflictError while an execution runs: stop it first.',
    args: { messageId: t.arg.id({ required: true }), threadId: t.arg.id({ description: THREAD_ID_ARG_DESCRIPTION }) },
    resolve: async (_root, args, { services, viewer }) => {
      const { threadId } = await services.branches.switchBranch(viewer, messageRefOf(args));
      const head = await services.conversations.conversation(viewer, threadId);
      return {
        threadId: head.thread.id,
        eventCursor: head.eventCursor,
        activeExecutionId: head.activeExecutionId,
        leafMessageId: head.leafMessageId,
      };
    },
  }),
);
