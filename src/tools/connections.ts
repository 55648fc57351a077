import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { LAST_RETRY_MS, listTools, openHttpClient, openStdioClient, StderrTail } from './mcp-clients.ts';
import { redactedFor, type ConnectionState, type ServerEndpoint } from './server-endpoint.ts';
import { ElicitationRouting, type Elicit } from './elicitation-routing.ts';
import { isLostSession, sessionIdOf } from './lost-session.ts';
import { failureOf, ToolServerFailure } from './tool-server-failure.ts';
import type { UrlGuard } from './url-guard.ts';

const FIRST_RETRY_MS = 500;

interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Told of each progress notification of the call (asking for them: the request carries a progress token). */
  onProgress?: (progress: Progress) => void;
  /** Asks the call's user what the server elicits during the call; without it such a request is refused. */
  elicit?: Elicit;
}

function callOn(client: Client, name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, undefined, {
    signal: options.signal,
    timeout: options.timeoutMs,
    maxTotalTimeout: options.timeoutMs,
    ...(options.onProgress ? { onprogress: options.onProgress } : {}),
  }) as Promise<CallToolResult>;
}

/**
 * One MCP client per tool server on this instance, shared by every run. A failed connection is
 * tried again lazily with a growing pause (FIRST_RETRY_MS doubling to LAST_RETRY_MS); each change of
 * state is reported, so the server's row shows it to every instance.
 */
export class ToolServerConnection {
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private failures = 0;
  private retryAt = 0;
  private lastFailure: ToolServerFailure | null = null;
  private closed = false;
  /** A stdio child that exited on its own is started again after the pause (an HTTP client reconnects on its next call). */
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly stderr: StderrTail;
  /** Calls in flight on each client; a client given up while some are is closed after the last (see `retire`). */
  private readonly callsInFlight = new Map<Client, number>();
  private readonly retired = new Set<Client>();
  /** Every client given up for a new session: what its calls meet says nothing about the new one. */
  private readonly givenUp = new WeakSet<Client>();
  /** Which call a server's elicitation belongs to, on every client of this connection. */
  private readonly elicitations = new ElicitationRouting();

  constructor(
    private endpoint: ServerEndpoint,
    private readonly guard: UrlGuard,
    private readonly onState: (serverId: string, state: ConnectionState) => void,
    private readonly logger?: Logger,
    /** Told when a call's lost session was opened again (the server's row and a metric count it). */
    private readonly onReconnect: (serverId: string, serverName: string) => void = () => {},
  ) {
    this.stderr = new StderrTail(
      (text) => this.redact(text),
      (line) => this.logger?.debug({ toolServer: this.endpoint.name, stderr: line }, 'tool server stderr'),
    );
  }

  get name(): string {
    return this.endpoint.name;
  }

  /** Connects now (a refresh, an added server), dropping a client that is there. */
  async refresh(endpoint: ServerEndpoint = this.endpoint): Promise<ConnectionState> {
    this.endpoint = endpoint;
    await this.dropClient();
    this.retryAt = 0;
    try {
      const client = await this.connected();
      return { status: 'CONNECTED', lastError: null, tools: await listTools(client) };
    } catch (error) {
      const failure = failureOf(error, this.endpoint);
      return { status: failure.status, lastError: failure.message, tools: [] };
    }
  }

