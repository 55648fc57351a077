import type { ToolServer } from '../generated/prisma/client.ts';
import { TOOL_APPROVALS, type ToolApprovalRule } from '../tools/approvals.ts';
import { qualifiedToolName, TOOL_SERVER_STATUSES, type ToolInfo } from '../tools/tool-catalog.ts';
import { builder } from './builder.ts';
import { ConflictError } from '../domain/errors.ts';
import { COMMON_MUTATION_ERRORS } from './errors.ts';
import { decodeIdArg, encodeId } from './ids.ts';

const ToolServerStatus = builder.enumType('ToolServerStatus', {
  values: TOOL_SERVER_STATUSES,
  description: 'As this server’s instances last saw it: CONNECTED (tools listed), UNAVAILABLE, UNAUTHORIZED (HTTP 401/403).',
});
const ToolServerTransport = builder.enumType('ToolServerTransport', {
  values: ['HTTP', 'STDIO'] as const,
  description: 'HTTP: MCP over streamable HTTP (or HTTP+SSE), added by a project’s admins; STDIO: a command the operator declares in PARLEY_TOOL_SERVERS_FILE.',
});
export const ToolApprovalEnum = builder.enumType('ToolApproval', {
  values: TOOL_APPROVALS,
  description: 'ALWAYS: each call waits for the user’s approval (the default); NEVER: calls run at once.',
});

const ToolAnnotations = builder.objectRef<ToolInfo['annotations']>('ToolAnnotations').implement({
  description: 'The MCP annotations the server gives its tool (hints, not guarantees).',
  fields: (t) => ({
    title: t.string({ nullable: true, resolve: (annotations) => annotations.title ?? null }),
    readOnlyHint: t.boolean({ nullable: true, resolve: (annotations) => annotations.readOnlyHint ?? null }),
    destructiveHint: t.boolean({ nullable: true, resolve: (annotations) => annotations.destructiveHint ?? null }),
    idempotentHint: t.boolean({ nullable: true, resolve: (annotations) => annotations.idempotentHint ?? null }),
    openWorldHint: t.boolean({ nullable: true, resolve: (annotations) => annotations.openWorldHint ?? null }),
  }),
});

const ServerTool = builder.objectRef<ToolInfo & { server: string }>('ServerTool').implement({
  fields: (t) => ({
    name: t.string({ description: '`<server>/<tool>`, as agents name it.', resolve: (tool) => qualifiedToolName(tool.server, tool.name) }),
    description: t.exposeString('description'),
    inputSchema: t.field({ type: 'JSON', resolve: (tool) => tool.inputSchema }),
    annotations: t.field({ type: ToolAnnotations, resolve: (tool) => tool.annotations }),
  }),
});

builder.prismaNode('ToolServer', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  description: 'An MCP server whose tools the project’s agents may use. Header values are write-only.',
  select: { id: true, name: true, url: true, transport: true, status: true, lastError: true, headerNames: true, tools: true, timeoutMs: true, reconnects: true, lastReconnectAt: true },
  fields: (t) => ({
    name: t.exposeString('name'),
    url: t.exposeString('url', { description: 'HTTP: the MCP endpoint; STDIO: `stdio:<command>` (never its arguments or environment).' }),
    transport: t.field({ type: ToolServerTransport, resolve: (server) => (server.transport === 'STDIO' ? 'STDIO' : 'HTTP') }),
    operatorDeclared: t.boolean({
      description: 'Declared by the operator (PARLEY_TOOL_SERVERS_FILE): refreshed through the API, never changed or removed through it.',
      resolve: (server) => server.transport === 'STDIO',
    }),
    status: t.field({ type: ToolServerStatus, resolve: (server) => server.status as (typeof TOOL_SERVER_STATUSES)[number] }),
    lastError: t.exposeString('lastError', { nullable: true }),
    reconnects: t.exposeInt('reconnects', {
      description:
        'Times the server lost Parley’s session (it restarted) and a new one was opened to retry a call the server had refused unrun, on any instance.',
    }),
    lastReconnectAt: t.expose('lastReconnectAt', { type: 'DateTime', nullable: true, description: 'When the last of `reconnects` happened.' }),
    headerNames: t.exposeStringList('headerNames', { description: 'The names of the headers sent; their values are never shown.' }),
    timeoutMs: t.exposeInt('timeoutMs', { nullable: true, description: 'null: PARLEY_TOOL_TIMEOUT_MS.' }),
    tools: t.field({
      type: [ServerTool],
      description: 'As last listed by the server.',
      resolve: (server) => (server.tools as unknown as ToolInfo[]).map((tool) => ({ ...tool, server: server.name })),
    }),
  }),
});

