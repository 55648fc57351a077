import type { Logger } from 'pino';
import type { RunListener, RunState } from '../recording/run-listener.ts';
import type { RuntimeEvent } from '../runtime/runtime-event.ts';
import { SpendLimitReached, type SpendGate } from '../runtime/spend-gate.ts';
import {
  budgetsOfRun,
  claimWarning,
  dropLapsedReservations,
  holdReservation,
  recordedByExecution,
  releaseReservations,
  spentInPeriod,
  underBudgetLock,
  type BudgetRow,
  type SpendScope,
} from '../storage/budget-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { budgetSpentError, periodStart } from './budget-period.ts';
import { costOf, type ModelPriceRow } from './model-price.ts';
import { formatAmount, picosOfAmount } from './money.ts';
import type { PriceBook } from './price-book.ts';

/** Output tokens a run holds of each budget ahead of what it spent: how far one run can overspend. */
export const RESERVED_OUTPUT_TOKENS = 256n;
/** A reservation of an instance that died stops counting after this. */
const RESERVATION_TTL_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface BudgetGuardDeps {
  sql: SqlClient;
  prices: PriceBook;
  currency: string;
  logger: Logger;
}

/** The run a guard watches (its execution it learns from the run's first event), and how to stop its turn (a delegated child's budget stops the root too). */
export interface GuardedRun {
  userId: string;
  projectId: string;
  agentId: string;
  agentName: string;
  model: string;
  /** Read at admission with the turn; a resumed run's guard reads them itself. */
  budgets?: BudgetRow[];
  stop(reason: Error): void;
}

/** What the run holds of one budget, as of its last reservation. */
interface Holding {
  budget: BudgetRow;
  scope: SpendScope;
  amount: bigint;
  /** What the run may spend in all: the amount less what everyone else spent or holds. */
  allowance: bigint;
  /** What its reservation holds: its spend then plus the share ahead. */
  held: bigint;
  /** Its execution's calls recorded before this run (a resumed run's earlier requests). */
  before: bigint;
  refreshedAt: number;
}

/**
 * Budgets in money for one run: before every model call it reserves its share of each budget that
 * binds it (one transaction per budget, serialised across instances), and while the call streams
 * it counts each chunk at the model's output price, reserving more as it goes; a budget the run
 * reaches stops the turn with that budget's error. Its reservations are let go once its end is
 * recorded, when its calls count through themselves again.
 */
export class BudgetGuard implements SpendGate, RunListener {
  private budgets: BudgetRow[] | null;
  private price: ModelPriceRow | null = null;
  private readonly holdings = new Map<string, Holding>();
  /** Priced calls of this run. */
  private spent = 0n;
  /** The request streaming now, one output token per chunk until it reports its usage. */
  private streaming = 0n;
  private lastInputTokens = 0;
  private reserving: Promise<void> | null = null;
  private stopped = false;
  private executionId: string | null = null;

  constructor(
    private readonly deps: BudgetGuardDeps,
    private readonly run: GuardedRun,
  ) {
    this.budgets = run.budgets ?? null;
  }

  async beforeCall(): Promise<RuntimeEvent[]> {
    this.budgets ??= await budgetsOfRun(this.deps.sql, this.run.projectId, this.run.agentId);
    if (this.budgets.length === 0 || this.stopped || !this.executionId) return [];
    // A model without a price records no cost, so a budget in money cannot bind its runs.
    this.price = await this.deps.prices.priceOf(this.run.model, new Date());
    if (!this.price) return [];
    await this.reserving;
    this.streaming = 0n;
    return this.reserveAll(true);
  }

