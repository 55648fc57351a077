import type { Logger } from 'pino';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError } from '../domain/errors.ts';
import type { Agent, PrismaClient, ToolServer, User } from '../generated/prisma/client.ts';
import type { QueueLimits } from '../queue/message-input.ts';
import { declaredServerId, stdioUrl, type DeclaredServer } from './declared-servers.ts';
import { RunToolBuilder, type AskUser, type ProgressReport, type RunTools, type ToolCallObserver } from './run-tools.ts';
import type { SecretBox } from './secrets.ts';
import type { ConnectionState } from './server-endpoint.ts';
import { ServerEndpoints } from './server-endpoints.ts';
import { allowedHostsFrom, type ToolSettings } from './settings.ts';
import { ToolFiles, type ToolFileOwner } from './tool-files.ts';
import { projectServers, unknownToolNames } from './tool-names.ts';
import { ToolServerAccess } from './tool-server-access.ts';
import { ToolServerConnections, type ReconnectObserver } from './tool-server-connections.ts';
import { validatedInput, type ToolServerInput } from './tool-server-input.ts';
import { UrlGuard } from './url-guard.ts';

/** Transport bounds: a result beyond this is refused outright; within it, text is cut to PARLEY_TOOL_OUTPUT_MAX_BYTES. */
const MAX_REQUEST_BYTES = 1_048_576;
const MAX_RESPONSE_BYTES = 8 * 1_048_576;

/** Told of what tool servers do (metrics): each finished call, each lost session opened again. */
export interface ToolObservers {
  call?: ToolCallObserver;
  reconnect?: ReconnectObserver;
}

/**
 * A project's MCP tool servers: managed by its admins, connected once per instance (one client
 * per server, shared by every run), and offered to agents as tools.
 */
export class ToolServers {
  readonly guard: UrlGuard;
  private readonly endpoints: ServerEndpoints;
  private readonly connections: ToolServerConnections;
  private readonly managers: ToolServerAccess;
  private readonly runTools: RunToolBuilder;

