import type { Agent, Prisma, PrismaClient, ProjectRole, Thread, User } from '../generated/prisma/client.ts';
import { agentOf } from '../storage/agent-row.ts';
import { threadAccess } from '../storage/access-statements.ts';
import type { SqlRunner } from '../storage/sql-client.ts';
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

/** The records a global id may name. */
export type VisibleNodeType = 'User' | 'Project' | 'Agent' | 'Thread' | 'Message' | 'Execution' | 'QueueItem' | 'Suspension' | 'ToolServer';

export type ThreadWithAgent = Thread & {
  agent: Agent;
  /** A question card of the thread waits for the user's answer (read with the access check). */
  openQuestion: boolean;
};

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
  constructor(
    private readonly prisma: PrismaClient,
    /** The driver under Prisma: the thread check runs on every turn. */
    private readonly sql: SqlRunner,
  ) {}

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

  /** The user's role in the project, or null when not a member. */
  async roleOf(userId: string, projectId: string): Promise<ProjectRole | null> {
    const membership = await this.prisma.membership.findUnique({ where: { projectId_userId: { projectId, userId } } });
    return membership?.role ?? null;
  }

  /** One node the user may see, by its type's name; null when it is hidden or does not exist. */
  async visibleNode(userId: string, typename: VisibleNodeType, id: string): Promise<unknown> {
    const prisma = this.prisma;
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
      case 'ToolServer': {
        // A project's own server, or one the operator declares for a project of the user's
        // (PARLEY_TOOL_SERVERS_FILE names projects by id or name, or "*" for all of them).
        const projects = await prisma.project.findMany({ where: member, select: { id: true, name: true } });
        if (projects.length === 0) return null;
        const declaredFor = ['*', ...projects.flatMap((project) => [project.id, project.name])];
        return prisma.toolServer.findFirst({
          where: { id, OR: [{ project: member }, { projectId: null, transport: 'STDIO', projects: { hasSome: declaredFor } }] },
        });
      }
    }
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
    const row = await threadAccess(this.sql, user.id, threadId);
    if (!row) throw notFound(askedFor);
    if (!hasScope(row.role, scope)) throw new ForbiddenError(scope);
    return {
      id: row.id,
      agentId: row.agentId,
      ownerId: row.ownerId,
      kind: row.kind,
      title: row.title,
      lastEventSeq: row.lastEventSeq,
      queueTailPosition: row.queueTailPosition,
      activeLeafMessageId: row.activeLeafMessageId,
      lastActivityAt: row.lastActivityAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      agent: agentOf(row),
      openQuestion: row.openQuestion,
    };
  }
}

function notFound(askedFor: AskedFor): NotFoundError {
  return new NotFoundError(askedFor.entity, askedFor.id);
}
