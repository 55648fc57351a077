import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ElicitationRouting, FormElicitation, Relations } from './elicitation-routing.ts';
import type { ServerEndpoint, StdioCommand } from './server-endpoint.ts';
import type { ToolInfo } from './tool-catalog.ts';
import { ToolServerFailure } from './tool-server-failure.ts';
import type { UrlGuard } from './url-guard.ts';

/** The longest pause before connecting again, for a connection and for the HTTP transport's own reconnects alike. */
export const LAST_RETRY_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** A stdio server's start counts against its first answer: a command like `npx -y …` may fetch a package first. */
const STDIO_CONNECT_TIMEOUT_MS = 30_000;

/**
 * `elicitation/create` with its params unread: the SDK's client checks them itself and refuses a bad
 * one with invalid params, as the specification says; its full schema here would be checked first,
 * and refuse the same request as an internal error.
 */
const ELICITATION_REQUEST = z.object({ method: z.literal('elicitation/create'), params: z.unknown() });

/** Lines of a child's stderr kept for a failure's message, and the longest line logged. */
const STDERR_LINES_KEPT = 5;
const STDERR_LINE_CHARS = 2_000;

/** Told when the client closes; set before it connects, so a close while connecting is heard too. */
type OnClose = (client: Client) => void;

/**
 * An MCP client of an HTTP server, over the URL guard's fetch: streamable HTTP, or HTTP+SSE for an
 * older server that refuses the streamable POST.
 */
export async function openHttpClient(endpoint: ServerEndpoint, guard: UrlGuard, onClose: OnClose, routing: ElicitationRouting): Promise<Client> {
  return openWith('streamable-http', endpoint, guard, onClose, routing).catch(async (error: unknown) => {
    // An older server speaks HTTP+SSE: its POST to the endpoint is refused with 4xx other than 401/403.
    if (error instanceof StreamableHTTPError && [400, 404, 405].includes(error.code ?? 0)) return openWith('sse', endpoint, guard, onClose, routing);
    throw error;
  });
}

async function openWith(
  kind: 'streamable-http' | 'sse',
  endpoint: ServerEndpoint,
  guard: UrlGuard,
  onClose: OnClose,
  routing: ElicitationRouting,
): Promise<Client> {
  const url = await guard.check(endpoint.url);
  const requestInit = { headers: endpoint.headers };
  // Each client's own relations: a server numbers its requests per session.
  const relations: Relations = new Map();
  const fetch = routing.watching(guard.fetch(), relations);
  const transport: Transport =
    kind === 'sse'
      ? new SSEClientTransport(url, { requestInit, fetch, eventSourceInit: { fetch } })
      : new StreamableHTTPClientTransport(url, {
          requestInit,
          fetch,
          reconnectionOptions: { maxReconnectionDelay: LAST_RETRY_MS, initialReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
        });
  return connected(transport, CONNECT_TIMEOUT_MS, onClose, routing, relations);
}

/**
 * A client connected over `transport` within `timeoutMs`; one that fails to connect is closed. It
 * declares form-mode elicitation: the SDK refuses URL mode and field types the specification does
 * not allow (JSON-RPC invalid params) before `routing` is asked which call's user answers.
 */
async function connected(transport: Transport, timeoutMs: number, onClose: OnClose, routing: ElicitationRouting, relations: Relations): Promise<Client> {
  const client = new Client({ name: 'parley', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ELICITATION_REQUEST, (request, extra) =>
    routing.answer(request.params as FormElicitation, extra.requestId, relations, extra.signal),
  );
  client.onclose = () => onClose(client);
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return client;
}

/**
 * Starts the declared command and connects to it; its stderr goes to `stderr` (the log, and the
 * last lines for a failure's message). A start that fails is a ToolServerFailure saying why.
 */
export async function openStdioClient(
  stdio: StdioCommand | null | undefined,
  stderr: StderrTail,
  onClose: OnClose,
  redact: (message: string) => string,
  routing: ElicitationRouting,
): Promise<Client> {
  if (!stdio) {
    throw new ToolServerFailure('UNAVAILABLE', 'this instance’s PARLEY_TOOL_SERVERS_FILE does not declare this server.');
  }
  stderr.reset();
  const transport = new StdioClientTransport({ command: stdio.command, args: stdio.args, env: stdio.env, cwd: stdio.cwd, stderr: 'pipe' });
  stderr.follow(transport.stderr);
  try {
    return await connected(transport, STDIO_CONNECT_TIMEOUT_MS, onClose, routing, new Map());
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      throw new ToolServerFailure('UNAVAILABLE', redact(`the tool server process exited while starting${stderr.lastOutput()}.`));
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') {
      throw new ToolServerFailure('UNAVAILABLE', redact(`the command ${stdio.command} could not be started (${code}).`));
    }
    throw error;
  }
}

/** The server's tools, page by page (at most about 1,000). */
export async function listTools(client: Client): Promise<ToolInfo[]> {
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

/** A stdio child's stderr: each line redacted and logged, the last few kept for a failure's message. */
export class StderrTail {
  private lines: string[] = [];

  constructor(
    private readonly redact: (text: string) => string,
    private readonly log: (line: string) => void,
  ) {}

  reset(): void {
    this.lines = [];
  }

  follow(stream: Stream | null): void {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > STDERR_LINE_CHARS) {
        lines.push(partial);
        partial = '';
      }
      for (const raw of lines) this.add(raw);
    });
    stream?.on('end', () => {
      if (partial) this.add(partial);
      partial = '';
    });
  }

  /** `; its last output: …` to end a failure's message with, or nothing. */
  lastOutput(): string {
    const last = this.lines.at(-1);
    return last ? `; its last output: ${last.slice(0, 300)}` : '';
  }

  private add(raw: string): void {
    const line = this.redact(raw.replace(/\r$/, '')).slice(0, STDERR_LINE_CHARS);
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > STDERR_LINES_KEPT) this.lines.shift();
    this.log(line);
  }
}
