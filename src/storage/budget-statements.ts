import { Prisma } from '../generated/prisma/client.ts';
import type { SqlClient, SqlRunner } from './sql-client.ts';

/** A budget as a run checks it. `amount` is an exact decimal string of the currency. */
export interface BudgetRow {
  id: string;
  projectId: string;
  agentId: string | null;
  perUser: boolean;
  period: 'DAY' | 'MONTH';
  amount: string;
  warnAtPercent: number;
}

/** Whose spend a budget counts: a project's (of one agent or all), and for a per-user budget one user's. */
export interface SpendScope {
  budget: Pick<BudgetRow, 'id' | 'projectId' | 'agentId'>;
  /** The user a per-user budget counts for; null for a shared budget. */
  userId: string | null;
  /** The start of the budget's current period. */
  since: Date;
}

/** The budgets that bind a run of `agentId` in `projectId`. */
export function budgetsOfRun(db: SqlRunner, projectId: string, agentId: string): Promise<BudgetRow[]> {
  return db.query<BudgetRow>(Prisma.sql`
    SELECT "id", "projectId", "agentId", "perUser", "period"::text AS "period", "amount"::text AS "amount", "warnAtPercent"
    FROM "budget" WHERE "projectId" = ${projectId} AND ("agentId" IS NULL OR "agentId" = ${agentId})
    ORDER BY "createdAt", "id"`);
}

/**
 * What a budget's scope spent in its period, as an exact decimal string, leaving out the run
 * `executionId` (an empty string leaves out none). A run that holds a live reservation counts
 * through it — its recorded calls and the share it reserved for the next one — and not through
 * its calls; a reservation that lapsed (its instance died) no longer counts, and its calls do.
 */
export async function spentInPeriod(db: SqlRunner, scope: SpendScope, executionId: string, now: Date): Promise<string> {
  const { budget, userId, since } = scope;
  const [row] = await db.query<{ spent: string }>(Prisma.sql`
    WITH live AS (
      SELECT r."executionId", r."amount" FROM "budget_reservation" r
      WHERE r."budgetId" = ${budget.id} AND r."expiresAt" > ${now}::timestamp AND (${userId}::text IS NULL OR r."userId" = ${userId})
    )
    SELECT (
      COALESCE((SELECT sum(m."cost") FROM "model_call" m
        WHERE m."projectId" = ${budget.projectId} AND m."createdAt" >= ${since}::timestamp
          AND (${budget.agentId}::text IS NULL OR m."agentId" = ${budget.agentId})
          AND (${userId}::text IS NULL OR m."userId" = ${userId})
          AND NOT EXISTS (SELECT 1 FROM live WHERE live."executionId" = m."executionId")), 0)
      + COALESCE((SELECT sum(live."amount") FROM live WHERE live."executionId" <> ${executionId}), 0)
    )::numeric(30, 12)::text AS "spent"`);
  return row!.spent;
}

/** What an execution's own recorded calls cost in a budget's period (a resumed run's earlier requests). */
export async function recordedByExecution(db: SqlRunner, executionId: string, since: Date): Promise<string> {
  const [row] = await db.query<{ spent: string }>(Prisma.sql`
    SELECT COALESCE(sum("cost"), 0)::numeric(30, 12)::text AS "spent" FROM "model_call"
    WHERE "executionId" = ${executionId} AND "createdAt" >= ${since}::timestamp`);
  return row!.spent;
}

/**
 * Runs `work` in a transaction that holds an advisory lock on the budget and scope: one such
 * transaction at a time reads what others spent and writes what this run holds.
 */
export function underBudgetLock<T>(sql: SqlClient, scope: SpendScope, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const key = `budget:${scope.budget.id}:${scope.userId ?? ''}`;
  return sql.transaction(async (tx) => {
    await tx.query(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0)) IS NULL AS "locked"`);
    return work(tx);
  });
}

/** Holds `amount` of a budget for a running execution until `expiresAt` (or replaces what it held). */
export async function holdReservation(
  db: SqlRunner,
  hold: { budgetId: string; executionId: string; userId: string; amount: string; expiresAt: Date },
): Promise<void> {
  await db.query(Prisma.sql`
    INSERT INTO "budget_reservation" ("budgetId", "executionId", "userId", "amount", "expiresAt")
    VALUES (${hold.budgetId}, ${hold.executionId}, ${hold.userId}, ${hold.amount}::numeric(30, 12), ${hold.expiresAt}::timestamp)
    ON CONFLICT ("budgetId", "executionId") DO UPDATE SET "amount" = EXCLUDED."amount", "expiresAt" = EXCLUDED."expiresAt"`);
}

/** An execution ended and its calls are recorded: they count through themselves again. */
export async function releaseReservations(db: SqlRunner, executionId: string): Promise<void> {
  await db.query(Prisma.sql`DELETE FROM "budget_reservation" WHERE "executionId" = ${executionId}`);
}

/** Reservations whose instance died with them, long past: nothing counts them any more. */
export async function dropLapsedReservations(db: SqlRunner, budgetId: string, before: Date): Promise<void> {
  await db.query(Prisma.sql`DELETE FROM "budget_reservation" WHERE "budgetId" = ${budgetId} AND "expiresAt" < ${before}::timestamp`);
}

/** Marks a budget's warning as given for a period (and user); false when it already was. */
export async function claimWarning(db: SqlRunner, budgetId: string, userId: string | null, periodStart: Date): Promise<boolean> {
  const rows = await db.query<{ claimed: boolean }>(Prisma.sql`
    INSERT INTO "budget_warning" ("budgetId", "userId", "periodStart") VALUES (${budgetId}, ${userId ?? ''}, ${periodStart}::timestamp)
    ON CONFLICT DO NOTHING RETURNING true AS "claimed"`);
  return rows.length > 0;
}
