import { ConflictError, LimitExceededError } from '../domain/errors.ts';
import { ThreadKind } from '../generated/prisma/enums.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId } from './ids.ts';

builder.enumType(ThreadKind, {
  name: 'ThreadKind',
  values: {
    TEST: { description: 'Private to its owner: other users can neither read nor act on it.' },
    SHARED: { description: 'Visible to the project’s members.' },
  },
});

builder.prismaNode('Thread', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    title: t.exposeString('title'),
    kind: t.expose('kind', { type: ThreadKind }),
    agent: t.relation('agent'),
    owner: t.relation('owner'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastActivityAt: t.expose('lastActivityAt', {
      type: 'DateTime',
      description: 'The last message sent, turn started, edit or branch switch; Agent.threads lists the newest first.',
    }),
  }),
});

builder.queryField('thread', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Thread',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const thread = await services.access.thread(viewer, decodeIdArg(args, 'id', 'Thread'), 'agent:read');
      return loader.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);

builder.mutationField('createThread', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Thread',
    errors: { types: [...COMMON_MUTATION_ERRORS, LimitExceededError] },
    args: { agentId: t.arg.id({ required: true }), title: t.arg.string() },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const thread = await services.directory.createThread(viewer, {
        agentId: decodeIdArg(args, 'agentId', 'Agent'),
        title: args.title,
      });
      return loader.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);

builder.mutationField('renameThread', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Thread',
    errors: { types: COMMON_MUTATION_ERRORS },
    args: { threadId: t.arg.id({ required: true }), title: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const thread = await services.threadLife.renameThread(viewer, decodeIdArg(args, 'threadId', 'Thread'), args.title);
      return loader.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);

const ThreadDeleted = builder.objectRef<{ threadId: string }>('ThreadDeleted').implement({
  fields: (t) => ({ threadId: t.id({ resolve: (deleted) => encodeId('Thread', deleted.threadId) }) }),
});

builder.mutationField('deleteThread', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ThreadDeleted,
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Deletes the thread with its messages, events, queue items, suspensions and files; its subscribers end with ' +
      'NOT_FOUND. Its owner may (for a SHARED thread, also a project admin); a ConflictError while an execution runs.',
    args: { threadId: t.arg.id({ required: true }) },
    resolve: (_root, args, { services, viewer }) => services.threadLife.deleteThread(viewer, decodeIdArg(args, 'threadId', 'Thread')),
  }),
);
