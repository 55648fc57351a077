import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId } from './ids.ts';

export const ProjectRoleEnum = builder.enumType('ProjectRole', { values: ['ADMIN', 'MEMBER', 'VIEWER'] as const });

builder.prismaNode('Project', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    viewerRole: t.field({
      type: ProjectRoleEnum,
      nullable: true,
      resolve: async (project, _args, context) => {
        const membership = await context.parley.db.prisma.membership.findUnique({
          where: { projectId_userId: { projectId: project.id, userId: requireViewer(context).id } },
        });
        return membership?.role ?? null;
      },
    }),
    agents: t.relation('agents', { query: { orderBy: { createdAt: 'asc' } } }),
  }),
});

builder.prismaObjectField('User', 'projects', (t) =>
  t.prismaField({
    type: ['Project'],
    resolve: (query, user, _args, context) =>
      context.parley.db.prisma.project.findMany({
        ...query,
        where: { memberships: { some: { userId: user.id } } },
        orderBy: { createdAt: 'asc' },
      }),
  }),
);

builder.queryField('project', (t) =>
  t.prismaField({
    type: 'Project',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const viewer = requireViewer(context);
      const projectId = decodeId('id', String(args.id), 'Project');
      await context.parley.access.projectRole(viewer, projectId, 'agent:read');
      return context.parley.db.prisma.project.findUniqueOrThrow({ ...query, where: { id: projectId } });
    },
  }),
);

builder.mutationField('createProject', (t) =>
  t.prismaField({
    type: 'Project',
    authScopes: { authenticated: true },
    errors: { types: COMMON_MUTATION_ERRORS },
    args: { name: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, context) => {
      const project = await context.parley.directory.createProject(requireViewer(context), { name: args.name });
      return context.parley.db.prisma.project.findUniqueOrThrow({ ...query, where: { id: project.id } });
    },
  }),
);

builder.mutationField('addProjectMember', (t) =>
  t.prismaField({
    type: 'Project',
    authScopes: { authenticated: true },
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Adds a user (by id or email) to the project, or changes their role. Needs agent:manage.',
    args: {
      projectId: t.arg.id({ required: true }),
      user: t.arg.string({ required: true }),
      role: t.arg({ type: ProjectRoleEnum, required: true }),
    },
    resolve: async (query, _root, args, context) => {
      const projectId = decodeId('projectId', String(args.projectId), 'Project');
      await context.parley.directory.addMember(requireViewer(context), { projectId, user: args.user, role: args.role });
      return context.parley.db.prisma.project.findUniqueOrThrow({ ...query, where: { id: projectId } });
    },
  }),
);