  constructor(
    private readonly prisma: PrismaClient,
    access: AccessPolicy,
    settings: ToolSettings,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    fileLimits: QueueLimits,
    observers: ToolObservers = {},
  ) {
    this.guard = new UrlGuard({
      allowedHosts: allowedHostsFrom(settings),
      maxRequestBytes: MAX_REQUEST_BYTES,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    this.endpoints = new ServerEndpoints(settings, secrets, logger);
    this.connections = new ToolServerConnections(prisma, this.endpoints, this.guard, logger, observers.reconnect);
    this.managers = new ToolServerAccess(prisma, access);
    const files = new ToolFiles(prisma, fileLimits, logger);
    this.runTools = new RunToolBuilder(prisma, (row) => this.connections.of(row), files, settings, logger, observers.call ?? (() => {}));
  }

  /** `user` null: the operator (the CLI), who may manage every project's servers. */
  async list(user: User | null, projectId: string): Promise<ToolServer[]> {
    await this.managers.project(user, projectId, 'agent:read');
    return projectServers(this.prisma, projectId);
  }

  /** The ids of the servers `Project.toolServers` shows (the caller has checked the project is visible). */
  async visibleIds(projectId: string): Promise<string[]> {
    return (await projectServers(this.prisma, projectId)).map((row) => row.id);
  }

  async add(user: User | null, projectId: string, input: ToolServerInput): Promise<ToolServer> {
    await this.managers.project(user, projectId, 'agent:manage');
    const data = await validatedInput(input, true, { guard: this.guard, secrets: this.secrets });
    if (await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId, name: data.name! } } })) {
      throw new ConflictError(`This project already has a tool server named ${data.name}.`);
    }
    await this.managers.refuseDeclaredName(projectId, data.name!);
    const row = await this.prisma.toolServer
      .create({ data: { projectId, name: data.name!, url: data.url!, ...data.rest } })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === 'P2002') throw new ConflictError(`This project already has a tool server named ${data.name}.`);
        throw error;
      });
    return this.connections.connect(row);
  }

  async update(user: User | null, toolServerId: string, input: ToolServerInput): Promise<ToolServer> {
    const existing = await this.managers.managed(user, toolServerId, 'change');
    const projectId = existing.projectId!;
    const data = await validatedInput(input, false, { guard: this.guard, secrets: this.secrets });
    if (data.name && data.name !== existing.name) {
      const clash = await this.prisma.toolServer.findUnique({ where: { projectId_name: { projectId, name: data.name } } });
      if (clash) throw new ConflictError(`This project already has a tool server named ${data.name}.`);
      await this.managers.refuseDeclaredName(projectId, data.name);
    }
    const row = await this.prisma.toolServer.update({
      where: { id: existing.id },
      data: { ...(data.name ? { name: data.name } : {}), ...(data.url ? { url: data.url } : {}), ...data.rest },
    });
    return this.connections.connect(row);
  }

  async remove(user: User | null, toolServerId: string): Promise<ToolServer> {
    const existing = await this.managers.managed(user, toolServerId, 'change');
    await this.prisma.toolServer.delete({ where: { id: existing.id } });
    await this.connections.forget(existing.id);
    return existing;
  }

  async refresh(user: User | null, toolServerId: string): Promise<ToolServer> {
    return this.connections.connect(await this.managers.managed(user, toolServerId, 'refresh'));
  }

  /** Names among `names` that are neither built in nor a tool (or `*`) of one of the project's servers. */
  unknownToolNames(projectId: string, names: readonly string[]): Promise<string[]> {
    return unknownToolNames(this.prisma, projectId, names);
  }

  /**
   * The agent's tool-server tools for a run in `threadId` (see RunToolBuilder.toolsFor); the files
   * their results carry are kept for `owner`; their progress goes to `reportProgress`; what their
   * servers elicit is asked of the run's user through `askUser`.
   */
  toolsForRun(agent: Agent, threadId: string, owner?: ToolFileOwner, reportProgress?: ProgressReport, askUser?: AskUser): Promise<RunTools> {
    return this.runTools.toolsFor(agent, threadId, owner, reportProgress, askUser);
  }

  /**
   * Reads PARLEY_TOOL_SERVERS_FILE (a bad file throws, naming it and the problem) and makes the
   * rows match it: each declared server upserted, a declared one no longer in the file removed.
   */
  async syncDeclared(): Promise<void> {
    const declared = [...this.endpoints.readDeclared().values()];
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
    for (const { id } of removed) await this.connections.forget(id);
    for (const server of declared) await this.warnOfUnknownProjects(server);
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
    for (const row of rows) {
      void this.connections.connect(row).catch((error) => this.logger.warn({ err: error, toolServer: row.name }, 'connecting a tool server failed'));
    }
  }

  /** Each server as a fresh connection finds it now, recording nothing (`parley doctor`). */
  async probeAll(): Promise<{ name: string; projectId: string | null; transport: string; state: ConnectionState }[]> {
    // The file as it is now (a bad one throws), not as the rows last recorded it.
    const declared = this.endpoints.readDeclared();
    const http = await this.prisma.toolServer.findMany({ where: { transport: 'HTTP' }, orderBy: [{ projectId: 'asc' }, { name: 'asc' }] });
    const stdio = [...declared.values()].sort((a, b) => a.name.localeCompare(b.name)).map(
      (server) => ({ id: declaredServerId(server.name), name: server.name, projectId: null, transport: 'STDIO' }) as ToolServer,
    );
    return Promise.all(
      [...stdio, ...http].map(async (row) => ({ name: row.name, projectId: row.projectId, transport: row.transport, state: await this.connections.probe(row) })),
    );
  }

  async close(): Promise<void> {
    await this.connections.close();
  }

  countByStatus(): Record<string, number> {
    return this.connections.countByStatus();
  }
}
