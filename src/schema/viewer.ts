import { brandWithType } from '@pothos/core';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { NotFoundError } from '../domain/errors.ts';
import { builder } from './builder.ts';
import { requireViewer } from './context.ts';
import type { VisibleNodeType } from '../auth/access.ts';
import { decodeId, type NodeTypeName } from './ids.ts';

export const UserRef = builder.prismaNode('User', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    email: t.string({
      nullable: true,
      description: 'The viewer’s own email (any user’s, for an admin credential); null for any other user.',
      resolve: (user, _args, context) => (user.id === requireViewer(context).id || context.admin ? user.email : null),
    }),
    locale: t.exposeString('locale'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    disabledAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When an admin disabled the user (seen by an admin credential only; null otherwise).',
      resolve: (user, _args, context) => (context.admin ? user.disabledAt : null),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    resolve: (query, _root, _args, { loader, viewer }) =>
      loader.user.findUniqueOrThrow({ ...query, where: { id: viewer.id } }),
  }),
);

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
      // `node(id)` never reveals hidden things: a node the viewer may not see is not found.
      // A budget is read through its project only.
      const node = typename === 'Budget' ? null : await context.services.access.visibleNode(context.viewer.id, typename as VisibleNodeType, id);
      if (!node) throw new NotFoundError('Node', args.id);
      brandWithType(node, typename as never);
      return node;
    },
  }),
);
