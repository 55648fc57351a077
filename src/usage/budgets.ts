import type { AccessPolicy } from '../auth/access.ts';
import { InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { PrismaClient, User } from '../generated/prisma/client.ts';
import { spentInPeriod, type BudgetRow } from '../storage/budget-statements.ts';
import { prismaRunner } from '../storage/sql-client.ts';
import { periodEnd, periodStart, type BudgetPeriod } from './budget-period.ts';
import { formatAmount, parseAmount, picosOfAmount } from './money.ts';

/** A budget as its project's members read it, with what is spent of it in the current period. */
export interface BudgetView extends BudgetRow {
  /** Of a per-user budget: what the viewer spent; of a shared one: what everyone did. Pico-units. */
  spentPicos: bigint;
  amountPicos: bigint;
  resetsAt: Date;
  createdAt: Date;
}

export interface BudgetInput {
  projectId: string;
  agentId?: string | null;
  perUser: boolean;
  period: BudgetPeriod;
  amount: string;
  warnAtPercent?: number | null;
}

export const DEFAULT_WARN_AT_PERCENT = 80;

/**
 * Budgets in money: a project's admins set and remove them; its members read them with what is
 * spent (their own share of a per-user budget). One budget per scope: setting one again for the
 * same agent (or all), sharing and period changes its amount.
 */
export class BudgetService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: Pick<AccessPolicy, 'projectRole' | 'agent'>,
  ) {}

  async setBudget(viewer: User, input: BudgetInput): Promise<BudgetView> {
    const amount = parseAmount(input.amount, 'amount');
    const warnAtPercent = input.warnAtPercent ?? DEFAULT_WARN_AT_PERCENT;
    if (!Number.isInteger(warnAtPercent) || warnAtPercent < 1 || warnAtPercent > 100) {
      throw new InvalidInputError('warnAtPercent', 'must be a whole percentage from 1 to 100.');
    }
    await this.access.projectRole(viewer, input.projectId, 'agent:manage');
    const agentId = input.agentId ?? null;
    if (agentId !== null) {
      const agent = await this.access.agent(viewer, agentId, 'agent:read');
      if (agent.projectId !== input.projectId) throw new InvalidInputError('agentId', 'names an agent of another project.');
    }
    const scope = `${agentId ?? '*'}:${input.perUser ? 'user' : 'shared'}:${input.period}`;
    const data = { amount: formatAmount(amount), warnAtPercent };
    const budget = await this.prisma.budget.upsert({
      where: { projectId_scope: { projectId: input.projectId, scope } },
      create: { projectId: input.projectId, agentId, perUser: input.perUser, period: input.period, scope, ...data },
      update: data,
    });
    return this.view(viewer, budget);
  }

  /** Removes a budget; its runs' reservations go with it. */
  async removeBudget(viewer: User, budgetId: string): Promise<string> {
    const budget = await this.prisma.budget.findUnique({ where: { id: budgetId } });
    if (!budget) throw new NotFoundError('Budget', budgetId);
    await this.access.projectRole(viewer, budget.projectId, 'agent:manage', { entity: 'Budget', id: budgetId });
    await this.prisma.budget.deleteMany({ where: { id: budgetId } });
    return budgetId;
  }

  /** A project's budgets, for its members: each with what is spent of it now. */
  async budgetsOf(viewer: User, projectId: string): Promise<BudgetView[]> {
    await this.access.projectRole(viewer, projectId, 'agent:read');
    const budgets = await this.prisma.budget.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return Promise.all(budgets.map((budget) => this.view(viewer, budget)));
  }

  private async view(
    viewer: User,
    budget: Omit<BudgetRow, 'amount'> & { amount: { toFixed(digits: number): string }; createdAt: Date },
  ): Promise<BudgetView> {
    const now = new Date();
    const row: BudgetRow = { ...budget, amount: budget.amount.toFixed(12) };
    const scope = { budget: row, userId: budget.perUser ? viewer.id : null, since: periodStart(budget.period, now) };
    const spent = await spentInPeriod(prismaRunner(this.prisma), scope, '', now);
    return { ...row, spentPicos: picosOfAmount(spent), amountPicos: picosOfAmount(row.amount), resetsAt: periodEnd(budget.period, now), createdAt: budget.createdAt };
  }
}
