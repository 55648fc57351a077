import { ReasonedError } from '../errors/taxonomy.ts';
import type { MessageKey } from '../i18n/catalog.ts';
import type { BudgetRow } from '../storage/budget-statements.ts';
import { formatPicos } from './money.ts';

export type BudgetPeriod = BudgetRow['period'];

/** The start of the UTC day or month `now` is in. */
export function periodStart(period: BudgetPeriod, now: Date): Date {
  return period === 'DAY'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** When the period `now` is in ends and the budget is whole again. */
export function periodEnd(period: BudgetPeriod, now: Date): Date {
  return period === 'DAY'
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The failure of a run a budget stopped (before a model call or while one streamed): which budget,
 * what was spent of what, and the wait until its period resets.
 */
export function budgetSpentError(
  budget: Pick<BudgetRow, 'id' | 'period' | 'perUser' | 'agentId'> & { agentName: string | null },
  spentPicos: bigint,
  amountPicos: bigint,
  currency: string,
  now = new Date(),
): ReasonedError {
  const key = `refusal.spend.${budget.period === 'DAY' ? 'day' : 'month'}.${budget.perUser ? 'user' : 'shared'}${budget.agentId ? '.agent' : ''}` as MessageKey;
  const spent = formatPicos(spentPicos);
  const amount = formatPicos(amountPicos);
  const scope = `${budget.period === 'DAY' ? 'daily' : 'monthly'} ${budget.perUser ? 'per-user ' : ''}budget${budget.agentId ? ` of the agent ${budget.agentName ?? budget.agentId}` : ''}`;
  return new ReasonedError({
    reason: 'QUOTA_EXCEEDED',
    retryable: false,
    retryAfterS: Math.max(1, Math.ceil((periodEnd(budget.period, now).getTime() - now.getTime()) / 1000)),
    message: `the ${scope} (${budget.id}) is spent: ${spent} of ${amount} ${currency}`,
    messageKey: key,
    messageParams: { budgetId: budget.id, spent, amount, currency, agent: budget.agentName },
  });
}
