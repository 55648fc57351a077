import { ConflictError } from '../domain/errors.ts';
import { builder } from './builder.ts';
import { ConversationRef, conversationOf } from './conversation.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId } from './ids.ts';
import { runEventType } from './run-events.ts';

runEventType(
  'ThreadCompacted',
  'A summary now replaces, for the model, the messages before messageId (its CompactionPart says which and how); undone: they are sent again (uncompactThread).',
  (t) => ({
    messageId: t.id({ description: 'The message that holds the CompactionPart: the first one the model is still sent.', resolve: (event) => encodeId('Message', event.payload.messageId) }),
    throughMessageId: t.id({ description: 'The last message the summary replaces.', resolve: (event) => encodeId('Message', event.payload.throughMessageId) }),
    undone: t.boolean({ resolve: (event) => event.payload.undone }),
  }),
);

const COMPACTION_ERRORS = [...COMMON_MUTATION_ERRORS, ConflictError];

builder.mutationField('compactThread', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    errors: { types: COMPACTION_ERRORS },
    description:
      'Summarises the thread’s oldest turns now (all but its agent’s kept turns) with the agent’s model, as a turn past its ' +
      'threshold would (ThreadCompacted); answers the conversation as it now is. A ConflictError while a run is active or when ' +
      'there is nothing to compact; an InvalidInputError when the kept turns alone exceed the window.',
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const threadId = decodeIdArg(args, 'threadId', 'Thread');
      await services.compaction.compactThread(viewer, threadId);
      return conversationOf(await services.conversations.conversation(viewer, threadId));
    },
  }),
);

builder.mutationField('uncompactThread', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    errors: { types: COMPACTION_ERRORS },
    description:
      'Undoes the summary in force on the active branch: the next call sends the messages it replaced (ThreadCompacted, undone). ' +
      'A ConflictError while a run is active, when nothing is compacted, or when the originals would pass the agent’s threshold.',
    args: { threadId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const threadId = decodeIdArg(args, 'threadId', 'Thread');
      await services.compaction.uncompactThread(viewer, threadId);
      return conversationOf(await services.conversations.conversation(viewer, threadId));
    },
  }),
);