  // Not async: it hears every delta of the run.
  onEvent(event: RuntimeEvent, run: RunState): void {
    this.executionId = run.executionId;
    if (!this.price || this.holdings.size === 0) return;
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      this.streaming += this.price.outputPerMillion;
      this.checkWhileStreaming();
    } else if (event.type === 'model-call') {
      this.spent += costOf(event.tokens, this.price);
      this.streaming = 0n;
      this.lastInputTokens = event.tokens.inputTokens;
    }
  }

  onEnded(): void {
    if (this.holdings.size === 0 || !this.executionId) return;
    // Lapses on its own if this fails: the calls then count through themselves after RESERVATION_TTL_MS.
    void releaseReservations(this.deps.sql, this.executionId).catch((error: unknown) =>
      this.deps.logger.warn({ err: error, executionId: this.executionId! }, 'letting go of budget reservations failed'),
    );
  }

  private checkWhileStreaming(): void {
    if (this.stopped) return;
    const now = Date.now();
    for (const holding of this.holdings.values()) {
      const mine = this.mine(holding);
      if (mine >= holding.allowance) return this.stop(holding, holding.amount - holding.allowance + mine);
      const stale = now - holding.refreshedAt > RESERVATION_TTL_MS / 2;
      if ((mine >= holding.held || stale) && !this.reserving) {
        this.reserving = this.reserveAll(false)
          .then(() => undefined)
          .catch((error: unknown) => this.deps.logger.warn({ err: error, executionId: this.executionId! }, 'reserving more of a budget failed'))
          .finally(() => {
            this.reserving = null;
          });
      }
    }
  }

  private async reserveAll(warn: boolean): Promise<RuntimeEvent[]> {
    const events: RuntimeEvent[] = [];
    for (const budget of this.budgets ?? []) {
      if (this.stopped) break;
      const event = await this.reserve(budget, warn);
      if (event) events.push(event);
    }
    return events;
  }

  /** Reserves the run's spend plus a share ahead of one budget, or stops the run when nothing is left. */
  private async reserve(budget: BudgetRow, warn: boolean): Promise<RuntimeEvent | null> {
    const now = new Date();
    const scope: SpendScope = { budget, userId: budget.perUser ? this.run.userId : null, since: periodStart(budget.period, now) };
    const { sql } = this.deps;
    return underBudgetLock(sql, scope, async (tx) => {
      await dropLapsedReservations(tx, budget.id, new Date(now.getTime() - DAY_MS));
      const known = this.holdings.get(budget.id);
      const before = known && known.scope.since.getTime() === scope.since.getTime() ? known.before : picosOfAmount(await recordedByExecution(tx, this.executionId!, scope.since));
      const others = picosOfAmount(await spentInPeriod(tx, scope, this.executionId!, now));
      const amount = picosOfAmount(budget.amount);
      const holding: Holding = { budget, scope, amount, allowance: amount - others, held: 0n, before, refreshedAt: now.getTime() };
      const mine = this.mine(holding);
      holding.held = mine + min(this.ahead(), max(holding.allowance - mine, 0n));
      await holdReservation(tx, { budgetId: budget.id, executionId: this.executionId!, userId: this.run.userId, amount: formatAmount(holding.held), expiresAt: new Date(now.getTime() + RESERVATION_TTL_MS) });
      this.holdings.set(budget.id, holding);
      if (mine >= holding.allowance) {
        this.stop(holding, others + mine);
        return null;
      }
      const nearlySpent = (others + mine) * 100n >= amount * BigInt(budget.warnAtPercent);
      if (!warn || !nearlySpent || !(await claimWarning(tx, budget.id, scope.userId, scope.since))) return null;
      const { id, period, perUser, agentId, warnAtPercent } = budget;
      return { type: 'budget-warning', warning: { budgetId: id, period, perUser, agentId, warnAtPercent, spent: formatAmount(others + mine), amount: budget.amount } };
    });
  }

  private mine(holding: Holding): bigint {
    return holding.before + this.spent + this.streaming;
  }

  /** The next request's share: its input as large as the last one's, and RESERVED_OUTPUT_TOKENS of output. */
  private ahead(): bigint {
    const price = this.price!;
    return BigInt(this.lastInputTokens) * price.inputPerMillion + RESERVED_OUTPUT_TOKENS * price.outputPerMillion;
  }

  private stop(holding: Holding, spent: bigint): void {
    if (this.stopped) return;
    this.stopped = true;
    const budget = { ...holding.budget, agentName: holding.budget.agentId ? this.run.agentName : null };
    this.run.stop(new SpendLimitReached(budgetSpentError(budget, spent, holding.amount, this.deps.currency)));
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
