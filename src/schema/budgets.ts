import type { BudgetView } from '../usage/budgets.ts';
import { picosOfAmount } from '../usage/money.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId, encodeOptionalId } from './ids.ts';
import { runEventType } from './run-events.ts';
import { money, MoneyRef } from './usage.ts';

// Budgets in money (src/usage/budgets.ts): a project's caps on spend per UTC day or month, set by
// its admins and checked before and during every model call of its runs.

const BudgetPeriodEnum = builder.enumType('BudgetPeriod', {
  values: { DAY: { description: 'A UTC day.' }, MONTH: { description: 'A UTC calendar month.' } } as const,
});

const BudgetRef = builder.objectRef<BudgetView>('Budget').implement({
  description: 'A cap on a project’s spend per period: of one agent or of all, shared by everyone or for each user apart.',
  fields: (t) => ({
    id: t.id({ resolve: (budget) => encodeId('Budget', budget.id) }),
    agentId: t.id({ nullable: true, description: 'Null: every agent of the project.', resolve: (budget) => encodeOptionalId('Agent', budget.agentId) }),
    agent: t.prismaField({
      type: 'Agent',
      nullable: true,
      resolve: (query, budget, _args, { loader }) => (budget.agentId ? loader.agent.findUnique({ ...query, where: { id: budget.agentId } }) : null),
    }),
    perUser: t.exposeBoolean('perUser', { description: 'Each user has the whole amount; otherwise everyone shares it.' }),
    period: t.field({ type: BudgetPeriodEnum, resolve: (budget) => budget.period }),
    amount: t.field({ type: MoneyRef, resolve: (budget, _args, context) => money(budget.amountPicos, context) }),
    spent: t.field({
      type: MoneyRef,
      description: 'Spent in the current period (and held by running replies): of a per-user budget, by the viewer; of a shared one, by everyone.',
      resolve: (budget, _args, context) => money(budget.spentPicos, context),
    }),
    warnAtPercent: t.exposeInt('warnAtPercent', { description: 'A BudgetWarning run event comes once per period when the spend reaches this share.' }),
    resetsAt: t.field({ type: 'DateTime', resolve: (budget) => budget.resetsAt }),
  }),
});

builder.prismaObjectField('Project', 'budgets', (t) =>
  t.field({
    type: [BudgetRef],
    description: 'The project’s budgets in money, each with what is spent of it now.',
    resolve: (project, _args, { services, viewer }) => services.budgets.budgetsOf(viewer!, project.id),
  }),
);

builder.mutationField('setBudget', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: BudgetRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description:
      'Project admins: caps the spend of the project (or of one agent) per UTC day or month, for everyone together or for each user (`perUser`). ' +
      'Setting it again for the same agent, sharing and period changes its amount. It binds every run from its next model call on.',
    args: {
      projectId: t.arg.id({ required: true }),
      agentId: t.arg.id(),
      perUser: t.arg.boolean({ required: true }),
      period: t.arg({ type: BudgetPeriodEnum, required: true }),
      amount: t.arg.string({ required: true, description: 'A decimal string in the deployment’s currency, more than 0: "25.00".' }),
      warnAtPercent: t.arg.int({ description: 'Default 80.' }),
    },
    resolve: (_root, args, { services, viewer }) =>
      services.budgets.setBudget(viewer, {
        projectId: decodeIdArg(args, 'projectId', 'Project'),
        agentId: args.agentId == null ? null : decodeIdArg(args as { agentId: string }, 'agentId', 'Agent'),
        perUser: args.perUser,
        period: args.period,
        amount: args.amount,
        warnAtPercent: args.warnAtPercent,
      }),
  }),
);

const BudgetRemovedRef = builder.objectRef<{ budgetId: string }>('BudgetRemoved').implement({
  fields: (t) => ({ budgetId: t.id({ resolve: (removed) => encodeId('Budget', removed.budgetId) }) }),
});

builder.mutationField('removeBudget', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: BudgetRemovedRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Project admins: removes a budget; runs are no longer checked against it from their next model call on.',
    args: { budgetId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => ({
      budgetId: await services.budgets.removeBudget(viewer, decodeIdArg(args, 'budgetId', 'Budget')),
    }),
  }),
);

runEventType('BudgetWarning', 'A budget’s spend reached its warning share (once per budget and period; per user for a per-user budget).', (t) => ({
  budgetId: t.id({ resolve: (event) => encodeId('Budget', event.payload.budgetId) }),
  period: t.field({ type: BudgetPeriodEnum, resolve: (event) => event.payload.period }),
  perUser: t.boolean({ resolve: (event) => event.payload.perUser }),
  agentId: t.id({ nullable: true, resolve: (event) => encodeOptionalId('Agent', event.payload.agentId) }),
  spent: t.field({ type: MoneyRef, resolve: (event, _args, context) => money(picosOfAmount(event.payload.spent), context) }),
  amount: t.field({ type: MoneyRef, resolve: (event, _args, context) => money(picosOfAmount(event.payload.amount), context) }),
  warnAtPercent: t.int({ resolve: (event) => event.payload.warnAtPercent }),
}));
