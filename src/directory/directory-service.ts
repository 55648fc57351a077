import type { Agent, PrismaClient, Project, ProjectRole, Thread, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { issueApiToken } from '../auth/tokens.ts';
import { ConflictError, InvalidInputError, LimitExceededError, NotFoundError } from '../domain/errors.ts';
import type { Tx } from '../db/session-lock.ts';
import { isLocale, type Locale } from '../i18n/catalog.ts';
import type { ModelRegistry } from '../models/registry.ts';
import { isToolName, TOOL_NAMES } from '../runtime/tools.ts';
import { validApprovals, type ToolApprovalRule } from '../tools/approvals.ts';
import { splitToolName } from '../tools/tool-catalog.ts';
import { unknownToolNames } from '../tools/tool-names.ts';
import { agentContextData, type AgentContextData, type AgentContextInput } from './agent-context-input.ts';

/** Which names of tool-server tools a project has (src/tools). */
export interface ToolNameCheck {
  unknownToolNames(projectId: string, names: readonly string[]): Promise<string[]>;
}

export interface AgentInput extends AgentContextInput {
  name?: string;
  model?: string;
  systemPrompt?: string | null;
  tools?: string[] | null;
  toolApprovals?: ToolApprovalRule[] | null;
  limits?: { maxConcurrentExecutions?: number | null; dailyTokenBudget?: number | null } | null;
}

const MAX_NAME_CHARS = 200;
const MAX_SYSTEM_PROMPT_CHARS = 20_000;
const MAX_TITLE_CHARS = 500;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireName(field: string, value: string | undefined, max = MAX_NAME_CHARS): string {
  const trimmed = (value ?? '').trim();
  if (trimmed.length === 0) throw new InvalidInputError(field, 'must not be empty.');
  if (trimmed.length > max) throw new InvalidInputError(field, `must be at most ${max} characters.`);
  return trimmed;
}

function optionalLimit(field: string, value: number | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Number.isInteger(value) || value < 1) throw new InvalidInputError(field, 'must be a positive whole number or null.');
  return value;
}

