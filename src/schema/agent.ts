import { visibleThreadsWhere } from '../auth/access.ts';
import { requireViewer } from './context.ts';
import { builder } from './builder.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg } from './ids.ts';
import { ToolApprovalInput } from './tool-server.ts';

const AgentLimits = builder.objectRef<{ maxConcurrentExecutions: number | null; dailyTokenBudget: number | null }>(
  'AgentLimits',
);
AgentLimits.implement({
  fields: (t) => ({
    maxConcurrentExecutions: t.exposeInt('maxConcurrentExecutions', { nullable: true }),
    dailyTokenBudget: t.exposeInt('dailyTokenBudget', { nullable: true }),
  }),
});

const AgentLimitsInput = builder.inputType('AgentLimitsInput', {
  description: 'Run limits checked at admission; null = unlimited.',
  fields: (t) => ({
    maxConcurrentExecutions: t.int({ required: false }),
    dailyTokenBudget: t.int({ required: false, description: 'Tokens per user per UTC day.' }),
  }),
});

const AgentCompaction = builder
  .objectRef<{ compactAtPercent: number; compactKeptTurns: number; compactionModel: string | null }>('AgentCompaction')
  .implement({
    description: 'When a thread’s history is summarised before a model call, and what stays verbatim (docs/compaction.md).',
    fields: (t) => ({
      atPercent: t.exposeInt('compactAtPercent', { description: 'The share of the context window the next call’s history may reach.' }),
      keptTurns: t.exposeInt('compactKeptTurns', { description: 'The most recent turns, always sent verbatim.' }),
      model: t.exposeString('compactionModel', { nullable: true, description: 'The model that writes summaries; null: the agent’s own.' }),
    }),
  });

const AgentCompactionInput = builder.inputType('AgentCompactionInput', {
  fields: (t) => ({
    atPercent: t.int({ required: false, description: '1 to 100; default 80.' }),
    keptTurns: t.int({ required: false, description: '1 to 100; default 4.' }),
    model: t.string({ required: false, description: '`provider:model`; null: the agent’s own.' }),
  }),
});

const CONTEXT_WINDOW_ARG =
  'The model’s context window in tokens; null: the model dataset’s, when it knows the model (the demo model’s: none).';

builder.prismaNode('Agent', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    name: t.exposeString('name'),
    model: t.exposeString('model', { description: '`provider:model`, e.g. `demo:default` or `openai:gpt-4.1-mini`.' }),
    systemPrompt: t.exposeString('systemPrompt'),
    tools: t.exposeStringList('tools'),
    limits: t.field({
      type: AgentLimits,
      resolve: (agent) => ({
        maxConcurrentExecutions: agent.maxConcurrentExecutions,
        dailyTokenBudget: agent.dailyTokenBudget,
      }),
    }),
    contextWindowTokens: t.int({
      nullable: true,
      description: 'The context window the agent’s threads are measured against: its own setting, else the model dataset’s; null when neither knows it.',
      resolve: (agent, _args, { services }) => services.compaction.contextWindowOf(agent),
    }),
    compaction: t.field({ type: AgentCompaction, resolve: (agent) => agent }),
    project: t.relation('project'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    threads: t.relatedConnection('threads', {
      description: 'The threads you can see, the last active first (Thread.lastActivityAt).',
      cursor: 'id',
      query: (_args, context) => ({
        where: visibleThreadsWhere(requireViewer(context).id),
        orderBy: [{ lastActivityAt: 'desc' }, { id: 'desc' }],
      }),
    }),
  }),
});

builder.queryField('agent', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Agent',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const agent = await services.access.agent(viewer, decodeIdArg(args, 'id', 'Agent'), 'agent:read');
      return loader.agent.findUniqueOrThrow({ ...query, where: { id: agent.id } });
    },
  }),
);

builder.mutationField('createAgent', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Agent',
    errors: { types: COMMON_MUTATION_ERRORS },
    args: {
      projectId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      model: t.arg.string({ required: true }),
      systemPrompt: t.arg.string(),
      tools: t.arg.stringList({ description: 'Built-in tools, and `<server>/<tool>` or `<server>/*` of the project’s tool servers.' }),
      toolApprovals: t.arg({ type: [ToolApprovalInput] }),
      limits: t.arg({ type: AgentLimitsInput }),
      contextWindowTokens: t.arg.int({ description: CONTEXT_WINDOW_ARG }),
      compaction: t.arg({ type: AgentCompactionInput }),
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const agent = await services.directory.createAgent(viewer, decodeIdArg(args, 'projectId', 'Project'), args);
      return loader.agent.findUniqueOrThrow({ ...query, where: { id: agent.id } });
    },
  }),
);

builder.mutationField('updateAgent', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'Agent',
    errors: { types: COMMON_MUTATION_ERRORS },
    args: {
      agentId: t.arg.id({ required: true }),
      name: t.arg.string(),
      model: t.arg.string(),
      systemPrompt: t.arg.string(),
      tools: t.arg.stringList({ description: 'Built-in tools, and `<server>/<tool>` or `<server>/*` of the project’s tool servers.' }),
      toolApprovals: t.arg({ type: [ToolApprovalInput] }),
      limits: t.arg({ type: AgentLimitsInput }),
      contextWindowTokens: t.arg.int({ description: CONTEXT_WINDOW_ARG }),
      compaction: t.arg({ type: AgentCompactionInput }),
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const agent = await services.directory.updateAgent(viewer, decodeIdArg(args, 'agentId', 'Agent'), {
        name: args.name ?? undefined,
        model: args.model ?? undefined,
        systemPrompt: args.systemPrompt,
        tools: args.tools,
        toolApprovals: args.toolApprovals,
        limits: args.limits,
        contextWindowTokens: args.contextWindowTokens,
        compaction: args.compaction,
      });
      return loader.agent.findUniqueOrThrow({ ...query, where: { id: agent.id } });
    },
  }),
);
