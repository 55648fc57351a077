import { ConflictError } from '../domain/errors.ts';
import { ProjectRole } from '../generated/prisma/enums.ts';
import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeId, decodeIdArg } from './ids.ts';

builder.enumType(ProjectRole, { name: 'ProjectRole' });

builder.prismaNode('Project', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    viewerRole: t.field({
      type: ProjectRole,
      nullable: true,
      resolve: (project, _args, context) => context.services.access.roleOf(requireViewer(context).id, project.id),
    }),
    agents: t.relation('agents', { query: { orderBy: { createdAt: 'asc' } } }),
  }),
});

builder.prismaObjectField('User', 'projects', (t) =>
  t.prismaField({
    type: ['Project'],
    description: 'The user’s projects; of another user, only the projects the viewer belongs to as well.',
    resolve: (query, user, _args, context) => {
      const viewerId = requireViewer(context).id;
      const shared = user.id === viewerId ? [] : [{ memberships: { some: { userId: viewerId } } }];
      return context.loader.project.findMany({
        ...query,
        where: { AND: [{ memberships: { some: { userId: user.id } } }, ...shared] },
        orderBy: { createdAt: 'asc' },
      });
    },
  }),
);

builder.queryField('project', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Project',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const projectId = decodeIdArg(args, 'id', 'Project');
      await services.access.projectRole(viewer, projectId, 'agent:read');
      return loader.project.findUniqueOrThrow({ ...query, where: { id: projectId } });
    },
  }),
);

builder.mutationField('createProject', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Project',
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Creates a project whose admin is the viewer, or — for an admin credential — the user `ownerId` (the credential’s own user is then not a member).',
    args: { name: t.arg.string({ required: true }), ownerId: t.arg.id() },
    resolve: async (query, _root, args, { services, loader, viewer, admin }) => {
      const project = args.ownerId != null
        ? await services.users.createProjectFor({ user: viewer, admin }, { name: args.name, ownerId: decodeId('ownerId', String(args.ownerId), 'User') })
        : await services.directory.createProject(viewer, { name: args.name });
      return loader.project.findUniqueOrThrow({ ...query, where: { id: project.id } });
    },
  }),
);

builder.mutationField('addProjectMember', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Project',
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Adds a user (by id or email) to the project, or changes their role. Needs agent:manage, or an admin credential ' +
      '(which may add to any project, and is told when no such user exists). For anyone else the answer is the same ' +
      'whether an account with that email or id exists or not; without one, nothing is recorded. ' +
      'Demoting the last admin is a ConflictError.',
    args: {
      projectId: t.arg.id({ required: true }),
      user: t.arg.string({ required: true }),
      role: t.arg({ type: ProjectRole, required: true }),
    },
    resolve: async (query, _root, args, { services, loader, viewer, admin }) => {
      const projectId = decodeIdArg(args, 'projectId', 'Project');
      const user = args.user.includes('@') ? args.user : decodeId('user', args.user, 'User');
      // An admin credential acts as the operator at the CLI does (actor null).
      await services.directory.addMember(admin ? null : viewer, { projectId, user, role: args.role });
      return loader.project.findUniqueOrThrow({ ...query, where: { id: projectId } });
    },
  }),
);

builder.mutationField('removeProjectMember', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Project',
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Removes a user (by id or email) from the project: anyone may leave, removing others needs agent:manage. ' +
      'Removing the last admin is a ConflictError.',
    args: {
      projectId: t.arg.id({ required: true }),
      user: t.arg.string({ required: true }),
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const projectId = decodeIdArg(args, 'projectId', 'Project');
      await services.directory.removeMember(viewer, { projectId, user: args.user });
      return loader.project.findUniqueOrThrow({ ...query, where: { id: projectId } });
    },
  }),
);
