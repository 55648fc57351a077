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
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const agent = await services.directory.updateAgent(viewer, decodeIdArg(args, 'agentId', 'Agent'), {
        name: args.name ?? undefined,
        model: args.model ?? undefined,
        systemPrompt: args.systemPrompt,
        tools: args.tools,
        toolApprovals: args.toolApprovals,
        limits: args.limits,
      });
      return loader.agent.findUniqueOrThrow({ ...query, where: { id: agent.id } });
    },
  }),
);
