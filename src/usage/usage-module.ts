import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AccessPolicy } from '../auth/access.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { Agent, PrismaClient } from '../generated/prisma/client.ts';
import type { Module } from '../lifecycle/module.ts';
import { UnknownModelError, type ModelRegistry } from '../models/registry.ts';
import type { RunListener } from '../recording/run-listener.ts';
import type { CallTokens } from '../runtime/runtime-event.ts';
import type { BudgetRow } from '../storage/budget-statements.ts';
import { insertModelCalls } from '../storage/model-call-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { BudgetGuard } from './budget-guard.ts';
import { BudgetService } from './budgets.ts';
import { PriceBook } from './price-book.ts';
import { PriceDataset } from './price-dataset.ts';
import { PriceService } from './prices.ts';
import { UsageReads } from './usage-reads.ts';
import { UsageMetrics } from './usage-metrics.ts';
import { pricedCall, UsageRecorder } from './usage-recorder.ts';
import { UsageService } from './usage-service.ts';

/** How often every instance reads the operators' prices again, whatever it heard. */
export const PRICE_REFRESH_MS = 30_000;

export interface UsageModuleDeps {
  prisma: PrismaClient;
  sql: SqlClient;
  bus: Pick<LiveBus, 'announceToInstances' | 'onInstanceMessage'>;
  access: Pick<AccessPolicy, 'projectRole' | 'agent'>;
  models: Pick<ModelRegistry, 'validate'>;
  logger: Logger;
  settings: { PARLEY_CURRENCY: string };
  /** The instance's metrics registry: tokens and spend are counted on it. */
  registry: Registry;
}

/**
 * Usage and cost: every model call recorded with its price (a listener on each run), the prices
 * operators set (kept in step on every instance), and what the calls say of a run, a thread and a
 * project.
 */
export class UsageModule implements Module {
  readonly name = 'usage';
  readonly currency: string;
  readonly prices: PriceService;
  readonly reads: UsageReads;
  readonly usage: UsageService;
  readonly budgets: BudgetService;
  private readonly book: PriceBook;
  private readonly metrics: UsageMetrics;
  private stopListening: (() => void) | null = null;
  private refresh: NodeJS.Timeout | undefined;

  constructor(private readonly deps: UsageModuleDeps) {
    this.currency = deps.settings.PARLEY_CURRENCY;
    this.metrics = new UsageMetrics(deps.registry, this.currency);
    this.book = new PriceBook(deps.prisma, new PriceDataset());
    this.prices = new PriceService(deps.prisma, this.book, (model) => modelProblem(deps.models, model), () =>
      deps.bus.announceToInstances({ kind: 'prices-changed' }),
    );
    this.reads = new UsageReads(deps.prisma);
    this.usage = new UsageService(deps.prisma, deps.access);
    this.budgets = new BudgetService(deps.prisma, deps.access);
  }

  async start(): Promise<void> {
    const reload = () => this.book.reload().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'reading the model prices again failed'));
    this.stopListening = this.deps.bus.onInstanceMessage((message) => {
      if (message.kind === 'prices-changed') void reload();
    });
    // Also read on a timer: a change made with the CLI (which announces to nobody), or announced while Redis was away.
    this.refresh = setInterval(reload, PRICE_REFRESH_MS);
    this.refresh.unref();
    await this.book.reload();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    this.stopListening = null;
    clearInterval(this.refresh);
    this.refresh = undefined;
  }

  /** Budgets in money for one run of `agent` for `userId`: asked before each model call, and hearing the run. */
  budgetGuardFor(run: { userId: string; agent: Pick<Agent, 'id' | 'name' | 'projectId' | 'model'>; budgets?: BudgetRow[]; stop(reason: Error): void }): BudgetGuard {
    const { agent } = run;
    return new BudgetGuard(
      { sql: this.deps.sql, prices: this.book, currency: this.currency, logger: this.deps.logger },
      { userId: run.userId, projectId: agent.projectId, agentId: agent.id, agentName: agent.name, model: agent.model, budgets: run.budgets, stop: run.stop },
    );
  }

  /**
   * A model call no run made (a compaction by hand): priced as a run's call and recorded at once.
   * No execution made it, so its execution and root execution ids are the call's own.
   */
  async recordCallOutsideRun(agent: Pick<Agent, 'id' | 'projectId' | 'model'>, call: { threadId: string; userId: string; tokens: CallTokens }): Promise<void> {
    const callId = randomUUID();
    const owner = { threadId: call.threadId, executionId: callId, rootExecutionId: callId, agentId: agent.id, userId: call.userId };
    const row = await pricedCall({ prices: this.book, onCall: (priced) => this.metrics.observe(priced) }, agent, call.tokens, owner);
    await insertModelCalls(this.deps.sql, [row]);
  }

  /** The listener that records a run's model calls, for a run of `agent`. */
  recorderFor(agent: Pick<Agent, 'projectId' | 'model'>): RunListener {
    return new UsageRecorder({ sql: this.deps.sql, prices: this.book, onCall: (call) => this.metrics.observe(call) }, agent);
  }
}

/**
 * The operators' prices alone, for the CLI: no bus to announce on, so a change reaches running
 * servers when they next read the prices (every PRICE_REFRESH_MS).
 */
export async function standalonePrices(prisma: PrismaClient, models: Pick<ModelRegistry, 'validate'>): Promise<PriceService> {
  const book = new PriceBook(prisma, new PriceDataset());
  await book.reload();
  return new PriceService(prisma, book, (model) => modelProblem(models, model), async () => {});
}

function modelProblem(models: Pick<ModelRegistry, 'validate'>, model: string): string | null {
  try {
    models.validate(model);
    return null;
  } catch (error) {
    if (error instanceof UnknownModelError) return error.message;
    throw error;
  }
}
