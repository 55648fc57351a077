import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { PrismaClient, ToolServer, User } from '../generated/prisma/client.ts';
import { declaredFor } from './tool-names.ts';

/**
 * Who may see and manage a project's tool servers: its admins (`agent:manage`), its members to
 * read; `user` null is the operator (the CLI), who may manage every project's servers.
 */
export class ToolServerAccess {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
  ) {}

  /** Refuses unless `user` may do `scope` in the project; for the operator, unless the project exists. */
  async project(user: User | null, projectId: string, scope: 'agent:read' | 'agent:manage'): Promise<void> {
    if (user) await this.access.projectRole(user, projectId, scope);
    else if (!(await this.prisma.project.findUnique({ where: { id: projectId }, select: { id: true } }))) {
      throw new NotFoundError('Project', projectId);
    }
  }

  /**
   * The server, if `user` (null: the operator) may do `action` to it. A declared server is seen by
   * the members of the projects it names; it is refreshed like any other but changed only in the file.
   */
  async managed(user: User | null, toolServerId: string, action: 'change' | 'refresh'): Promise<ToolServer> {
    const row = await this.prisma.toolServer.findUnique({ where: { id: toolServerId } });
    const askedFor = { entity: 'ToolServer', id: toolServerId };
    if (!row) throw new NotFoundError(askedFor.entity, askedFor.id);
    if (row.projectId === null) {
      const projects = user ? await this.membersProjects(user, row) : [];
      if (user && projects.length === 0) throw new NotFoundError(askedFor.entity, askedFor.id);
      if (action === 'change') {
        throw new ForbiddenError(
          'operator',
          `The tool server ${row.name} is declared by the operator in PARLEY_TOOL_SERVERS_FILE; it is changed or removed there, not through the API.`,
        );
      }
      if (user) {
        const roles = await Promise.allSettled(projects.map((projectId) => this.access.projectRole(user, projectId, 'agent:manage', askedFor)));
        const refused = roles.find((role) => role.status === 'rejected');
        if (!roles.some((role) => role.status === 'fulfilled') && refused) throw refused.reason;
      }
      return row;
    }
    if (user) await this.access.projectRole(user, row.projectId, 'agent:manage', askedFor);
    return row;
  }

  /** A project may not add a server under the name of a declared one it may use: `<name>/<tool>` would mean two things. */
  async refuseDeclaredName(projectId: string, name: string): Promise<void> {
    const project = await this.prisma.project.findUnique({ where: { id: projectId }, select: { id: true, name: true } });
    if (!project) return;
    if (await this.prisma.toolServer.findFirst({ where: { ...declaredFor(project), name }, select: { id: true } })) {
      throw new ConflictError(`The operator declares a tool server named ${name} for this project (PARLEY_TOOL_SERVERS_FILE); choose another name.`);
    }
  }

  /** The projects `user` is a member of that may use the declared server `row`. */
  private async membersProjects(user: User, row: ToolServer): Promise<string[]> {
    const refs = row.projects.filter((entry) => entry !== '*');
    const named = row.projects.includes('*') ? {} : { OR: [{ id: { in: refs } }, { name: { in: refs } }] };
    const projects = await this.prisma.project.findMany({ where: { memberships: { some: { userId: user.id } }, ...named }, select: { id: true } });
    return projects.map((project) => project.id);
  }
}
