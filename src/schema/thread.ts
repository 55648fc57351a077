import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId } from './ids.ts';

export const ThreadKindEnum = builder.enumType('ThreadKind', {
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
    kind: t.expose('kind', { type: ThreadKindEnum }),
    agent: t.relation('agent'),
    owner: t.relation('owner'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('thread', (t) =>
  t.prismaField({
    type: 'Thread',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const thread = await context.parley.access.thread(
        requireViewer(context),
        decodeId('id', String(args.id), 'Thread'),
        'agent:read',
      );
      return context.parley.db.prisma.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);

builder.mutationField('createThread', (t) =>
  t.prismaField({
    type: 'Thread',
    authScopes: { authenticated: true },
    errors: { types: COMMON_MUTATION_ERRORS },
    args: { agentId: t.arg.id({ required: true }), title: t.arg.string() },
    resolve: async (query, _root, args, context) => {
      const thread = await context.parley.directory.createThread(requireViewer(context), {
        agentId: decodeId('agentId', String(args.agentId), 'Agent'),
        title: args.title,
      });
      return context.parley.db.prisma.thread.findUniqueOrThrow({ ...query, where: { id: thread.id } });
    },
  }),
);
