import { describe, expect, it } from 'vitest';
import { classify } from '../../errors/classify.ts';
import { ERROR_REASONS, isRetryableByDefault, ReasonedError, type ErrorReason } from '../../errors/taxonomy.ts';
import { translate } from '../../i18n/catalog.ts';
import type { RunOutcome } from '../../runtime/agent-runtime.ts';
import { endingAfterOutage, endingOf, interruption, type RunStop } from '../ending.ts';
import { LeaseLost, ServerShutdown, TokenBudgetSpent } from '../running-executions.ts';

/**
 * `endingOf` is the one place that decides how a run ended: every failure kind of the taxonomy,
 * whether the runtime returned it or something threw it, and every reason a run's signal is
 * aborted with, each to exactly one ending.
 */

const usage = { inputTokens: 7, outputTokens: 5 };
const signal = (reason?: unknown) => {
  const controller = new AbortController();
  if (reason !== undefined) controller.abort(reason);
  return controller.signal;
};
const returned = (outcome: RunOutcome): RunStop => ({ returned: outcome });
const failedWith = (reason: ErrorReason): RunOutcome => ({
  outcome: 'FAILED',
  usage,
  messages: [],
  failure: classify(new ReasonedError({ reason, provider: 'openai', message: `a ${reason} failure` })),
});
const pending = { kind: 'QUESTION' as const, toolCallId: 'call-1', toolName: 'ask_user', input: { question: '?' }, approvalId: null };
const root = { signal: signal(), root: true, locale: 'en' as const };

describe('endingOf: every failure kind of the taxonomy', () => {
  describe.each(ERROR_REASONS.map((reason) => [reason]))('%s', (reason) => {
    it('returned by the runtime: FAILED with it, retryable as the taxonomy says, in the user’s language', () => {
      for (const locale of ['en', 'de'] as const) {
        const ending = endingOf(returned(failedWith(reason)), { ...root, locale });
        expect(ending).toMatchObject({ status: 'FAILED', usage, checkpoint: null, failure: { reason, retryable: isRetryableByDefault(reason) } });
        expect(ending.failure!.message).toBe(translate(locale, ending.failure!.messageKey as never, ending.failure!.params as never));
      }
    });

    it('thrown with its reason: FAILED with it, classified once (the reason is kept, not guessed again)', () => {
      const ending = endingOf({ threw: new ReasonedError({ reason, message: 'thrown' }) }, root);
      expect(ending).toMatchObject({ status: 'FAILED', failure: { reason, detail: 'thrown' } });
    });

    it('returned by a delegated child: the same failure, on the child', () => {
      expect(endingOf(returned(failedWith(reason)), { ...root, root: false })).toMatchObject({ status: 'FAILED', failure: { reason } });
    });
  });
});

describe('endingOf: what the runtime returned or threw', () => {
  it.each([
    ['COMPLETED', returned({ outcome: 'COMPLETED', usage, messages: [] }), { status: 'COMPLETED', usage, failure: null }],
    ['a suspension of the root run: SUSPENDED with its checkpoint', returned({ outcome: 'SUSPENDED', usage, messages: [], checkpoint: { messages: [], pending } }), { status: 'SUSPENDED', checkpoint: { pending } }],
    ['ABORTED without an aborted signal: a Stop', returned({ outcome: 'ABORTED', usage, messages: [] }), { status: 'CANCELLED', failure: null }],
    ['a plain crash: one APPLICATION_ERROR, not retryable', { threw: new Error('the loop broke') }, { status: 'FAILED', failure: { reason: 'APPLICATION_ERROR', retryable: false, detail: 'the loop broke' } }],
    [
      'the database out of reach: a retryable APPLICATION_ERROR that says when to try again',
      { threw: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) },
      { status: 'FAILED', failure: { reason: 'APPLICATION_ERROR', retryable: true, retryAfterS: 5, messageKey: 'error.service_unavailable' } },
    ],
  ] as const)('%s', (_, stop, expected) => {
    expect(endingOf(stop as RunStop, root)).toMatchObject(expected);
  });

  it('a suspension of a delegated child: CANCELLED (a child cannot wait for the user)', () => {
    const stop = returned({ outcome: 'SUSPENDED', usage, messages: [], checkpoint: { messages: [], pending } });
    expect(endingOf(stop, { ...root, root: false })).toEqual({ status: 'CANCELLED', usage, failure: null, checkpoint: null });
  });
});

describe('endingOf: why the run’s signal was aborted wins over what the runtime did', () => {
  const anything: RunStop[] = [
    returned({ outcome: 'ABORTED', usage, messages: [] }),
    returned(failedWith('TRANSPORT')),
    returned({ outcome: 'COMPLETED', usage, messages: [] }),
    { threw: new Error('aborted') },
    { notStarted: true },
  ];
  it.each([
    ['a Stop', new Error('stopped by the user'), { status: 'CANCELLED', failure: null }],
    ['a shutdown', new ServerShutdown(), { status: 'INTERRUPTED', failure: { reason: 'APPLICATION_ERROR', retryable: true, messageKey: 'error.interrupted' } }],
    ['a lost lease', new LeaseLost(), { status: 'INTERRUPTED', failure: { messageKey: 'error.interrupted' } }],
    ['a spent budget', new TokenBudgetSpent(100), { status: 'REFUSED', failure: { reason: 'QUOTA_EXCEEDED', retryable: false, messageKey: 'refusal.budget' } }],
  ] as const)('%s', (_, reason, expected) => {
    for (const stop of anything) expect(endingOf(stop, { ...root, signal: signal(reason) })).toMatchObject(expected);
  });

  it('a spent budget is the root run’s one error: a delegated child is refused without one', () => {
    expect(endingOf({ notStarted: true }, { ...root, root: false, signal: signal(new TokenBudgetSpent(100)) })).toMatchObject({ status: 'REFUSED', failure: null });
  });

  it('keeps what the runtime reported of the usage', () => {
    expect(endingOf(returned({ outcome: 'ABORTED', usage, messages: [] }), { ...root, signal: signal(new ServerShutdown()) }).usage).toEqual(usage);
  });
});

describe('endingAfterOutage', () => {
  const completed = endingOf(returned({ outcome: 'COMPLETED', usage, messages: [] }), root);
  it('keeps the ending while the lease is held', () => {
    expect(endingAfterOutage(completed, true, 'en')).toBe(completed);
  });
  it('past the lease, records it as interrupted (another instance may have taken the run), keeping the usage', () => {
    expect(endingAfterOutage(completed, false, 'en')).toMatchObject({ status: 'INTERRUPTED', usage, failure: { messageKey: 'error.interrupted' } });
  });
  it('leaves an interruption as it is', () => {
    const interrupted = interruption('the instance stopped', 'en');
    expect(endingAfterOutage(interrupted, false, 'en')).toBe(interrupted);
  });
});
