import { jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain/errors.ts';
import type { Agent, Prisma, PrismaClient, ToolServer, User } from '../generated/prisma/client.ts';
import { modelToolName, type ToolLabel, type ToolOutcome } from '../runtime/tools.ts';
import { approvalOf, parseApprovals } from './approvals.ts';
import { ToolServerConnection, ToolServerFailure, type ConnectionState, type ServerEndpoint } from './connections.ts';
import type { SecretBox } from './secrets.ts';
import { allowedHostsFrom, type ToolSettings } from './settings.ts';
import { qualifiedToolName, safeToRepeat, SERVER_NAME, splitToolName, type ToolInfo } from './tool-catalog.ts';
import { unknownToolNames } from './tool-names.ts';
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
  readonly guard: UrlGuard;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly access: AccessPolicy,
    private readonly settings: ToolSettings,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    private readonly observeCall: ToolCallObserver = () => {},
  ) {
    this.guard = new UrlGuard({
      allowedHosts: allowedHostsFrom(settings),
      maxRequestBytes: MAX_REQUEST_BYTES,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
  }

  /** `user` null: the operator (the CLI), who may manage every project's servers. */
  async list(user: User | null, projectId: string): Promise<ToolServer[]> {
    await this.allowed(user, projectId, 'agent:read');
    return this.prisma.toolServer.findMany({ where: { projectId }, orderBy: { name: 'asc' } });
  }

  async add(user: User | null, projectId: string, input: ToolServerInput): Promise<ToolServer> {
    await this.allowed(user, projectId, 'agent:manage');
    const data = await this.validated(input, true);
    if (await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId, name: data.name! } } })) {
      throw new ConflictError(`This project already has a tool server named ${data.name}.`);
    }
    const row = await this.prisma.toolServer
      .create({ data: { projectId, name: data.name!, url: data.url!, ...data.rest } })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === 'P2002') throw new ConflictError(`This project already has a tool server named ${data.name}.`);
        throw error;
      });
    return this.connect(row);
  }

  async update(user: User | null, toolServerId: string, input: ToolServerInput): Promise<ToolServer> {
    const existing = await this.managed(user, toolServerId);
    const data = await this.validated(input, false);
    if (data.name && data.name !== existing.name) {
      const clash = await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId: existing.projectId, name: data.name } } });
      if (clash) throw new ConflictError(`This project already has a tool server named ${data.name}.`);
    }
    const row = await this.prisma.toolServer.update({
      where: { id: existing.id },
      data: { ...(data.name ? { name: data.name } : {}), ...(data.url ? { url: data.url } : {}), ...data.rest },
    });
    return this.connect(row);
  }

  async remove(user: User | null, toolServerId: string): Promise<ToolServer> {
    const existing = await this.managed(user, toolServerId);
    await this.prisma.toolServer.delete({ where: { id: existing.id } });
    await this.connections.get(existing.id)?.close();
    this.connections.delete(existing.id);
    this.statuses.delete(existing.id);
    return existing;
  }

  async refresh(user: User | null, toolServerId: string): Promise<ToolServer> {
    return this.connect(await this.managed(user, toolServerId));
  }

  /** Names among `names` that are neither built in nor a tool (or `*`) of one of the project's servers. */
  unknownToolNames(projectId: string, names: readonly string[]): Promise<string[]> {
    return unknownToolNames(this.prisma, projectId, names);
  }

  /**
   * The agent's tool-server tools for a run in `threadId`: each asks for approval unless the
   * agent's policy says NEVER or the thread's user allowed it in this thread.
   */
  async toolsForRun(agent: Agent, threadId: string): Promise<RunTools> {
    const run: RunTools = { tools: {}, labels: new Map() };
    const wanted = agent.tools.map(splitToolName).filter((entry) => entry !== null);
    if (wanted.length === 0) return run;
    const [servers, allowances] = await Promise.all([
      this.prisma.toolServer.findMany({ where: { projectId: agent.projectId, name: { in: [...new Set(wanted.map((entry) => entry.server))] } } }),
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
          execute: (input, { abortSignal }) => this.call(server, info.name, input ?? {}, abortSignal),
          toModelOutput: ({ output }) =>
            output.ok ? { type: 'text', value: output.text } : { type: 'error-text', value: output.error ?? 'the tool failed.' },
        });
      }
    }
    return run;
  }

  /** Connects every server at start (in the background) so their state is fresh on this instance. */
  async connectAll(): Promise<void> {
    const rows = await this.prisma.toolServer.findMany();
    for (const row of rows) void this.connect(row).catch((error) => this.logger.warn({ err: error, toolServer: row.name }, 'connecting a tool server failed'));
  }

  /** Each server as a fresh connection finds it now, recording nothing (`parley doctor`). */
  async probeAll(): Promise<{ name: string; projectId: string; state: ConnectionState }[]> {
    const rows = await this.prisma.toolServer.findMany({ orderBy: [{ projectId: 'asc' }, { name: 'asc' }] });
    return Promise.all(
      rows.map(async (row) => {
        const connection = new ToolServerConnection(this.endpointOf(row), this.guard, () => {});
        try {
          return { name: row.name, projectId: row.projectId, state: await connection.refresh() };
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

  private async call(server: ToolServer, toolName: string, input: Record<string, unknown>, signal: AbortSignal | undefined): Promise<ToolOutcome> {
    const startedAt = performance.now();
    const done = (outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELLED') =>
      this.observeCall({ server: server.name, tool: toolName, outcome, durationMs: performance.now() - startedAt });
    const failed = (error: string): ToolOutcome => {
      done('FAILED');
      return { toolOutcome: true, ok: false, text: '', truncated: false, error };
    };
    const timeoutMs = server.timeoutMs ?? this.settings.PARLEY_TOOL_TIMEOUT_MS;
    try {
      const result = await this.connection(server).call(toolName, input, { signal: signal ?? new AbortController().signal, timeoutMs });
      const output = boundedOutput(result, this.settings.PARLEY_TOOL_OUTPUT_MAX_BYTES);
      if (result.isError) return failed(output.text || 'the tool reported an error without a message.');
      done('SUCCEEDED');
      return { toolOutcome: true, ok: true, text: output.text, truncated: output.truncated, error: null };
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
      connection = new ToolServerConnection(this.endpointOf(row), this.guard, (id, state) => this.recordLater(id, state));
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

  private async managed(user: User | null, toolServerId: string): Promise<ToolServer> {
    const row = await this.prisma.toolServer.findUnique({ where: { id: toolServerId } });
    const askedFor = { entity: 'ToolServer', id: toolServerId };
    if (!row) throw new NotFoundError(askedFor.entity, askedFor.id);
    if (user) await this.access.projectRole(user, row.projectId, 'agent:manage', askedFor);
    return row;
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
