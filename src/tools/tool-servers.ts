import { trace } from '@opentelemetry/api';
import { jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { Agent, Prisma, PrismaClient, ToolServer, User } from '../generated/prisma/client.ts';
import type { QueueLimits } from '../queue/message-input.ts';
import { modelToolName, type ToolLabel, type ToolOutcome } from '../runtime/tools.ts';
import { approvalOf, parseApprovals } from './approvals.ts';
import { ToolServerConnection, ToolServerFailure, type ConnectionState, type ServerEndpoint } from './connections.ts';
import { declaredServerId, readDeclaredServers, stdioUrl, type DeclaredServer } from './declared-servers.ts';
import type { SecretBox } from './secrets.ts';
import { allowedHostsFrom, type ToolSettings } from './settings.ts';
import { qualifiedToolName, safeToRepeat, SERVER_NAME, splitToolName, type ToolInfo } from './tool-catalog.ts';
import { declaredFor, projectServers, unknownToolNames } from './tool-names.ts';
import { filesOf, ToolFiles, type ToolFileOwner } from './tool-files.ts';
import { boundedOutput } from './tool-output.ts';
import { RefusedUrl, UrlGuard } from './url-guard.ts';

export interface HeaderInput {
  name: string;
  value: string;
}

export interface ToolServerInput {
  name?: string;
  url?: string;
  headers?: HeaderInput[] | null;
  timeoutMs?: number | null;
}

const MAX_HEADERS = 20;
const MAX_HEADER_VALUE_CHARS = 4_096;
const MAX_TIMEOUT_MS = 600_000;
const MAX_URL_CHARS = 2_000;
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/** Transport bounds: a result beyond this is refused outright; within it, text is cut to PARLEY_TOOL_OUTPUT_MAX_BYTES. */
const MAX_REQUEST_BYTES = 1_048_576;
const MAX_RESPONSE_BYTES = 8 * 1_048_576;

/** The tools a run may use from tool servers, as the AI SDK takes them, with what people see of each. */
export interface RunTools {
  tools: ToolSet;
  labels: Map<string, ToolLabel>;
}

/** Told of each finished call (metrics); never of its input or output. */
export type ToolCallObserver = (call: { server: string; tool: string; outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELLED'; durationMs: number }) => void;

/**
 * A project's MCP tool servers: managed by its admins, connected once per instance (one client
 * per server, shared by every run), and offered to agents as tools.
 */
export class ToolServers {
  private readonly connections = new Map<string, ToolServerConnection>();
  /** Each server's status as this instance last saw it (the servers-by-status gauge). */
  private readonly statuses = new Map<string, string>();
  /** The stdio servers this instance's PARLEY_TOOL_SERVERS_FILE declares, by name (read at start). */
  private declared: Map<string, DeclaredServer> | null = null;
  readonly guard: UrlGuard;
  private readonly files: ToolFiles;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
    private readonly settings: ToolSettings,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    fileLimits: QueueLimits,
    private readonly observeCall: ToolCallObserver = () => {},
  ) {
    this.files = new ToolFiles(prisma, fileLimits, logger);
    this.guard = new UrlGuard({
      allowedHosts: allowedHostsFrom(settings),
      maxRequestBytes: MAX_REQUEST_BYTES,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
  }

  /** `user` null: the operator (the CLI), who may manage every project's servers. */
  async list(user: User | null, projectId: string): Promise<ToolServer[]> {
    await this.allowed(user, projectId, 'agent:read');
    return projectServers(this.prisma, projectId);
  }

  /** The ids of the servers `Project.toolServers` shows (the caller has checked the project is visible). */
  async visibleIds(projectId: string): Promise<string[]> {
    return (await projectServers(this.prisma, projectId)).map((row) => row.id);
  }

  async add(user: User | null, projectId: string, input: ToolServerInput): Promise<ToolServer> {
    await this.allowed(user, projectId, 'agent:manage');
    const data = await this.validated(input, true);
    if (await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId, name: data.name! } } })) {
      throw new ConflictError(`This project already has a tool server named ${data.name}.`);
    }
    await this.refuseDeclaredName(projectId, data.name!);
    const row = await this.prisma.toolServer
      .create({ data: { projectId, name: data.name!, url: data.url!, ...data.rest } })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === 'P2002') throw new ConflictError(`This project already has a tool server named ${data.name}.`);
        throw error;
      });
    return this.connect(row);
  }

  async update(user: User | null, toolServerId: string, input: ToolServerInput): Promise<ToolServer> {
    const existing = await this.managed(user, toolServerId, 'change');
    const projectId = existing.projectId!;
    const data = await this.validated(input, false);
    if (data.name && data.name !== existing.name) {
      const clash = await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId, name: data.name } } });
      if (clash) throw new ConflictError(`This project already has a tool server named ${data.name}.`);
      await this.refuseDeclaredName(projectId, data.name);
    }
    const row = await this.prisma.toolServer.update({
      where: { id: existing.id },
      data: { ...(data.name ? { name: data.name } : {}), ...(data.url ? { url: data.url } : {}), ...data.rest },
    });
    return this.connect(row);
  }

  async remove(user: User | null, toolServerId: string): Promise<ToolServer> {
    const existing = await this.managed(user, toolServerId, 'change');
    await this.prisma.toolServer.delete({ where: { id: existing.id } });
    await this.connections.get(existing.id)?.close();
    this.connections.delete(existing.id);
    this.statuses.delete(existing.id);
    return existing;
  }

  async refresh(user: User | null, toolServerId: string): Promise<ToolServer> {
    return this.connect(await this.managed(user, toolServerId, 'refresh'));
  }

  /** Names among `names` that are neither built in nor a tool (or `*`) of one of the project's servers. */
  unknownToolNames(projectId: string, names: readonly string[]): Promise<string[]> {
    return unknownToolNames(this.prisma, projectId, names);
  }

  /**
   * The agent's tool-server tools for a run in `threadId`: each asks for approval unless the
   * agent's policy says NEVER or the thread's user allowed it in this thread. The files their
   * results carry are kept for `owner` (as attachments of the run's reply).
   */
  async toolsForRun(agent: Agent, threadId: string, owner?: ToolFileOwner): Promise<RunTools> {
    const run: RunTools = { tools: {}, labels: new Map() };
    const wanted = agent.tools.map(splitToolName).filter((entry) => entry !== null);
    if (wanted.length === 0) return run;
    const [servers, allowances] = await Promise.all([
      projectServers(this.prisma, agent.projectId, { name: { in: [...new Set(wanted.map((entry) => entry.server))] } }),
      this.prisma.threadToolAllowance.findMany({ where: { threadId }, select: { tool: true } }),
    ]);
    const allowed = new Set(allowances.map((entry) => entry.tool));
    const approvals = parseApprovals(agent.toolApprovals);
    for (const server of servers) {
      const names = new Set(wanted.filter((entry) => entry.server === server.name).map((entry) => entry.tool));
      for (const info of server.tools as unknown as ToolInfo[]) {
        if (!names.has('*') && !names.has(info.name)) continue;
        const qualified = qualifiedToolName(server.name, info.name);
        const modelName = modelToolName(qualified);
        const needsApproval = approvalOf(approvals, qualified) !== 'NEVER' && !allowed.has(qualified);
        run.labels.set(modelName, {
          name: qualified,
          safeToRepeat: safeToRepeat(info),
          card: { server: server.name, tool: info.name, description: info.description },
        });
        run.tools[modelName] = tool({
          description: info.description || `${info.name} of the tool server ${server.name}.`,
          inputSchema: jsonSchema<Record<string, unknown>>(info.inputSchema as never),
          // A call asked about before keeps needing its approval, so the one given is honoured (the
          // SDK treats an approval of a call that no longer needs one as a denial).
          needsApproval: (_input, { toolCallId, messages }) => needsApproval || askedBefore(messages, toolCallId),
          execute: (input, { abortSignal }) => this.call(server, info.name, input ?? {}, abortSignal, owner),
          toModelOutput: ({ output }) =>
            output.ok ? { type: 'text', value: output.text } : { type: 'error-text', value: output.error ?? 'the tool failed.' },
        });
      }
    }
    return run;
  }

  /**
   * Reads PARLEY_TOOL_SERVERS_FILE (a bad file throws, naming it and the problem) and makes the
   * rows match it: each declared server upserted, a declared one no longer in the file removed.
   */
  async syncDeclared(): Promise<void> {
    const declared = [...this.readFile().values()];
    for (const server of declared) {
      const fields = { name: server.name, url: stdioUrl(server), transport: 'STDIO', projects: server.projects, timeoutMs: server.timeoutMs };
      await this.prisma.toolServer.upsert({
        where: { id: declaredServerId(server.name) },
        create: { id: declaredServerId(server.name), projectId: null, ...fields },
        update: fields,
      });
    }
    const gone = { transport: 'STDIO', id: { notIn: declared.map((server) => declaredServerId(server.name)) } };
    const removed = await this.prisma.toolServer.findMany({ where: gone, select: { id: true } });
    await this.prisma.toolServer.deleteMany({ where: gone });
    for (const { id } of removed) {
      await this.connections.get(id)?.close();
      this.connections.delete(id);
      this.statuses.delete(id);
    }
    for (const server of declared) await this.warnOfUnknownProjects(server);
  }

  private readFile(): Map<string, DeclaredServer> {
    const file = this.settings.PARLEY_TOOL_SERVERS_FILE;
    this.declared = new Map((file ? readDeclaredServers(file) : []).map((server) => [server.name, server]));
    return this.declared;
  }

  /** A name or id matching no project is not an error (the project may come later), but the operator should hear of it. */
  private async warnOfUnknownProjects(server: DeclaredServer): Promise<void> {
    const refs = server.projects.filter((entry) => entry !== '*');
    if (refs.length === 0) return;
    const found = await this.prisma.project.findMany({ where: { OR: [{ id: { in: refs } }, { name: { in: refs } }] }, select: { id: true, name: true } });
    const unknown = refs.filter((ref) => !found.some((project) => project.id === ref || project.name === ref));
    if (unknown.length > 0) {
      this.logger.warn({ toolServer: server.name, projects: unknown }, 'a declared tool server names projects that do not exist (yet)');
    }
  }

  /** Connects every server at start (in the background) so their state is fresh on this instance. */
  async connectAll(): Promise<void> {
    const rows = await this.prisma.toolServer.findMany();
    for (const row of rows) void this.connect(row).catch((error) => this.logger.warn({ err: error, toolServer: row.name }, 'connecting a tool server failed'));
  }

  /** Each server as a fresh connection finds it now, recording nothing (`parley doctor`). */
  async probeAll(): Promise<{ name: string; projectId: string | null; transport: string; state: ConnectionState }[]> {
    // The file as it is now (a bad one throws), not as the rows last recorded it.
    const declared = this.readFile();
    const http = await this.prisma.toolServer.findMany({ where: { transport: 'HTTP' }, orderBy: [{ projectId: 'asc' }, { name: 'asc' }] });
    const stdio = [...declared.values()].sort((a, b) => a.name.localeCompare(b.name)).map(
      (server) => ({ id: declaredServerId(server.name), name: server.name, projectId: null, transport: 'STDIO' }) as ToolServer,
    );
    return Promise.all(
      [...stdio, ...http].map(async (row) => {
        const connection = new ToolServerConnection(this.endpointOf(row), this.guard, () => {}, this.logger);
        try {
          return { name: row.name, projectId: row.projectId, transport: row.transport, state: await connection.refresh() };
        } finally {
          await connection.close();
        }
      }),
    );
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  private async call(
    server: ToolServer,
    toolName: string,
    input: Record<string, unknown>,
    signal: AbortSignal | undefined,
    owner: ToolFileOwner | undefined,
  ): Promise<ToolOutcome> {
    const startedAt = performance.now();
    // The AI SDK's span of this call (ai.toolCall) is the active one: it learns which server and
    // tool answered and how, never the input or the output.
    const span = trace.getActiveSpan();
    span?.setAttributes({ 'parley.tool.server': server.name, 'parley.tool.name': toolName });
    const done = (outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELLED') => {
      span?.setAttribute('parley.tool.outcome', outcome);
      this.observeCall({ server: server.name, tool: toolName, outcome, durationMs: performance.now() - startedAt });
    };
    const failed = (error: string): ToolOutcome => {
      done('FAILED');
      return { toolOutcome: true, ok: false, text: '', truncated: false, error, attachments: [] };
    };
    const timeoutMs = server.timeoutMs ?? this.settings.PARLEY_TOOL_TIMEOUT_MS;
    try {
      const result = await this.connection(server).call(toolName, input, { signal: signal ?? new AbortController().signal, timeoutMs });
      const maxBytes = this.settings.PARLEY_TOOL_OUTPUT_MAX_BYTES;
      if (result.isError) return failed(boundedOutput(result, maxBytes).text || 'the tool reported an error without a message.');
      const { kept, notes } = await this.files.keep(filesOf(result, toolName), owner);
      const output = boundedOutput(result, maxBytes, notes);
      done('SUCCEEDED');
      return { toolOutcome: true, ok: true, text: output.text, truncated: output.truncated, error: null, attachments: kept };
    } catch (error) {
      if (signal?.aborted) {
        done('CANCELLED');
        throw signal.reason ?? error;
      }
      if (error instanceof ToolServerFailure) return failed(`${server.name}: ${error.message}`);
      this.logger.warn({ err: error, toolServer: server.name, tool: toolName }, 'a tool call failed unexpectedly');
      return failed(`${server.name}: the call failed (${(error as Error)?.name ?? 'error'}).`);
    }
  }

  private connection(row: ToolServer): ToolServerConnection {
    let connection = this.connections.get(row.id);
    if (!connection) {
      connection = new ToolServerConnection(this.endpointOf(row), this.guard, (id, state) => this.recordLater(id, state), this.logger);
      this.connections.set(row.id, connection);
    }
    return connection;
  }

  private async connect(row: ToolServer): Promise<ToolServer> {
    const state = await this.connection(row).refresh(this.endpointOf(row));
    return this.record(row.id, state);
  }

  countByStatus(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const status of this.statuses.values()) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }

  /** Writes the state this instance sees; a server that failed keeps its last tool list. */
  private record(id: string, state: ConnectionState): Promise<ToolServer> {
    if (this.connections.has(id)) this.statuses.set(id, state.status);
    const data: Prisma.ToolServerUpdateManyMutationInput = { status: state.status, lastError: state.lastError };
    if (state.status === 'CONNECTED') data.tools = state.tools as unknown as Prisma.InputJsonValue;
    return this.prisma.toolServer.update({ where: { id }, data });
  }

  /** A change a connection reports on its own (a failed call, a reconnect): written in the background. */
  private recordLater(id: string, state: ConnectionState): void {
    this.record(id, state).catch((error: unknown) => {
      // A server removed meanwhile has no row left to update.
      if ((error as { code?: string }).code !== 'P2025') this.logger.warn({ err: error }, 'recording a tool server state failed');
    });
  }

  private endpointOf(row: ToolServer): ServerEndpoint {
    if (row.transport === 'STDIO') return this.stdioEndpoint(row);
    let headers: Record<string, string> = {};
    if (row.headersEncrypted) {
      try {
        headers = JSON.parse(this.secrets.open(row.headersEncrypted)) as Record<string, string>;
      } catch (error) {
        this.logger.warn({ toolServer: row.name, reason: (error as Error).message }, 'the tool server headers cannot be decrypted');
      }
    }
    return { id: row.id, name: row.name, url: row.url, headers };
  }

  /**
   * A declared server runs a command of the operator's: the child gets the SDK's few safe variables
   * (HOME, LOGNAME, PATH, SHELL, TERM, USER) and the file's `env`, and Parley's whole environment
   * (its database URL, its keys) only when the file says `inheritEnv`.
   */
  private stdioEndpoint(row: ToolServer): ServerEndpoint {
    // The CLI reads the file when it first needs it; a server reads it at start (syncDeclared).
    const declared = (this.declared ?? this.readFile()).get(row.name);
    const endpoint: ServerEndpoint = { id: row.id, name: row.name, url: row.url, headers: {}, stdio: null };
    if (!declared) return endpoint;
    const inherited: Record<string, string> = {};
    if (declared.inheritEnv) for (const [key, value] of Object.entries(process.env)) if (value !== undefined) inherited[key] = value;
    endpoint.stdio = {
      command: declared.command,
      args: declared.args,
      env: { ...inherited, ...declared.env },
      cwd: declared.cwd,
      secrets: Object.values(declared.env),
    };
    return endpoint;
  }

  /**
   * The server, if `user` (null: the operator) may do `action` to it. A declared server is seen by
   * the members of the projects it names; it is refreshed like any other but changed only in the file.
   */
  private async managed(user: User | null, toolServerId: string, action: 'change' | 'refresh'): Promise<ToolServer> {
    const row = await this.prisma.toolServer.findUnique({ where: { id: toolServerId } });
    const askedFor = { entity: 'ToolServer', id: toolServerId };
    if (!row) throw new NotFoundError(askedFor.entity, askedFor.id);
    if (row.projectId === null) {
      const projects = user ? await this.membersProjects(user, row) : [];
      if (user && projects.length === 0) throw new NotFoundError(askedFor.entity, askedFor.id);
      if (action === 'change') {
        throw new ForbiddenError(
          'operator',
          `The tool server ${row.name} is declared by the operator in PARLEY_TOOL_SERVERS_FILE; it is changed or removed there, not through the API.`,
        );
      }
      if (user) {
        const roles = await Promise.allSettled(projects.map((projectId) => this.access.projectRole(user, projectId, 'agent:manage', askedFor)));
        const refused = roles.find((role) => role.status === 'rejected');
        if (!roles.some((role) => role.status === 'fulfilled') && refused) throw refused.reason;
      }
      return row;
    }
    if (user) await this.access.projectRole(user, row.projectId, 'agent:manage', askedFor);
    return row;
  }

  /** The projects `user` is a member of that may use the declared server `row`. */
  private async membersProjects(user: User, row: ToolServer): Promise<string[]> {
    const refs = row.projects.filter((entry) => entry !== '*');
    const named = row.projects.includes('*') ? {} : { OR: [{ id: { in: refs } }, { name: { in: refs } }] };
    const projects = await this.prisma.project.findMany({ where: { memberships: { some: { userId: user.id } }, ...named }, select: { id: true } });
    return projects.map((project) => project.id);
  }

  /** A project may not add a server under the name of a declared one it may use: `<name>/<tool>` would mean two things. */
  private async refuseDeclaredName(projectId: string, name: string): Promise<void> {
    const project = await this.prisma.project.findUnique({ where: { id: projectId }, select: { id: true, name: true } });
    if (!project) return;
    if (await this.prisma.toolServer.findFirst({ where: { ...declaredFor(project), name }, select: { id: true } })) {
      throw new ConflictError(`The operator declares a tool server named ${name} for this project (PARLEY_TOOL_SERVERS_FILE); choose another name.`);
    }
  }

  private async allowed(user: User | null, projectId: string, scope: 'agent:read' | 'agent:manage'): Promise<void> {
    if (user) await this.access.projectRole(user, projectId, scope);
    else if (!(await this.prisma.project.findUnique({ where: { id: projectId }, select: { id: true } }))) {
      throw new NotFoundError('Project', projectId);
    }
  }

  private async validated(input: ToolServerInput, creating: boolean) {
    const data: { name?: string; url?: string; rest: { headerNames?: string[]; headersEncrypted?: string | null; timeoutMs?: number | null } } = { rest: {} };
    if (creating || input.name !== undefined) {
      const name = (input.name ?? '').trim();
      if (!SERVER_NAME.test(name)) {
        throw new InvalidInputError('name', 'must be 1 to 40 lower-case letters, digits, "-" or "_", starting with a letter or digit.');
      }
      data.name = name;
    }
    if (creating || input.url !== undefined) {
      const url = (input.url ?? '').trim();
      if (url.length > MAX_URL_CHARS) throw new InvalidInputError('url', `must be at most ${MAX_URL_CHARS} characters.`);
      try {
        data.url = (await this.guard.check(url)).toString();
      } catch (error) {
        if (error instanceof RefusedUrl) throw new InvalidInputError('url', error.message);
        throw error;
      }
    }
    if (input.timeoutMs !== undefined) {
      const timeoutMs = input.timeoutMs;
      if (timeoutMs !== null && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)) {
        throw new InvalidInputError('timeoutMs', `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or null.`);
      }
      data.rest.timeoutMs = timeoutMs;
    }
    if (input.headers != null) {
      const headers = input.headers;
      if (headers.length > MAX_HEADERS) throw new InvalidInputError('headers', `must be at most ${MAX_HEADERS}.`);
      const values: Record<string, string> = {};
      for (const header of headers) {
        if (!HEADER_NAME.test(header.name)) throw new InvalidInputError('headers', `${JSON.stringify(header.name.slice(0, 64))} is not a header name.`);
        if (header.value.length > MAX_HEADER_VALUE_CHARS || /[\r\n\0]/.test(header.value)) {
          throw new InvalidInputError('headers', `the value of ${header.name} must be one line of at most ${MAX_HEADER_VALUE_CHARS} characters.`);
        }
        values[header.name] = header.value;
      }
      if (headers.length > 0 && !this.secrets.canStore) {
        throw new InvalidInputError(
          'headers',
          'header values are stored encrypted, which needs PARLEY_SECRET_KEY with PostgreSQL; the operator sets it (32 bytes, hex or base64) and restarts.',
        );
      }
      data.rest.headerNames = Object.keys(values);
      data.rest.headersEncrypted = headers.length > 0 ? this.secrets.seal(JSON.stringify(values)) : null;
    }
    return data;
  }
}

function askedBefore(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId),
  );
}
