import type { Logger } from 'pino';
import type { Prisma, PrismaClient, ToolServer } from '../generated/prisma/client.ts';
import { ToolServerConnection } from './connections.ts';
import type { ConnectionState } from './server-endpoint.ts';
import type { ServerEndpoints } from './server-endpoints.ts';
import type { UrlGuard } from './url-guard.ts';

/** Told of each lost session opened again to retry a call (metrics), by the server's name. */
export type ReconnectObserver = (server: string) => void;

/**
 * This instance's one connection per tool server, and what each last reported: the status counted
 * by the servers-by-status gauge, and the row every instance shows.
 */
export class ToolServerConnections {
  private readonly connections = new Map<string, ToolServerConnection>();
  /** Each server's status as this instance last saw it (the servers-by-status gauge). */
  private readonly statuses = new Map<string, string>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly endpoints: ServerEndpoints,
    private readonly guard: UrlGuard,
    private readonly logger: Logger,
    private readonly observeReconnect: ReconnectObserver = () => {},
  ) {}

  /** The server's connection, made on first use. */
  of(row: ToolServer): ToolServerConnection {
    let connection = this.connections.get(row.id);
    if (!connection) {
      connection = new ToolServerConnection(
        this.endpoints.of(row),
        this.guard,
        (id, state) => this.recordLater(id, state),
        this.logger,
        (id, name) => this.reconnected(id, name),
      );
      this.connections.set(row.id, connection);
    }
    return connection;
  }

  /** Connects now (with the row as it is now) and writes the state found. */
  async connect(row: ToolServer): Promise<ToolServer> {
    const state = await this.of(row).refresh(this.endpoints.of(row));
    return this.record(row.id, state);
  }

  /** The server is gone: its connection is closed and it is counted no more. */
  async forget(id: string): Promise<void> {
    await this.connections.get(id)?.close();
    this.connections.delete(id);
    this.statuses.delete(id);
  }

  /** The server as a fresh connection finds it now, recording nothing (`parley doctor`). */
  async probe(row: ToolServer): Promise<ConnectionState> {
    const connection = new ToolServerConnection(this.endpoints.of(row), this.guard, () => {}, this.logger);
    try {
      return await connection.refresh();
    } finally {
      await connection.close();
    }
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.close()));
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

  /** A call's lost session was opened again: counted on the row (every instance shows it) and by the metric. */
  private reconnected(id: string, name: string): void {
    this.observeReconnect(name);
    this.prisma.toolServer.update({ where: { id }, data: { reconnects: { increment: 1 }, lastReconnectAt: new Date() } }).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'P2025') this.logger.warn({ err: error }, 'recording a tool server reconnect failed');
    });
  }

  /** A change a connection reports on its own (a failed call, a reconnect): written in the background. */
  private recordLater(id: string, state: ConnectionState): void {
    this.record(id, state).catch((error: unknown) => {
      // A server removed meanwhile has no row left to update.
      if ((error as { code?: string }).code !== 'P2025') this.logger.warn({ err: error }, 'recording a tool server state failed');
    });
  }
}
