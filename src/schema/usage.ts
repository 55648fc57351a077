import type { ModelPriceRow } from '../usage/model-price.ts';
import { formatPerMillion, formatPicos } from '../usage/money.ts';
import type { RunUsageSums, UsageSums } from '../usage/usage-reads.ts';
import type { UsageRow } from '../usage/usage-service.ts';
import { builder } from './builder.ts';
import type { GraphQLContext } from './context.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeOptionalId } from './ids.ts';
import { ExecutionFinishedRef } from './run-events.ts';

// Usage and cost (src/usage/): the prices operators set, and what recorded model calls say of a
// run, a thread and a project. Amounts are exact decimal strings in the deployment's currency.

interface MoneyValue {
  amount: string;
  currency: string;
}

export const MoneyRef = builder.objectRef<MoneyValue>('Money').implement({
  description: 'An exact amount (a decimal string, never a float) in the deployment’s currency (PARLEY_CURRENCY).',
  fields: (t) => ({
    amount: t.exposeString('amount', { description: 'A decimal string such as "0.0042" (down to 10⁻¹² of the currency).' }),
    currency: t.exposeString('currency', { description: 'ISO 4217, e.g. USD.' }),
  }),
});

export const money = (picos: bigint, context: GraphQLContext): MoneyValue => ({ amount: formatPicos(picos), currency: context.services.currency });

const UsageRef = builder.objectRef<UsageSums>('Usage').implement({
  description: 'Tokens by kind and cost, summed over model calls. inputTokens and outputTokens are totals; cached input, cache writes and reasoning are among them.',
  fields: (t) => ({
    inputTokens: t.exposeInt('inputTokens'),
    cachedInputTokens: t.exposeInt('cachedInputTokens', { description: 'Input read from the provider’s prompt cache.' }),
    cacheWriteTokens: t.exposeInt('cacheWriteTokens', { description: 'Input written to the provider’s prompt cache.' }),
    outputTokens: t.exposeInt('outputTokens'),
    reasoningTokens: t.exposeInt('reasoningTokens'),
    modelCalls: t.exposeInt('modelCalls'),
    unpricedCalls: t.exposeInt('unpricedCalls', { description: 'Calls of models without a price: their cost is unknown.' }),
    cost: t.field({
      type: MoneyRef,
      nullable: true,
      description: 'What the calls cost; null when any of them had no price (see pricedCost), never a made-up zero.',
      resolve: (sums, _args, context) => (sums.unpricedCalls > 0 ? null : money(sums.pricedPicos, context)),
    }),
    pricedCost: t.field({
      type: MoneyRef,
      description: 'What the priced calls cost.',
      resolve: (sums, _args, context) => money(sums.pricedPicos, context),
    }),
  }),
});

const RunUsageRef = builder.objectRef<RunUsageSums>('RunUsage').implement({
  description: 'A run’s usage: its own model calls, its delegated children’s, and both.',
  fields: (t) => ({
    own: t.field({ type: UsageRef, resolve: (usage) => usage.own }),
    delegated: t.field({ type: UsageRef, resolve: (usage) => usage.delegated }),
    total: t.field({ type: UsageRef, resolve: (usage) => usage.total }),
  }),
});

builder.prismaObjectField('Execution', 'usage', (t) =>
  t.field({ type: RunUsageRef, resolve: (execution, _args, { services }) => services.usageReads.ofExecution(execution.id) }),
);

builder.prismaObjectField('Thread', 'usage', (t) =>
  t.field({ type: UsageRef, description: 'Every model call of the thread’s runs.', resolve: (thread, _args, { services }) => services.usageReads.ofThread(thread.id) }),
);

builder.objectField(ExecutionFinishedRef, 'usage', (t) =>
  t.field({
    type: RunUsageRef,
    description: 'The run’s usage as recorded with its end (read when selected).',
    resolve: (event, _args, { services }) => services.usageReads.ofExecution(event.executionId!),
  }),
);

