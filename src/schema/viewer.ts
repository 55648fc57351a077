import { brandWithType } from '@pothos/core';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { visibleThreadsWhere } from '../auth/access.ts';
import { NotFoundError } from '../domain/errors.ts';
import { builder } from './builder.ts';
import { requireViewer, type AuthenticatedContext } from './context.ts';
import { decodeId, type NodeTypeName } from './ids.ts';

export const UserRef = builder.prismaNode('User', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    email: t.string({
      nullable: true,
      description: 'The viewer’s own email; null for any other user.',
      resolve: (user, _args, context) => (user.id === requireViewer(context).id ? user.email : null),
    }),
    locale: t.exposeString('locale'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('viewer', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    resolve: (query, _root, _args, { parley, viewer }) =>
      parley.db.prisma.user.findUniqueOrThrow({ ...query, where: { id: viewer.id } }),
  }),
);

/** Loads one node the viewer may see, or throws NotFound: `node(id)` never reveals hidden things. */
async function loadVisibleNode(
  { parley, viewer }: AuthenticatedContext,
  typename: NodeTypeName,
  id: string,
): Promise<unknown> {
  const prisma = parley.db.prisma;
  const userId = viewer.id;
  const member = { memberships: { some: { userId } } };
  switch (typename) {
    case 'User':
      return id === userId ? prisma.user.findUnique({ where: { id } }) : null;
    case 'Project':
      return prisma.project.findFirst({ where: { id, ...member } });
    case 'Agent':
      return prisma.agent.findFirst({ where: { id, project: member } });
    case 'Thread':
      return prisma.thread.findFirst({ where: { id, ...visibleThreadsWhere(userId) } });
    case 'Message':
      return prisma.message.findFirst({ where: { id, thread: visibleThreadsWhere(userId) } });
    case 'Execution':
      return prisma.execution.findFirst({ where: { id, thread: visibleThreadsWhere(userId) } });
    case 'QueueItem':
      return prisma.queueItem.findFirst({ where: { id, thread: visibleThreadsWhere(userId) } });
    case 'Suspension':
      return prisma.suspension.findFirst({ where: { id, thread: visibleThreadsWhere(userId) } });
  }
}

builder.queryField('node', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: builder.nodeInterfaceRef(),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, context) => {
      // Any node type is welcome here, so the expected type is the one the id names.
      let typename: string;
      try {
        typename = decodeGlobalID(args.id).typename;
      } catch {
        typename = '';
      }
      const id = decodeId('id', args.id, typename as NodeTypeName);
      const node = await loadVisibleNode(context, typename as NodeTypeName, id);
      if (!node) throw new NotFoundError('Node', args.id);
      brandWithType(node, typename as never);
      return node;
    },
  }),
);
