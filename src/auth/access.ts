import type { Agent, Prisma, PrismaClient, ProjectRole, Thread, User } from '../generated/prisma/client.ts';
import { ForbiddenError, NotFoundError } from '../domain/errors.ts';

export type Scope = 'agent:read' | 'agent:execute' | 'agent:manage';

export const ROLE_SCOPES: Record<ProjectRole, readonly Scope[]> = {
  ADMIN: ['agent:read', 'agent:execute', 'agent:manage'],
  MEMBER: ['agent:read', 'agent:execute'],
  VIEWER: ['agent:read'],
};

export function hasScope(role: ProjectRole, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}

/** Prisma filter for the threads a user may see: project membership, and TEST threads only their own. */
export function visibleThreadsWhere(userId: string): Prisma.ThreadWhereInput {
  return {
    agent: { project: { memberships: { some: { userId } } } },
    OR: [{ kind: 'SHARED' }, { ownerId: userId }],
  };
}

export type ThreadWithAgent = Thread & { agent: Agent };

/**
 * Every permission decision goes through here. Things a user may not see are reported as not found,
 * never as forbidden, so that ids of other users' private threads leak nothing.
 */
export class AccessPolicy {
  constructor(private readonly prisma: PrismaClient) {}

  async projectRole(user: User, projectId: string, scope: Scope): Promise<ProjectRole> {
    const membership = await this.prisma.membership.findUnique({
      where: { projectId_userId: { projectId, userId: user.id } },
    });
    if (!membership) throw new NotFoundError('Project', projectId);
    if (!hasScope(membership.role, scope)) throw new ForbiddenError(scope);
    return membership.role;
  }

  async agent(user: User, agentId: string, scope: Scope): Promise<Agent> {
    const agent = await this.prisma.agent.findFirst({
      where: { id: agentId, project: { memberships: { some: { userId: user.id } } } },
    });
    if (!agent) throw new NotFoundError('Agent', agentId);
    await this.projectRole(user, agent.projectId, scope);
    return agent;
  }

  async thread(user: User, threadId: string, scope: Scope): Promise<ThreadWithAgent> {
    const thread = await this.prisma.thread.findFirst({
      where: { id: threadId, ...visibleThreadsWhere(user.id) },
      include: { agent: true },
    });
    if (!thread) throw new NotFoundError('Thread', threadId);
    await this.projectRole(user, thread.agent.projectId, scope);
    return thread;
  }
}
