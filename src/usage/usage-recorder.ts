import { randomUUID } from 'node:crypto';
import type { Contribution, RunListener, RunState } from '../recording/run-listener.ts';
import type { CallTokens, RuntimeEvent } from '../runtime/runtime-event.ts';
import { insertModelCalls, type ModelCallToWrite } from '../storage/model-call-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { formatAmount } from './money.ts';
import { costOf } from './model-price.ts';
import type { PriceBook } from './price-book.ts';

/** A model call as recorded, with its cost in pico-units (null: unpriced). */
export interface PricedCall extends ModelCallToWrite {
  costPicos: bigint | null;
}

export interface UsageRecorderDeps {
  sql: SqlClient;
  prices: PriceBook;
  /** Told of each call as it is priced (the spend metrics). */
  onCall?: (call: PricedCall) => void;
}

/**
 * Records each model call of a run with its price at that moment: the calls before a boundary are
 * written there (a run killed later keeps them), the rest with the run's end. A boundary write that
 * fails leaves its calls to the end's.
 */
export class UsageRecorder implements RunListener {
  private pending: ModelCallToWrite[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: UsageRecorderDeps,
    private readonly agent: { projectId: string; model: string },
  ) {}

  // Not async: it hears every delta of the run, and only a model call has anything to wait for.
  onEvent(event: RuntimeEvent, run: RunState): Promise<void> | void {
    if (event.type === 'model-call') return this.record(event.tokens, run);
    if (event.type === 'boundary') this.writePending();
  }

  drain(): Promise<void> {
    return this.writing;
  }

  contribute(): Contribution {
    return { modelCalls: [...this.pending] };
  }

  private async record(tokens: CallTokens, run: RunState): Promise<void> {
    const row = await pricedCall(this.deps, this.agent, tokens, {
      threadId: run.threadId,
      executionId: run.executionId,
      rootExecutionId: run.parentExecutionId ?? run.executionId,
      agentId: run.agentId,
      userId: run.userId,
    });
    this.pending.push(row);
  }

  private writePending(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.writing = this.writing.then(() =>
      insertModelCalls(this.deps.sql, batch).catch(() => {
        // Written with the run's end instead.
        this.pending.unshift(...batch);
      }),
    );
  }
}

/** Whose a model call was: its thread, run (and root run), agent and user. */
export type CallOwner = Pick<ModelCallToWrite, 'threadId' | 'executionId' | 'rootExecutionId' | 'agentId' | 'userId'>;

/** A model call priced at the agent's model's price in force now, told to `onCall`: the row to record. */
export async function pricedCall(
  deps: Pick<UsageRecorderDeps, 'prices' | 'onCall'>,
  agent: { projectId: string; model: string },
  tokens: CallTokens,
  owner: CallOwner,
): Promise<ModelCallToWrite> {
  const at = new Date();
  const price = await deps.prices.priceOf(agent.model, at);
  const costPicos = price ? costOf(tokens, price) : null;
  const row: ModelCallToWrite = {
    id: randomUUID(),
    projectId: agent.projectId,
    ...owner,
    modelId: agent.model,
    ...tokens,
    cost: costPicos === null ? null : formatAmount(costPicos),
    priceSource: price?.source ?? null,
    at,
  };
  deps.onCall?.({ ...row, costPicos });
  return row;
}