const ModelPriceRef = builder.objectRef<ModelPriceRow & { currency: string }>('ModelPrice').implement({
  description:
    'A model’s price per million tokens of each kind, as decimal strings. A kind without a price is charged as input (cached input, cache writes) or as output (reasoning).',
  fields: (t) => {
    const perMillion = (pick: (price: ModelPriceRow) => bigint | null, nullable: boolean) =>
      t.string({ nullable, resolve: (price) => (pick(price) === null ? null : formatPerMillion(pick(price)!)) as string });
    return {
      model: t.exposeString('modelId'),
      currency: t.exposeString('currency'),
      inputPerMillion: perMillion((price) => price.inputPerMillion, false),
      outputPerMillion: perMillion((price) => price.outputPerMillion, false),
      cachedInputPerMillion: perMillion((price) => price.cachedInputPerMillion, true),
      cacheWritePerMillion: perMillion((price) => price.cacheWritePerMillion, true),
      reasoningPerMillion: perMillion((price) => price.reasoningPerMillion, true),
      source: t.exposeString('source', { description: '"operator" (setModelPrice), "demo", or the price dataset and its version.' }),
    };
  },
});

builder.queryField('modelPrices', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [ModelPriceRef],
    description: 'The prices operators set, and for each model named in `models` without one, its default price when Parley knows one.',
    args: { models: t.arg.stringList() },
    resolve: async (_root, args, { services }) =>
      (await services.prices.modelPrices(args.models ?? [])).map((price) => ({ ...price, currency: services.currency })),
  }),
);

builder.mutationField('setModelPrice', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ModelPriceRef,
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Admin: sets the price of a model (`provider:model`) per million tokens, amounts as decimal strings; it applies to every model call from now on, on every instance.',
    args: {
      model: t.arg.string({ required: true }),
      inputPerMillion: t.arg.string({ required: true }),
      outputPerMillion: t.arg.string({ required: true }),
      cachedInputPerMillion: t.arg.string(),
      cacheWritePerMillion: t.arg.string(),
      reasoningPerMillion: t.arg.string(),
    },
    resolve: async (_root, args, context) => ({
      ...(await context.services.prices.setModelPrice({ admin: context.admin }, args)),
      currency: context.services.currency,
    }),
  }),
);

const UsageGroupingEnum = builder.enumType('UsageGrouping', { values: ['DAY', 'MONTH', 'MODEL', 'USER', 'AGENT'] as const });

const UsageRowRef = builder.objectRef<UsageRow>('UsageRow').implement({
  description: 'A project’s usage for one value of each grouping asked for (days and months in UTC); the keys not grouped by are null.',
  fields: (t) => ({
    day: t.exposeString('day', { nullable: true, description: 'YYYY-MM-DD' }),
    month: t.exposeString('month', { nullable: true, description: 'YYYY-MM' }),
    model: t.exposeString('modelId', { nullable: true }),
    userId: t.id({ nullable: true, resolve: (row) => encodeOptionalId('User', row.userId) }),
    agentId: t.id({ nullable: true, resolve: (row) => encodeOptionalId('Agent', row.agentId) }),
    user: t.prismaField({
      type: 'User',
      nullable: true,
      resolve: (query, row, _args, { loader }) => (row.userId ? loader.user.findUnique({ ...query, where: { id: row.userId } }) : null),
    }),
    agent: t.prismaField({
      type: 'Agent',
      nullable: true,
      description: 'Null when grouped otherwise, or when the agent was deleted since (agentId stays).',
      resolve: (query, row, _args, { loader }) => (row.agentId ? loader.agent.findUnique({ ...query, where: { id: row.agentId } }) : null),
    }),
    usage: t.field({ type: UsageRef, resolve: (row) => row.usage }),
  }),
});

builder.queryField('usage', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [UsageRowRef],
    description:
      'A project’s model calls from `from` (inclusive) to `to` (exclusive, at most 366 days later), grouped as asked (no grouping: one row, or none without calls). Its admins read everyone’s; any other member their own.',
    args: {
      projectId: t.arg.id({ required: true }),
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
      groupBy: t.arg({ type: [UsageGroupingEnum] }),
    },
    resolve: (_root, args, { services, viewer }) =>
      services.usage.projectUsage(viewer, decodeIdArg(args, 'projectId', 'Project'), args.from, args.to, args.groupBy ?? []),
  }),
);
