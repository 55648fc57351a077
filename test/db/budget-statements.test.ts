import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.ts';
import {
  claimWarning,
  dropLapsedReservations,
  holdReservation,
  recordedByExecution,
  releaseReservations,
  spentInPeriod,
  underBudgetLock,
  type SpendScope,
} from '../../src/storage/budget-statements.ts';
import { insertModelCalls, type ModelCallToWrite } from '../../src/storage/model-call-statements.ts';
import { describeEachBackend } from '../support/backends.ts';
import { setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

/**
 * What a budget counts, pinned on both databases: recorded calls of its scope and period, except a
 * running execution's, which count through its live reservation; a lapsed reservation no longer
 * counts and its calls do again; a warning is claimed once per period.
 */
describeEachBackend('budget statements', (backend) => {
  let server: TestServer;
  let scope: SpendScope;
  let projectId: string;
  let agentId: string;
  const since = new Date(Date.UTC(2026, 11, 1));
  const now = new Date(Date.UTC(2026, 11, 6, 12));

  const call = (executionId: string, userId: string, cost: string, at = now): ModelCallToWrite => ({
    id: randomUUID(), projectId, threadId: 't', executionId, rootExecutionId: executionId, agentId, userId, modelId: 'demo:default',
    inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0, cost, priceSource: 'demo', at,
  });

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ projectId, agentId } = await setUpAgent(server, { project: 'Budget statements' }));
    const budget = await server.parley.db.prisma.budget.create({ data: { projectId, perUser: false, period: 'MONTH', amount: '1', scope: '*:shared:MONTH' } });
    scope = { budget: { id: budget.id, projectId, agentId: null }, userId: null, since };
  });

  afterAll(async () => server?.stop());

  it('counts recorded calls of the period, and a running execution through its reservation instead', async () => {
    const { sql } = server.parley.db;
    await insertModelCalls(sql, [
      call('done', 'u1', '0.100000000000'),
      call('done', 'u2', '0.000000000001'),
      call('last-month', 'u1', '5.000000000000', new Date(Date.UTC(2026, 10, 30, 23, 59))),
      call('running', 'u1', '0.200000000000'),
    ]);
    expect(await spentInPeriod(sql, scope, '', now)).toBe('0.300000000001');
    expect(await recordedByExecution(sql, 'running', since)).toBe('0.200000000000');

    await holdReservation(sql, { budgetId: scope.budget.id, executionId: 'running', userId: 'u1', amount: '0.250000000000', expiresAt: new Date(now.getTime() + 60_000) });
    // Its calls count through the reservation, which holds them and the next call's share.
    expect(await spentInPeriod(sql, scope, '', now)).toBe('0.350000000001');
    // Left out, as the running execution asks for what others spent.
    expect(await spentInPeriod(sql, scope, 'running', now)).toBe('0.100000000001');
    // A per-user scope counts that user's calls and reservations only.
    expect(await spentInPeriod(sql, { ...scope, userId: 'u2' }, '', now)).toBe('0.000000000001');

    // Lapsed (its instance died): its recorded calls count again.
    const later = new Date(now.getTime() + 120_000);
    expect(await spentInPeriod(sql, scope, '', later)).toBe('0.300000000001');
    await dropLapsedReservations(sql, scope.budget.id, later);
    expect(await server.parley.db.prisma.budgetReservation.count({ where: { budgetId: scope.budget.id } })).toBe(0);

    await holdReservation(sql, { budgetId: scope.budget.id, executionId: 'running', userId: 'u1', amount: '0.3', expiresAt: new Date(now.getTime() + 60_000) });
    await holdReservation(sql, { budgetId: scope.budget.id, executionId: 'running', userId: 'u1', amount: '0.4', expiresAt: new Date(now.getTime() + 60_000) });
    expect(await spentInPeriod(sql, scope, '', now)).toBe('0.500000000001');
    await releaseReservations(sql, 'running');
    expect(await spentInPeriod(sql, scope, '', now)).toBe('0.300000000001');
  });

  it('claims a warning once per budget, period and user', async () => {
    const { sql } = server.parley.db;
    expect(await claimWarning(sql, scope.budget.id, null, since)).toBe(true);
    expect(await claimWarning(sql, scope.budget.id, null, since)).toBe(false);
    expect(await claimWarning(sql, scope.budget.id, 'u1', since)).toBe(true);
    expect(await claimWarning(sql, scope.budget.id, null, new Date(Date.UTC(2027, 0, 1)))).toBe(true);
  });

  // PGlite has one connection, so its transactions run one after another whatever they lock.
  it.skipIf(backend === 'pglite')('serialises the work on one budget across connections', async () => {
    const { sql } = server.parley.db;
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstIn!: () => void;
    const firstEntered = new Promise<void>((resolve) => (firstIn = resolve));
    const first = underBudgetLock(sql, scope, async () => {
      order.push('first in');
      firstIn();
      await firstHolds;
      order.push('first out');
    });
    await firstEntered;
    const second = underBudgetLock(sql, scope, async () => {
      order.push('second in');
    });
    // The second waits for the first's advisory lock before it runs anything.
    await eventually(async () => {
      const [row] = await sql.query<{ waiting: number }>(Prisma.sql`SELECT count(*)::int AS "waiting" FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
      return row!.waiting > 0;
    }, 15_000, 'the second transaction waiting for the lock');
    expect(order).toEqual(['first in']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});