builder.prismaObjectField('Project', 'toolServers', (t) =>
  t.prismaField({
    type: ['ToolServer'],
    description: 'The project’s own servers and the operator’s declared ones it may use.',
    resolve: async (query, project, _args, { loader, services }) =>
      loader.toolServer.findMany({ ...query, where: { id: { in: await services.toolServers.visibleIds(project.id) } }, orderBy: { name: 'asc' } }),
  }),
);

const ToolApprovalRef = builder.objectRef<ToolApprovalRule>('ToolApprovalRule').implement({
  fields: (t) => ({
    tool: t.exposeString('tool', { description: '`<server>/<tool>` or `<server>/*`.' }),
    approval: t.field({ type: ToolApprovalEnum, resolve: (rule) => rule.approval }),
  }),
});

export const ToolApprovalInput = builder.inputType('ToolApprovalInput', {
  fields: (t) => ({
    tool: t.string({ required: true, description: '`<server>/<tool>` or `<server>/*`.' }),
    approval: t.field({ type: ToolApprovalEnum, required: true }),
  }),
});

builder.prismaObjectField('Agent', 'toolApprovals', (t) =>
  t.field({
    type: [ToolApprovalRef],
    select: { toolApprovals: true },
    description: 'Approval policies of tool-server tools; a tool without one asks each time (ALWAYS).',
    resolve: (agent) => (Array.isArray(agent.toolApprovals) ? (agent.toolApprovals as unknown as ToolApprovalRule[]) : []),
  }),
);

const HeaderInput = builder.inputType('ToolServerHeaderInput', {
  description: 'A header sent with every request to the server (e.g. Authorization); its value is stored encrypted.',
  fields: (t) => ({
    name: t.string({ required: true }),
    value: t.string({ required: true }),
  }),
});

const ToolServerRemoved = builder.objectRef<{ toolServerId: string }>('ToolServerRemoved').implement({
  fields: (t) => ({ toolServerId: t.id({ resolve: (result) => encodeId('ToolServer', result.toolServerId) }) }),
});

const reload = (loader: { toolServer: { findUniqueOrThrow: (args: never) => Promise<ToolServer> } }, query: object, id: string) =>
  loader.toolServer.findUniqueOrThrow({ ...query, where: { id } } as never);

builder.mutationField('addToolServer', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'ToolServer',
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description: 'Adds an MCP server (streamable HTTP, or HTTP+SSE) to the project and connects to it. Needs agent:manage.',
    args: {
      projectId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      url: t.arg.string({ required: true }),
      headers: t.arg({ type: [HeaderInput] }),
      timeoutMs: t.arg.int(),
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const server = await services.toolServers.add(viewer, decodeIdArg(args, 'projectId', 'Project'), {
        name: args.name,
        url: args.url,
        headers: args.headers,
        timeoutMs: args.timeoutMs,
      });
      return reload(loader, query, server.id);
    },
  }),
);

builder.mutationField('updateToolServer', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'ToolServer',
    errors: { types: [...COMMON_MUTATION_ERRORS, ConflictError] },
    description:
      'Changes a tool server and reconnects; `headers`, when given, replace all of them. Needs agent:manage. An operator-declared server is a ForbiddenError (it is changed in PARLEY_TOOL_SERVERS_FILE).',
    args: {
      toolServerId: t.arg.id({ required: true }),
      name: t.arg.string(),
      url: t.arg.string(),
      headers: t.arg({ type: [HeaderInput] }),
      timeoutMs: t.arg.int(),
    },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const server = await services.toolServers.update(viewer, decodeIdArg(args, 'toolServerId', 'ToolServer'), {
        name: args.name ?? undefined,
        url: args.url ?? undefined,
        headers: args.headers,
        timeoutMs: args.timeoutMs,
      });
      return reload(loader, query, server.id);
    },
  }),
);

builder.mutationField('removeToolServer', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ToolServerRemoved,
    errors: { types: COMMON_MUTATION_ERRORS },
    description:
      'Removes a tool server; agents naming its tools no longer get them. Needs agent:manage. An operator-declared server is a ForbiddenError (it is removed from PARLEY_TOOL_SERVERS_FILE).',
    args: { toolServerId: t.arg.id({ required: true }) },
    resolve: async (_root, args, { services, viewer }) => {
      const removed = await services.toolServers.remove(viewer, decodeIdArg(args, 'toolServerId', 'ToolServer'));
      return { toolServerId: removed.id };
    },
  }),
);

builder.mutationField('refreshToolServer', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'ToolServer',
    errors: { types: COMMON_MUTATION_ERRORS },
    description: 'Reconnects now and lists the server’s tools again. Needs agent:manage.',
    args: { toolServerId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, { services, loader, viewer }) => {
      const server = await services.toolServers.refresh(viewer, decodeIdArg(args, 'toolServerId', 'ToolServer'));
      return reload(loader, query, server.id);
    },
  }),
);
