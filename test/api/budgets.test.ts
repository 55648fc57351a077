import { afterAll, beforeAll, expect, it } from 'vitest';
import { textOf, type MessagePart } from '../../src/conversation/parts.ts';
import { RESERVED_OUTPUT_TOKENS } from '../../src/usage/budget-guard.ts';
import { formatPicos, picosOfAmount } from '../../src/usage/money.ts';
import { describeEachBackend, describeWithServices } from '../support/backends.ts';
import { expectTypename } from '../support/client.ts';
import * as documents from '../support/documents.ts';
import { ofKind } from '../support/run-events.ts';
import { rawId } from '../support/security-world.ts';
import { addAgent, addMember, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { databaseState, request, requestData, startInstancePair, startTestServer, type InstancePair, type TestServer } from '../support/server.ts';

/**
 * Budgets in money bind before every model call and while one streams: the run ends at the budget
 * with a QUOTA_EXCEEDED card naming it, what streamed stays, a warning comes once per period, and
 * two instances running one user's replies at once share the budget.
 */

type Events = Awaited<ReturnType<typeof sendAndFollow>>;

/** The demo model's output price: pico-units per token. */
const DEMO_OUTPUT_PICOS = 2_000_000n;

const errorOf = (events: Events) => ofKind(events, 'ErrorEvent').at(-1);
const finishedStatus = (events: Events) => ofKind(events, 'ExecutionFinished').at(-1)?.status;
/** The demo chunks (`t1 ` … `tn `) the run's reply kept, as recorded: a subscriber may have had them as deltas or in a snapshot. */
async function recordedChunks(server: Pick<TestServer, 'parley'>, events: Events): Promise<number> {
  const executionId = rawId(ofKind(events, 'ExecutionFinished').at(-1)!.executionId!);
  const reply = await server.parley.db.prisma.message.findFirstOrThrow({ where: { executionId, role: 'ASSISTANT' } });
  return textOf(reply.parts as unknown as MessagePart[]).match(/t\d+ /g)?.length ?? 0;
}

describeEachBackend('budgets in money', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof setUpAgent>>;

  const setBudget = async (variables: Omit<documents.SetBudgetMutationVariables, 'projectId'> & { projectId?: string }, token = admin.token) =>
    (await requestData(server, documents.SetBudgetDocument, { projectId: admin.projectId, ...variables }, token)).setBudget;
  const budgets = async (token = admin.token) => (await requestData(server, documents.ProjectBudgetsDocument, { id: admin.projectId }, token)).project.budgets;
  const turn = async (token: string, agentId: string, text: string) => sendAndFollow(server, token, await newThread(server, token, agentId), text);

  beforeAll(async () => {
    server = await startTestServer({ backend });
    admin = await setUpAgent(server, { project: 'Budgets' });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('stops a reply mid-stream at a per-user daily budget, keeps what streamed, and refuses the next until the period resets', async () => {
    const agentId = await addAgent(server, admin.projectId, { name: 'Metered', tools: [] });
    // About 250 output tokens of the demo model.
    const set = expectTypename(await setBudget({ agentId, perUser: true, period: 'DAY', amount: '0.0005' }), 'Budget');
    expect(set).toMatchObject({ perUser: true, period: 'DAY', warnAtPercent: 80, amount: { amount: '0.0005' }, spent: { amount: '0.00' } });

    const stopped = await turn(admin.token, agentId, '/tokens 900');
    expect(finishedStatus(stopped)).toBe('REFUSED');
    const card = errorOf(stopped)!;
    expect(card).toMatchObject({ reason: 'QUOTA_EXCEEDED', retryable: false, messageKey: 'refusal.spend.day.user.agent' });
    // The budget's raw id, which every id argument also accepts.
    expect(card.params).toMatchObject({ budgetId: rawId(set.id), amount: '0.0005', currency: 'USD', agent: 'Metered' });
    expect(card.message).toContain('0.0005 USD');
    expect(card.retryAfterS).toBeGreaterThan(0);
    expect(card.retryAfterS).toBeLessThanOrEqual(86_400);
    const chunks = await recordedChunks(server, stopped);
    expect(chunks).toBeGreaterThan(100);
    expect(chunks).toBeLessThan(900);

    // What streamed is recorded as spent (one output token per chunk): the budget is used up.
    const [after] = (await budgets()).filter((budget) => budget.id === set.id);
    expect(picosOfAmount(after!.spent.amount)).toBeGreaterThanOrEqual(picosOfAmount('0.0005'));

    const refused = await turn(admin.token, agentId, 'one more?');
    expect(finishedStatus(refused)).toBe('REFUSED');
    expect(errorOf(refused)).toMatchObject({ reason: 'QUOTA_EXCEEDED', messageKey: 'refusal.spend.day.user.agent' });
    expect(ofKind(refused, 'TextDelta')).toHaveLength(0);

    // Per user: another member of the project still has the whole amount.
    const member = await addMember(server, admin.projectId);
    expect(finishedStatus(await turn(member.token, agentId, 'my own budget'))).toBe('COMPLETED');
    const seen = (await budgets(member.token)).find((budget) => budget.id === set.id)!;
    expect(picosOfAmount(seen.spent.amount)).toBeLessThan(picosOfAmount('0.0005'));
  });

  it('warns once per period when the spend reaches the warning share, then stops at the amount', async () => {
    const agentId = await addAgent(server, admin.projectId, { name: 'Warned', tools: [] });
    const first = await turn(admin.token, agentId, '/tokens 100');
    expect(finishedStatus(first)).toBe('COMPLETED');
    const { node } = await requestData(server, documents.ExecutionUsageDocument, { id: ofKind(first, 'ExecutionFinished')[0]!.executionId! }, admin.token);
    const firstCost = picosOfAmount((node as { usage: { own: documents.UsageFieldsFragment } }).usage.own.cost!.amount);
    // The first reply spent 90 % of it: the next call warns, and the reply after it cannot finish.
    const amount = (firstCost * 10n) / 9n;
    const set = expectTypename(await setBudget({ agentId, perUser: false, period: 'MONTH', amount: formatPicos(amount) }), 'Budget');

    const warned = await turn(admin.token, agentId, '/tokens 100');
    const [warning] = ofKind(warned, 'BudgetWarning');
    expect(warning).toMatchObject({ budgetId: set.id, period: 'MONTH', perUser: false, warnAtPercent: 80, amount: { amount: formatPicos(amount) } });
    expect(picosOfAmount(warning!.spent.amount)).toBe(firstCost);
    expect(finishedStatus(warned)).toBe('REFUSED');
    expect(errorOf(warned)).toMatchObject({ reason: 'QUOTA_EXCEEDED', messageKey: 'refusal.spend.month.shared.agent' });

    const again = await turn(admin.token, agentId, '/tokens 100');
    expect(ofKind(again, 'BudgetWarning')).toHaveLength(0);
    expect(finishedStatus(again)).toBe('REFUSED');

    // Removed, it binds no more.
    const removed = (await requestData(server, documents.RemoveBudgetDocument, { budgetId: set.id }, admin.token)).removeBudget;
    expect(expectTypename(removed, 'BudgetRemoved').budgetId).toBe(set.id);
    expect(finishedStatus(await turn(admin.token, agentId, 'free again'))).toBe('COMPLETED');
  });

  it('counts a delegated run’s calls against the budget of its turn', async () => {
    const agentId = await addAgent(server, admin.projectId, { name: 'Delegating' });
    const plain = await turn(admin.token, agentId, '/delegate tell me');
    expect(finishedStatus(plain)).toBe('COMPLETED');
    // Less than the turn just spent: the child's calls or the parent's second one cross it.
    const { node } = await requestData(server, documents.ExecutionUsageDocument, { id: ofKind(plain, 'ExecutionFinished').at(-1)!.executionId! }, admin.token);
    const { own, total } = (node as { usage: { own: documents.UsageFieldsFragment; total: documents.UsageFieldsFragment } }).usage;
    expect(total.modelCalls).toBeGreaterThan(own.modelCalls);
    await setBudget({ agentId, perUser: true, period: 'DAY', amount: formatPicos(picosOfAmount(total.cost!.amount) + picosOfAmount(own.cost!.amount) / 2n) });
    const second = await turn(admin.token, agentId, '/delegate tell me again');
    expect(finishedStatus(second)).toBe('REFUSED');
    expect(ofKind(second, 'ErrorEvent')).toHaveLength(1);
    expect(errorOf(second)).toMatchObject({ reason: 'QUOTA_EXCEEDED' });
  });

  it('refuses bad input with a typed error and changes nothing', async () => {
    const other = await setUpAgent(server, { project: 'Elsewhere' });
    const member = await addMember(server, admin.projectId);
    const outsider = await server.createUser();
    const before = await databaseState(server);
    for (const amount of ['-1', 'ten', '0', '0.0000000000001', '1e3', '', '9'.repeat(41)]) {
      const refused = await setBudget({ perUser: false, period: 'DAY', amount });
      expect(expectTypename(refused, 'InvalidInputError').message, amount).toContain('amount');
    }
    expect(expectTypename(await setBudget({ perUser: false, period: 'DAY', amount: '5', warnAtPercent: 0 }), 'InvalidInputError').message).toContain('warnAtPercent');
    expect(expectTypename(await setBudget({ perUser: false, period: 'DAY', amount: '5' }, member.token), 'ForbiddenError').message).toContain('agent:manage');
    expect(expectTypename(await setBudget({ perUser: false, period: 'DAY', amount: '5' }, outsider.token), 'NotFoundError').message).toContain('Project');
    expect(expectTypename(await setBudget({ agentId: other.agentId, perUser: false, period: 'DAY', amount: '5' }), 'NotFoundError').message).toContain('Agent');
    const foreignAgent = await setBudget({ projectId: other.projectId, agentId: admin.agentId, perUser: false, period: 'DAY', amount: '5' }, other.token);
    expect(expectTypename(foreignAgent, 'NotFoundError').message).toContain('Agent');
    const unknown = (await requestData(server, documents.RemoveBudgetDocument, { budgetId: '00000000-0000-4000-8000-000000000000' }, admin.token)).removeBudget;
    expect(expectTypename(unknown, 'NotFoundError').message).toContain('Budget');
    const bad = await request(server, documents.SetBudgetDocument, { projectId: admin.projectId, perUser: false, period: 'WEEK' as 'DAY', amount: '5' }, admin.token);
    expect(bad.errors?.[0]?.message).toContain('WEEK');
    expect(await databaseState(server)).toEqual(before);
  });

  it('lets a member read the budgets but only a project admin set or remove one', async () => {
    const set = expectTypename(await setBudget({ perUser: true, period: 'MONTH', amount: '25' }), 'Budget');
    const member = await addMember(server, admin.projectId);
    expect((await budgets(member.token)).map((budget) => budget.id)).toContain(set.id);
    const removed = (await requestData(server, documents.RemoveBudgetDocument, { budgetId: set.id }, member.token)).removeBudget;
    expect(expectTypename(removed, 'ForbiddenError')).toBeTruthy();
    // Setting the same scope again changes its amount.
    expect(expectTypename(await setBudget({ perUser: true, period: 'MONTH', amount: '30.5' }), 'Budget')).toMatchObject({ id: set.id, amount: { amount: '30.50' } });
  });
});

describeWithServices('a budget shared by two instances', () => {
  let pair: InstancePair;

  beforeAll(async () => {
    pair = await startInstancePair();
  });

  afterAll(async () => {
    await pair?.stop();
  });

  it('stops one user’s replies on both instances mid-stream, overspending by at most one reservation each', async () => {
    const { first, second } = pair;
    const owner = await setUpAgent(first, { project: 'Shared budget', tools: [] });
    const amount = 500n * DEMO_OUTPUT_PICOS;
    const { setBudget } = await requestData(first, documents.SetBudgetDocument, { projectId: owner.projectId, perUser: true, period: 'DAY', amount: formatPicos(amount) }, owner.token);
    expectTypename(setBudget, 'Budget');
    const [onFirst, onSecond] = await Promise.all(
      [first, second].map(async (server) => sendAndFollow(server, owner.token, await newThread(server, owner.token, owner.agentId), '/tokens 900 over 9')),
    );
    for (const events of [onFirst!, onSecond!]) {
      expect(finishedStatus(events)).toBe('REFUSED');
      expect(errorOf(events)).toMatchObject({ reason: 'QUOTA_EXCEEDED', messageKey: 'refusal.spend.day.user' });
    }
    const [fromFirst, fromSecond] = [await recordedChunks(first, onFirst!), await recordedChunks(second, onSecond!)];
    const streamed = fromFirst + fromSecond;
    expect(fromFirst).toBeGreaterThan(0);
    expect(fromSecond).toBeGreaterThan(0);
    const reservation = RESERVED_OUTPUT_TOKENS * DEMO_OUTPUT_PICOS;
    expect(BigInt(streamed) * DEMO_OUTPUT_PICOS).toBeLessThanOrEqual(amount + 2n * reservation);
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const { usage } = await requestData(second, documents.ProjectUsageDocument, { projectId: owner.projectId, from, to, groupBy: [] }, owner.token);
    const spent = picosOfAmount(usage[0]!.usage.cost!.amount);
    expect(spent).toBeGreaterThanOrEqual(amount);
    expect(spent).toBeLessThanOrEqual(amount + 2n * reservation);
  });
});
