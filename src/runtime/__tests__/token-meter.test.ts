import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createDemoModel } from '../../models/demo/model.ts';
import { runAgent } from '../agent-runtime.ts';
import type { RuntimeEvent } from '../runtime-event.ts';
import { TokenMeter } from '../token-meter.ts';

/** The meter counts a run's tokens as they stream, so a budget binds mid-run (docs/security.md, "Budgets and rate limits"). */

const POLICY = { maxAttempts: 1, baseDelayS: 0.001, maxDelayS: 0.01, deadlineS: 10 };

async function runWithAllowance(text: string, allowance: number | null) {
  const controller = new AbortController();
  const events: RuntimeEvent[] = [];
  let spentCalls = 0;
  const meter = new TokenMeter(allowance, () => {
    spentCalls += 1;
    controller.abort(new Error('budget spent'));
  });
  const messages: ModelMessage[] = [{ role: 'user', content: text }];
  const result = await runAgent({
    model: createDemoModel('default'),
    provider: 'demo',
    system: '',
    messages,
    tools: {},
    signal: controller.signal,
    retryPolicy: POLICY,
    maxSteps: 2,
    meter,
    emit: async (event) => {
      events.push(event);
    },
  });
  const chunks = events.filter((event) => event.type === 'text-delta').length;
  return { result, chunks, meter, spentCalls };
}

describe('TokenMeter', () => {
  it('calls onSpent once, when the count reaches the allowance', () => {
    let calls = 0;
    const meter = new TokenMeter(3, () => (calls += 1));
    meter.add(1);
    meter.add(1);
    expect(calls).toBe(0);
    meter.add(1);
    meter.add(5);
    expect(calls).toBe(1);
    expect(meter.total).toBe(8);
  });

  it('a finished request’s usage may spend the allowance; only the next check stops the run', () => {
    let calls = 0;
    const meter = new TokenMeter(10, () => (calls += 1));
    meter.add(4);
    meter.correct(8);
    expect(calls).toBe(0);
    meter.check();
    expect(calls).toBe(1);
  });

  it('an allowance of 0 is spent by the first token; no allowance is never spent', () => {
    let calls = 0;
    const zero = new TokenMeter(0, () => (calls += 1));
    zero.add(1);
    const unlimited = new TokenMeter(null, () => (calls += 10));
    unlimited.add(1_000_000);
    expect(calls).toBe(1);
  });
});

describe('runAgent with a token meter', () => {
  it('stops a /tokens 5000 stream at the allowance of 100: 100 chunks, and the usage says so', async () => {
    const { result, chunks, spentCalls } = await runWithAllowance('/tokens 5000', 100);
    expect(spentCalls).toBe(1);
    expect(chunks).toBe(100);
    expect(result.outcome).toBe('ABORTED');
    // The request never reported usage: the streamed chunks are the run's output tokens.
    expect(result.usage.outputTokens).toBe(100);
  });

  it('replaces the per-chunk estimate with the usage a finished request reports', async () => {
    const { result, chunks, meter, spentCalls } = await runWithAllowance('/tokens 20', null);
    expect(spentCalls).toBe(0);
    expect(chunks).toBe(20);
    expect(result.outcome).toBe('COMPLETED');
    expect(meter.total).toBe(result.usage.inputTokens + result.usage.outputTokens);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });
});
