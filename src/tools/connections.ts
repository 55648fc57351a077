import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { ToolInfo, ToolServerStatus } from './tool-catalog.ts';
import { RefusedUrl, type UrlGuard } from './url-guard.ts';

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** A stdio server's start counts against its first answer: a command like `npx -y …` may fetch a package first. */
const STDIO_CONNECT_TIMEOUT_MS = 30_000;

/** How to reach one tool server; headers are decrypted only into this, in memory. */
export interface ServerEndpoint {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  /**
   * A stdio server: the command to run (the operator's declaration). Null when the row says stdio
   * but this instance's PARLEY_TOOL_SERVERS_FILE does not declare it.
   */
  stdio?: StdioCommand | null;
}

export interface StdioCommand {
  command: string;
  args: string[];
  /** Exactly the environment the child gets (see ToolServers.stdioEndpoint). */
  env: Record<string, string>;
  cwd: string;
  /** Values to blank out of anything shown or logged (the declared env's). */
  secrets: string[];
}

/** Lines of a child's stderr kept for a failure's message, and the longest line logged. */
const STDERR_LINES_KEPT = 5;
const STDERR_LINE_CHARS = 2_000;

export interface ConnectionState {
  status: ToolServerStatus;
  lastError: string | null;
  tools: ToolInfo[];
}

/** A tool server's refusal or failure, already worded for people (never with a header value). */
export class ToolServerFailure extends Error {
  constructor(
    readonly status: ToolServerStatus,
    message: string,
  ) {
    super(message);
  }
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
  private stderrTail: string[] = [];