  /**
   * Calls the tool. A call the server refused unrun because it lost our session (it restarted) is
   * made once more on a new session; any other failure, and a second one, is the call's error.
   */
  async call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const deadline = performance.now() + options.timeoutMs;
    const client = await this.connected();
    // Read now: a client given up meanwhile (another call met the lost session) closes, and forgets it.
    const sessionId = sessionIdOf(client);
    try {
      return await this.callTracked(client, name, args, options);
    } catch (error) {
      if (options.signal.aborted || !isLostSession(error, sessionId)) throw await this.callFailure(error, options, client);
    }
    const renewed = await this.renewed(client);
    // The call's timeout counts from its first attempt: a retry does not get a second one.
    const timeLeftMs = Math.max(1, Math.round(deadline - performance.now()));
    try {
      return await this.callTracked(renewed, name, args, { ...options, timeoutMs: timeLeftMs });
    } catch (error) {
      throw await this.callFailure(error, options, renewed);
    }
  }

  private async callTracked(client: Client, name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    this.callsInFlight.set(client, (this.callsInFlight.get(client) ?? 0) + 1);
    try {
      return await this.elicitations.within({ elicit: options.elicit, ended: new AbortController() }, () => callOn(client, name, args, options));
    } finally {
      const left = (this.callsInFlight.get(client) ?? 1) - 1;
      if (left > 0) this.callsInFlight.set(client, left);
      else this.callsInFlight.delete(client);
      if (left <= 0 && this.retired.delete(client)) await client.close().catch(() => {});
    }
  }

  /** A client on a new session in place of `lost`; calls that met the same lost session share one. */
  private async renewed(lost: Client): Promise<Client> {
    if (this.client !== lost) return this.connected();
    this.client = null;
    await this.retire(lost);
    const client = await this.connected();
    this.onReconnect(this.endpoint.id, this.endpoint.name);
    return client;
  }

  /**
   * Gives up a client whose session is lost. Closing it would end its other calls in flight with
   * "connection closed", which cannot tell whether they ran: they are left to get their own answer
   * (the same refusal, and a retry on the new session, or their own error), and it closes after them.
   */
  private async retire(client: Client): Promise<void> {
    this.givenUp.add(client);
    if (this.callsInFlight.has(client)) this.retired.add(client);
    else await client.close().catch(() => {});
  }

  /**
   * What a failed call throws. A failure of the connection itself marks the server failed, unless
   * the call was on a client already given up for a new one (which the failure says nothing about).
   */
  private async callFailure(error: unknown, options: CallOptions, client: Client): Promise<unknown> {
    if (options.signal.aborted) return error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new ToolServerFailure('CONNECTED', `the tool did not answer within ${options.timeoutMs} ms.`);
    }
    // A protocol-level refusal of this one call (an unknown tool, bad arguments) leaves the connection as it was.
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      return new ToolServerFailure('CONNECTED', this.redact(`the tool server refused the call: ${error.message}`));
    }
    // A stdio child that died has been marked failed (and its restart planned) by the client's onclose, which runs first.
    if (this.endpoint.stdio !== undefined && error instanceof McpError && this.lastFailure) return this.lastFailure;
    const failure = failureOf(error, this.endpoint);
    if (this.givenUp.has(client)) return failure;
    await this.dropClient();
    this.markFailed(failure);
    return failure;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.dropClient();
    const retired = [...this.retired];
    this.retired.clear();
    await Promise.all(retired.map((client) => client.close().catch(() => {})));
  }

  private async connected(): Promise<Client> {
    if (this.client) return this.client;
    if (this.closed) throw new ToolServerFailure('UNAVAILABLE', 'the tool server connection is closed.');
    if (Date.now() < this.retryAt && this.lastFailure) throw this.lastFailure;
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    try {
      const client =
        this.endpoint.stdio !== undefined
          ? await openStdioClient(this.endpoint.stdio, this.stderr, (closed) => this.stdioExited(closed), (message) => this.redact(message), this.elicitations)
          : await openHttpClient(
              this.endpoint,
              this.guard,
              (closed) => {
                if (this.client === closed) this.client = null;
              },
              this.elicitations,
            );
      if (this.closed) {
        // Closed (a shutdown) while connecting: the client made meanwhile must not outlive it.
        await client.close().catch(() => {});
        throw new ToolServerFailure('UNAVAILABLE', 'the tool server connection is closed.');
      }
      this.client = client;
      this.failures = 0;
      this.lastFailure = null;
      const tools = await listTools(client);
      this.onState(this.endpoint.id, { status: 'CONNECTED', lastError: null, tools });
      return client;
    } catch (error) {
      const failure = failureOf(error, this.endpoint);
      // A shutdown's own ending is no news for the server's row.
      if (!this.closed) this.markFailed(failure);
      throw failure;
    }
  }

  private stdioExited(client: Client): void {
    if (this.client !== client) return;
    // The child ended on its own (we drop the client before closing it ourselves).
    this.client = null;
    this.markFailed(new ToolServerFailure('UNAVAILABLE', this.redact(`the tool server process exited${this.stderr.lastOutput()}.`)));
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.closed || this.restartTimer) return;
    this.restartTimer = setTimeout(
      () => {
        this.restartTimer = null;
        if (this.closed || this.client) return;
        this.connected().catch(() => this.scheduleRestart());
      },
      Math.max(0, this.retryAt - Date.now()),
    );
    this.restartTimer.unref();
  }

  private markFailed(failure: ToolServerFailure): void {
    this.failures += 1;
    this.lastFailure = failure;
    this.retryAt = Date.now() + Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.failures - 1));
    this.onState(this.endpoint.id, { status: failure.status, lastError: failure.message, tools: [] });
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
  }

  private redact(message: string): string {
    return redactedFor(this.endpoint, message);
  }
}
