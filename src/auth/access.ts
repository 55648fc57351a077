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
 * What a not-found answer names: the kind of thing the caller asked for and the id they sent. A
 * thing reached through another (a queued message's thread) is reported as the thing asked for, so
 * the answer is the same whether it exists elsewhere or not at all, and carries no id of its own.
 */
export interface AskedFor {
  entity: string;
  id: string;
}

/**
 * Every permission decision goes through here. Things a user may not see are reported as not found,
 * never as forbidden, so that ids of other users' private threads leak nothing.
 */
export class AccessPolicy {
  constructor(private readonly prisma: PrismaClient) {}

  async projectRole(
    user: User,
    projectId: string,
    scope: Scope,
    askedFor: AskedFor = { entity: 'Project', id: projectId },
  ): Promise<ProjectRole> {
    const membership = await this.prisma.membership.findUnique({
      where: { projectId_userId: { projectId, userId: user.id } },
    });
    if (!membership) throw notFound(askedFor);
    if (!hasScope(membership.role, scope)) throw new ForbiddenError(scope);
    return membership.role;
  }

  async agent(user: User, agentId: string, scope: Scope): Promise<Agent> {
    const askedFor = { entity: 'Agent', id: agentId };
    const agent = await this.prisma.agent.findFirst({
      where: { id: agentId, project: { memberships: { some: { userId: user.id } } } },
    });
    if (!agent) throw notFound(askedFor);
    await this.projectRole(user, agent.projectId, scope, askedFor);
    return agent;
  }

  /**
   * The thread, if the user may see it with `scope`. `askedFor` is what the caller named when the
   * thread was reached through something else (an execution, a queued message, a suspension).
   */
  async thread(
    user: User,
    threadId: string,
    scope: Scope,
    askedFor: AskedFor = { entity: 'Thread', id: threadId },
  ): Promise<ThreadWithAgent> {
    const thread = await this.prisma.thread.findFirst({
      where: { id: threadId, ...visibleThreadsWhere(user.id) },
      include: { agent: true },
    });
    if (!thread) throw notFound(askedFor);
    await this.projectRole(user, thread.agent.projectId, scope, askedFor);
    return thread;
  }
}

function notFound(askedFor: AskedFor): NotFoundError {
  return new NotFoundError(askedFor.entity, askedFor.id);
}
