import type { Tx } from '../db/session-lock.ts';
import { ReasonedError } from '../errors/taxonomy.ts';

/** Tokens (input and output) a user's runs of an agent recorded since the start of the UTC day. */
export async function tokensUsedToday(db: Tx, agentId: string, userId: string, now = new Date()): Promise<number> {
  const used = await db.execution.aggregate({
    where: { agentId, userId, createdAt: { gte: startOfUtcDay(now) } },
    _sum: { inputTokens: true, outputTokens: true },
  });
  return (used._sum.inputTokens ?? 0) + (used._sum.outputTokens ?? 0);
}

/**
 * The failure of a run that spent the budget while it ran: QUOTA_EXCEEDED with the refusal's own
 * copy, and the wait until the budget resets as its retry-after.
 */
export function tokenBudgetSpentError(budget: number, now = new Date()): ReasonedError {
  const nextDay = startOfUtcDay(now);
  nextDay.setUTCDate(nextDay.getUTCDate() + 1);
  return new ReasonedError({
    reason: 'QUOTA_EXCEEDED',
    retryable: false,
    retryAfterS: Math.ceil((nextDay.getTime() - now.getTime()) / 1000),
    message: `the daily token budget of ${budget} for this agent was spent during the run`,
    messageKey: 'refusal.budget',
    messageParams: { budget },
  });
}

export function startOfUtcDay(now: Date): Date {
  const start = new Date(now);
  start.setUTCHours(0, 0, 0, 0);
  return start;
}
