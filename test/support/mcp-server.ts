import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The bytes the `picture` tool answers: a PNG signature padded to `bytes`, and a small PDF. */
export function pngOf(bytes: number): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, Buffer.alloc(Math.max(bytes - signature.length, 0), 7)]);
}
export const PDF = Buffer.from('%PDF-1.4\n% a report\n');

/** The form the `ask` tool elicits: every field type the MCP specification allows. */
export const PERSON_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 40 },
    email: { type: 'string', title: 'Email', format: 'email' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: false },
    color: { type: 'string', title: 'Colour', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
  },
  required: ['name'],
} as const;

/** What `ask {"form": …}` sends besides the person form: URL mode, and a field type the specification does not allow. */
const OTHER_ELICITATIONS = {
  url: { mode: 'url', message: 'Sign in at the provider.', elicitationId: 'sign-in-1', url: 'https://example.com/sign-in' },
  nested: { message: 'Where do you live?', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } } },
} as const;

/**
 * A real MCP server (the SDK's, over streamable HTTP) on a free loopback port, with tools that
 * succeed, fail, wait and count, so tests can watch what Parley did at the server's end.
 */
export interface TestMcpServer {
  url: string;
  /** The same server behind a 302 to `url`. */
  redirectUrl: string;
  /** Calls each tool received, by name. */
  calls: Map<string, number>;
  /** Calls of `slow` that were cancelled by the client (MCP cancellation reached the tool). */
  cancelled: number;
  /** Authorization headers seen (when one is required). */
  authorizations: string[];
  /** Session ids of requests refused as unknown (with `lostSession`). */
  refused: string[];
  port: number;
  /** What each `ask` call got back for its elicitation: the client's result, or `{ error }` when the request failed. */
  elicited: unknown[];
  /** Resolves when `slow` has been called `count` times. */
  slowStarted(count?: number): Promise<void>;
  /** Lets the `steps` calls waiting for it answer. */
  releaseSteps(): void;
  stop(): Promise<void>;
}

export interface McpServerOptions {
  requiredAuthorization?: string;
  /** A port to listen on: the one a stopped server had, to restart it. */
  port?: number;
  /** No sessions: each request is served by a server of its own. */
  stateless?: boolean;
  /**
   * The answer to a request with a session id the server does not know (after a restart): 404 as
   * the specification says (the SDK's own answer), or 400 with a JSON-RPC error as
   * `@modelcontextprotocol/server-everything` answers. Without it, the SDK's transport answers.
   */
  lostSession?: 404 | 400;
  /** Sessions are forgotten as soon as they are made: every request after `initialize` meets an unknown session. */
  forgetSessions?: boolean;
}

