import { Counter, type Registry } from 'prom-client';
import type { PricedCall } from './usage-recorder.ts';

const KINDS = ['input', 'cached_input', 'cache_write', 'output', 'reasoning'] as const;

/** Tokens and spend of model calls by project, agent and model, on the instance's registry. */
export class UsageMetrics {
  private readonly tokens: Counter<'project' | 'agent' | 'model' | 'kind'>;
  private readonly spend: Counter<'project' | 'agent' | 'model' | 'currency'>;

  constructor(
    registry: Registry,
    private readonly currency: string,
  ) {
    this.tokens = new Counter({
      name: 'parley_usage_tokens_total',
      help: 'Tokens of model calls by project, agent, model and kind (input and output are totals; cached_input, cache_write and reasoning are among them)',
      labelNames: ['project', 'agent', 'model', 'kind'] as const,
      registers: [registry],
    });
    this.spend = new Counter({
      name: 'parley_usage_spend_total',
      help: 'What priced model calls cost, in the currency, by project, agent and model (the books are the model_call table; this is for dashboards)',
      labelNames: ['project', 'agent', 'model', 'currency'] as const,
      registers: [registry],
    });
  }

  observe(call: PricedCall): void {
    const labels = { project: call.projectId, agent: call.agentId, model: call.modelId };
    const counts = [call.inputTokens, call.cachedInputTokens, call.cacheWriteTokens, call.outputTokens, call.reasoningTokens];
    KINDS.forEach((kind, index) => {
      if (counts[index]! > 0) this.tokens.inc({ ...labels, kind }, counts[index]);
    });
    // A counter is a float: good for a dashboard, not for the books.
    if (call.costPicos !== null && call.costPicos > 0n) this.spend.inc({ ...labels, currency: this.currency }, Number(call.costPicos) / 1e12);
  }
}