/** Users, projects, memberships, agents and threads: the things runs happen in. */
export class DirectoryService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
    private readonly models: ModelRegistry,
    /** The operator's CLI creates no threads, so it needs no quota. */
    private readonly quotas: { maxThreadsPerUser: number; onLimitExceeded: (error: LimitExceededError) => never } = {
      maxThreadsPerUser: Number.POSITIVE_INFINITY,
      onLimitExceeded: (error) => {
        throw error;
      },
    },
    private readonly toolNames: ToolNameCheck = { unknownToolNames: (projectId, names) => unknownToolNames(prisma, projectId, names) },
  ) {}

  /** Creates a user and returns a new API token for it (shown once). */
  async createUser(input: { email: string; locale?: string }): Promise<{ user: User; token: string }> {
    const email = requireName('email', input.email).toLowerCase();
    if (!EMAIL.test(email)) throw new InvalidInputError('email', 'is not an email address.');
    const locale = input.locale ?? 'en';
    if (!isLocale(locale)) throw new InvalidInputError('locale', 'must be "en" or "de".');
    const existing = await this.prisma.user.findFirst({ where: { email, externalIssuer: null } });
    if (existing) throw new ConflictError(`A user with the email ${email} already exists.`);
    const user = await this.prisma.user.create({ data: { email, locale: locale as Locale } });
    const { token } = await issueApiToken(this.prisma, user.id, 'created with the user');
    return { user, token };
  }

  async findUser(idOrEmail: string): Promise<User> {
    const user = await this.userByIdOrEmail(idOrEmail);
    if (!user) throw new NotFoundError('User', idOrEmail);
    return user;
  }

  private userByIdOrEmail(idOrEmail: string): Promise<User | null> {
    // A CLI-made user first: a JWT user's email is only what its provider claims, and several may claim one.
    return this.prisma.user.findFirst({
      where: { OR: [{ id: idOrEmail }, { email: idOrEmail.toLowerCase() }] },
      orderBy: [{ externalIssuer: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }],
    });
  }

  /** The creator becomes the project's admin. `creator` null = an operator at the CLI. */
  async createProject(creator: User | null, input: { name: string }): Promise<Project> {
    const name = requireName('name', input.name);
    return this.prisma.project.create({
      data: { name, ...(creator ? { memberships: { create: { userId: creator.id, role: 'ADMIN' } } } : {}) },
    });
  }

  /**
   * `actor` null = an operator at the CLI, who is told when no such user exists. A user of the API
   * (who needs agent:manage in the project) gets the same answer whether an account exists or not,
   * so adding members cannot be used to find out who has an account; the answer is null then.
   */
  async addMember(actor: User | null, input: { projectId: string; user: string; role: string }) {
    if (actor) await this.access.projectRole(actor, input.projectId, 'agent:manage');
    const project = await this.prisma.project.findUnique({ where: { id: input.projectId } });
    if (!project) throw new NotFoundError('Project', input.projectId);
    const role = input.role.toUpperCase();
    if (!['ADMIN', 'MEMBER', 'VIEWER'].includes(role)) {
      throw new InvalidInputError('role', 'must be admin, member or viewer.');
    }
    const reference = input.user.trim();
    if (!EMAIL.test(reference) && !UUID.test(reference)) {
      throw new InvalidInputError('user', 'must be an email address or a user id.');
    }
    const user = actor ? await this.userByIdOrEmail(reference) : await this.findUser(reference);
    if (!user) return null;
    return this.withProjectLock(project.id, async (tx) => {
      if (role !== 'ADMIN') await this.keepAnAdmin(tx, project.id, user.id);
      return tx.membership.upsert({
        where: { projectId_userId: { projectId: project.id, userId: user.id } },
        update: { role: role as ProjectRole },
        create: { projectId: project.id, userId: user.id, role: role as ProjectRole },
      });
    });
  }

  /**
   * Removes a user from a project. Anyone may leave; removing someone else needs agent:manage.
   * `actor` null = an operator at the CLI.
   */
  async removeMember(actor: User | null, input: { projectId: string; user: string }): Promise<void> {
    const user = await this.findUser(input.user);
    if (actor && actor.id !== user.id) await this.access.projectRole(actor, input.projectId, 'agent:manage');
    else if (actor) await this.access.projectRole(actor, input.projectId, 'agent:read');
    const project = await this.prisma.project.findUnique({ where: { id: input.projectId } });
    if (!project) throw new NotFoundError('Project', input.projectId);
    await this.withProjectLock(project.id, async (tx) => {
      await this.keepAnAdmin(tx, project.id, user.id);
      await tx.membership.deleteMany({ where: { projectId: project.id, userId: user.id } });
    });
  }

  /** Serializes role changes of one project, so two admins demoting each other cannot both succeed. */
  private withProjectLock<T>(projectId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT "id" FROM "project" WHERE "id" = ${projectId} FOR UPDATE`;
      return work(tx);
    });
  }

  /** Refuses to take the admin role from the project's last admin (it would leave nobody to manage it). */
  private async keepAnAdmin(tx: Tx, projectId: string, userId: string): Promise<void> {
    const admins = await tx.membership.findMany({ where: { projectId, role: 'ADMIN' }, select: { userId: true }, take: 2 });
    if (admins.length === 1 && admins[0]!.userId === userId) {
      throw new ConflictError('This is the project’s last admin; make another member admin first.');
    }
  }

  async createAgent(actor: User | null, projectId: string, input: AgentInput): Promise<Agent> {
    if (actor) await this.access.projectRole(actor, projectId, 'agent:manage');
    else if (!(await this.prisma.project.findUnique({ where: { id: projectId } }))) {
      throw new NotFoundError('Project', projectId);
    }
    const data = this.agentData(input, true);
    await this.checkToolNames(projectId, data.tools ?? [], data.toolApprovals ?? []);
    return this.prisma.agent.create({
      data: {
        projectId,
        name: data.name!,
        model: data.model!,
        systemPrompt: data.systemPrompt ?? '',
        tools: data.tools ?? [],
        toolApprovals: (data.toolApprovals ?? []) as never,
        maxConcurrentExecutions: data.maxConcurrentExecutions ?? null,
        dailyTokenBudget: data.dailyTokenBudget ?? null,
        contextWindowTokens: data.contextWindowTokens ?? null,
        compactAtPercent: data.compactAtPercent,
        compactKeptTurns: data.compactKeptTurns,
        compactionModel: data.compactionModel ?? null,
      },
    });
  }

  async updateAgent(actor: User, agentId: string, input: AgentInput): Promise<Agent> {
    const agent = await this.access.agent(actor, agentId, 'agent:manage');
    const data = this.agentData(input, false);
    await this.checkToolNames(agent.projectId, data.tools ?? [], data.toolApprovals ?? []);
    return this.prisma.agent.update({ where: { id: agentId }, data: { ...data, toolApprovals: data.toolApprovals as never } });
  }

  /** A tool-server tool the project does not have (or a policy for one) is refused by its name. */
  private async checkToolNames(projectId: string, tools: readonly string[], approvals: readonly ToolApprovalRule[]): Promise<void> {
    const unknown = await this.toolNames.unknownToolNames(projectId, tools);
    if (unknown.length > 0) {
      throw new InvalidInputError('tools', `unknown tool ${unknown.join(', ')}: the project has no such tool server or tool.`);
    }
    const unknownRules = await this.toolNames.unknownToolNames(projectId, approvals.map((rule) => rule.tool));
    if (unknownRules.length > 0) {
      throw new InvalidInputError('toolApprovals', `unknown tool ${unknownRules.join(', ')}: the project has no such tool server or tool.`);
    }
  }

  /** `id`: a thread id the client chose (an AG-UI threadId, a UUID), created on its first use. */
  async createThread(user: User, input: { agentId: string; title?: string | null; id?: string }): Promise<Thread> {
    const agent = await this.access.agent(user, input.agentId, 'agent:execute');
    const title = input.title == null ? '' : input.title.trim();
    if (title.length > MAX_TITLE_CHARS) throw new InvalidInputError('title', `must be at most ${MAX_TITLE_CHARS} characters.`);
    // Threads created at the same moment may each pass it by one: it is checked before the insert.
    const limit = this.quotas.maxThreadsPerUser;
    if (Number.isFinite(limit) && (await this.prisma.thread.count({ where: { ownerId: user.id } })) >= limit) {
      this.quotas.onLimitExceeded(new LimitExceededError('PARLEY_MAX_THREADS_PER_USER', limit, `you have ${limit} threads`));
    }
    return this.prisma.thread.create({ data: { id: input.id, agentId: agent.id, ownerId: user.id, kind: 'TEST', title } });
  }

  private agentData(input: AgentInput, creating: boolean) {
    const data: AgentContextData & {
      name?: string;
      model?: string;
      systemPrompt?: string;
      tools?: string[];
      toolApprovals?: ToolApprovalRule[];
      maxConcurrentExecutions?: number | null;
      dailyTokenBudget?: number | null;
    } = {};
    if (creating || input.name !== undefined) data.name = requireName('name', input.name);
    const validModel = (field: string, model: string) => {
      try {
        this.models.validate(model);
      } catch (error) {
        throw new InvalidInputError(field, (error as Error).message);
      }
      return model;
    };
    if (creating || input.model !== undefined) data.model = validModel('model', requireName('model', input.model));
    Object.assign(data, agentContextData(input, validModel));
    if (input.systemPrompt != null) {
      if (input.systemPrompt.length > MAX_SYSTEM_PROMPT_CHARS) {
        throw new InvalidInputError('systemPrompt', `must be at most ${MAX_SYSTEM_PROMPT_CHARS} characters.`);
      }
      data.systemPrompt = input.systemPrompt;
    }
    if (input.tools != null) {
      const unknown = input.tools.filter((name) => !isToolName(name) && !splitToolName(name));
      if (unknown.length > 0) {
        throw new InvalidInputError('tools', `unknown tool ${unknown.join(', ')}; known tools: ${TOOL_NAMES.join(', ')}.`);
      }
      data.tools = [...new Set(input.tools)];
    }
    if (input.toolApprovals != null) data.toolApprovals = validApprovals(input.toolApprovals);
    if (input.limits) {
      const concurrent = optionalLimit('limits.maxConcurrentExecutions', input.limits.maxConcurrentExecutions);
      const budget = optionalLimit('limits.dailyTokenBudget', input.limits.dailyTokenBudget);
      if (concurrent !== undefined) data.maxConcurrentExecutions = concurrent;
      if (budget !== undefined) data.dailyTokenBudget = budget;
    }
    return data;
  }
}