export async function startMcpServer(options: McpServerOptions = {}): Promise<TestMcpServer> {
  const calls = new Map<string, number>();
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  const slowWaiters: { count: number; resolve: () => void }[] = [];
  const state = { cancelled: 0 };
  const authorizations: string[] = [];
  const refused: string[] = [];
  const heldSteps: (() => void)[] = [];
  const elicited: unknown[] = [];

  function mcpServer(): McpServer {
    const server = new McpServer({ name: 'test-tools', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
      async ({ text }) => {
        count('echo');
        return { content: [{ type: 'text', text: `echo: ${text}` }] };
      },
    );
    server.registerTool('fail', { description: 'Always reports an error.', inputSchema: {} }, async () => {
      count('fail');
      return { isError: true, content: [{ type: 'text', text: 'the database said no' }] };
    });
    server.registerTool(
      'big',
      { description: 'Answers with many bytes.', inputSchema: { bytes: z.number() }, annotations: { readOnlyHint: true } },
      async ({ bytes }) => {
        count('big');
        return { content: [{ type: 'text', text: 'x'.repeat(bytes) }] };
      },
    );
    server.registerTool(
      'picture',
      { description: 'Draws a chart: a PNG of `bytes` bytes, a PDF report and a sound.', inputSchema: { bytes: z.number() }, annotations: { readOnlyHint: true } },
      async ({ bytes }) => {
        count('picture');
        return {
          content: [
            { type: 'text', text: 'Here is the chart.' },
            { type: 'image', mimeType: 'image/png', data: pngOf(bytes).toString('base64') },
            { type: 'resource', resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: PDF.toString('base64') } },
            { type: 'audio', mimeType: 'audio/wav', data: Buffer.from('RIFF0000WAVEfmt ').toString('base64') },
          ],
        };
      },
    );
    server.registerTool(
      'slow',
      { description: 'Waits, then answers; counts each call.', inputSchema: { ms: z.number() }, annotations: { destructiveHint: true } },
      async ({ ms }, extra) => {
        count('slow');
        for (const waiter of slowWaiters.filter((entry) => (calls.get('slow') ?? 0) >= entry.count)) waiter.resolve();
        await new Promise<void>((resolve, reject) => {
          // Deliberate delay: the tool's work is to take `ms`, so that a call can be stopped midway.
          const timer = setTimeout(resolve, ms);
          extra.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            state.cancelled += 1;
            reject(new Error('cancelled'));
          });
        });
        return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
      },
    );
    server.registerTool(
      'steps',
      {
        description: 'Reports `steps` progress notifications (when asked for them), then waits to be released; counts each call.',
        inputSchema: { steps: z.number(), total: z.boolean().optional() },
        annotations: { readOnlyHint: true },
      },
      async ({ steps, total }, extra) => {
        count('steps');
        const progressToken = extra._meta?.progressToken;
        for (let step = 1; progressToken !== undefined && step <= steps; step += 1) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, ...(total === false ? {} : { total: steps }), message: `step ${step} of ${steps}` },
          });
        }
        await new Promise<void>((resolve) => {
          heldSteps.push(resolve);
          extra.signal.addEventListener('abort', () => resolve());
        });
        return { content: [{ type: 'text', text: `did ${steps} steps` }] };
      },
    );
    server.registerTool(
      'ask',
      {
        description: 'Asks the user to fill in a form during the call (MCP elicitation), then answers with the response.',
        inputSchema: { form: z.enum(['person', 'url', 'nested']).optional() },
      },
      async ({ form }, extra) => {
        count('ask');
        const params = form === 'url' || form === 'nested' ? OTHER_ELICITATIONS[form] : { message: 'Who are you?', requestedSchema: PERSON_FORM };
        try {
          // Sent as part of this call (on its stream), as a tool's own request is; waits as long as the user may take.
          const result = await extra.sendRequest({ method: 'elicitation/create', params: params as never }, ElicitResultSchema, { timeout: 600_000 });
          elicited.push(result);
          return { content: [{ type: 'text', text: `response: ${JSON.stringify(result)}` }] };
        } catch (error) {
          elicited.push({ error: (error as Error).message });
          return { isError: true, content: [{ type: 'text', text: `the elicitation failed: ${(error as Error).message}` }] };
        }
      },
    );
    return server;
  }

  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/mcp' }).end();
      return;
    }
    if (options.requiredAuthorization) {
      const given = req.headers.authorization ?? '';
      authorizations.push(given);
      if (given !== options.requiredAuthorization) {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
        return;
      }
    }
    if (options.stateless) {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await mcpServer().connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport && typeof sessionId === 'string' && options.lostSession) {
      if (req.method === 'POST') refused.push(sessionId);
      const message = options.lostSession === 404 ? 'Session not found' : 'Bad Request: No valid session ID provided';
      const code = options.lostSession === 404 ? -32001 : -32000;
      res.writeHead(options.lostSession, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
      return;
    }
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          if (!options.forgetSessions) sessions.set(id, transport!);
        },
      });
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    redirectUrl: `http://127.0.0.1:${port}/redirect`,
    calls,
    get cancelled() {
      return state.cancelled;
    },
    authorizations,
    refused,
    elicited,
    port,
    releaseSteps() {
      for (const release of heldSteps.splice(0)) release();
    },
    slowStarted(wanted = 1) {
      if ((calls.get('slow') ?? 0) >= wanted) return Promise.resolve();
      return new Promise((resolve) => slowWaiters.push({ count: wanted, resolve }));
    },
    async stop() {
      await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