  constructor(
    private endpoint: ServerEndpoint,
    private readonly guard: UrlGuard,
    private readonly onState: (serverId: string, state: ConnectionState) => void,
    private readonly logger?: Logger,
  ) {}

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
      return { status: 'CONNECTED', lastError: null, tools: await this.listTools(client) };
    } catch (error) {
      const failure = this.failureOf(error);
      return { status: failure.status, lastError: failure.message, tools: [] };
    }
  }

  async call(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<CallToolResult> {
    const client = await this.connected();
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: options.timeoutMs,
        maxTotalTimeout: options.timeoutMs,
      })) as CallToolResult;
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new ToolServerFailure('CONNECTED', `the tool did not answer within ${options.timeoutMs} ms.`);
      }
      // A protocol-level refusal of this one call (an unknown tool, bad arguments) leaves the connection as it was.
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
        throw new ToolServerFailure('CONNECTED', this.redact(`the tool server refused the call: ${error.message}`));
      }
      // A stdio child that died has been marked failed (and its restart planned) by the client's onclose, which runs first.
      if (this.endpoint.stdio !== undefined && error instanceof McpError && this.lastFailure) throw this.lastFailure;
      const failure = this.failureOf(error);
      await this.dropClient();
      this.markFailed(failure);
      throw failure;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.dropClient();
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
          ? await this.openStdio()
          : await this.openWith('streamable-http').catch(async (error: unknown) => {
              // An older server speaks HTTP+SSE: its POST to the endpoint is refused with 4xx other than 401/403.
              if (error instanceof StreamableHTTPError && [400, 404, 405].includes(error.code ?? 0)) return this.openWith('sse');
              throw error;
            });
      if (this.closed) {
        // Closed (a shutdown) while connecting: the client made meanwhile must not outlive it.
        await client.close().catch(() => {});
        throw new ToolServerFailure('UNAVAILABLE', 'the tool server connection is closed.');
      }
      this.client = client;
      this.failures = 0;
      this.lastFailure = null;
      const tools = await this.listTools(client);
      this.onState(this.endpoint.id, { status: 'CONNECTED', lastError: null, tools });
      return client;
    } catch (error) {
      const failure = this.failureOf(error);
      // A shutdown's own ending is no news for the server's row.
      if (!this.closed) this.markFailed(failure);
      throw failure;
    }
  }

  private async openWith(kind: 'streamable-http' | 'sse'): Promise<Client> {
    const url = await this.guard.check(this.endpoint.url);
    const requestInit = { headers: this.endpoint.headers };
    const fetch = this.guard.fetch();
    const transport: Transport =
      kind === 'sse'
        ? new SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch } })
        : new StreamableHTTPClientTransport(url, {
            requestInit,
            fetch,
            reconnectionOptions: { maxReconnectionDelay: LAST_RETRY_MS, initialReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
          });
    const client = new Client({ name: 'parley', version: '1' }, { capabilities: {} });
    client.onclose = () => {
      if (this.client === client) this.client = null;
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => {});
      throw error;
    }
    return client;
  }

  /** Starts the declared command; its stderr goes to the log (debug) and its last lines into a failure's message. */
  private async openStdio(): Promise<Client> {
    const stdio = this.endpoint.stdio;
    if (!stdio) {
      throw new ToolServerFailure('UNAVAILABLE', 'this instance’s PARLEY_TOOL_SERVERS_FILE does not declare this server.');
    }
    this.stderrTail = [];
    const transport = new StdioClientTransport({ command: stdio.command, args: stdio.args, env: stdio.env, cwd: stdio.cwd, stderr: 'pipe' });
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > STDERR_LINE_CHARS) {
        lines.push(partial);
        partial = '';
      }
      for (const raw of lines) this.stderrLine(raw);
    });
    transport.stderr?.on('end', () => {
      if (partial) this.stderrLine(partial);
      partial = '';
    });
    const client = new Client({ name: 'parley', version: '1' }, { capabilities: {} });
    client.onclose = () => {
      if (this.client !== client) return;
      // The child ended on its own (we drop the client before closing it ourselves).
      this.client = null;
      this.markFailed(new ToolServerFailure('UNAVAILABLE', this.redact(`the tool server process exited${this.lastStderr()}.`)));
      this.scheduleRestart();
    };
    try {
      await client.connect(transport, { timeout: STDIO_CONNECT_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => {});
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        throw new ToolServerFailure('UNAVAILABLE', this.redact(`the tool server process exited while starting${this.lastStderr()}.`));
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string') {
        throw new ToolServerFailure('UNAVAILABLE', this.redact(`the command ${stdio.command} could not be started (${code}).`));
      }
      throw error;
    }
    return client;
  }

  private stderrLine(raw: string): void {
    const line = this.redact(raw.replace(/\r$/, '')).slice(0, STDERR_LINE_CHARS);
    if (!line.trim()) return;
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
    this.logger?.debug({ toolServer: this.endpoint.name, stderr: line }, 'tool server stderr');
  }

  private lastStderr(): string {
    const last = this.stderrTail.at(-1);
    return last ? `; its last output: ${last.slice(0, 300)}` : '';
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

  private async listTools(client: Client): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as Record<string, unknown>,
          annotations: { ...(tool.annotations ?? {}) },
        });
      }
      cursor = page.nextCursor;
    } while (cursor && tools.length < 1_000);
    return tools;
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

  /** The failure as people read it; a header value the server echoed is blanked out. */
  private failureOf(error: unknown): ToolServerFailure {
    if (error instanceof ToolServerFailure) return error;
    const code = error instanceof StreamableHTTPError ? error.code : undefined;
    if (code === 401 || code === 403) return new ToolServerFailure('UNAUTHORIZED', `UNAUTHORIZED (HTTP ${code})`);
    if (error instanceof Error && error.name === 'UnauthorizedError') return new ToolServerFailure('UNAUTHORIZED', 'UNAUTHORIZED (HTTP 401)');
    let message: string;
    if (error instanceof RefusedUrl) message = `The URL was refused: ${error.message}`;
    else if (code !== undefined && code > 0) message = `the tool server answered HTTP ${code}.`;
    else message = `the tool server is unreachable: ${describe(error)}`;
    return new ToolServerFailure('UNAVAILABLE', this.redact(message));
  }

  private redact(message: string): string {
    let redacted = message;
    for (const value of [...Object.values(this.endpoint.headers), ...(this.endpoint.stdio?.secrets ?? [])]) {
      if (value.length >= 4) redacted = redacted.split(value).join('[redacted]');
    }
    return redacted.slice(0, 500);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof RefusedUrl) return cause.message;
  const code = (cause as { code?: string } | undefined)?.code ?? (error as { code?: string }).code;
  if (typeof code === 'string') return `${error.message} (${code})`;
  if (cause instanceof Error && cause.message) return `${error.message}: ${cause.message}`;
  return error.message;
}
