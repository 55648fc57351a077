// A real MCP server over stdio (the SDK's McpServer and StdioServerTransport), run by Parley as a
// declared tool server: `node test/support/stdio-mcp-server.mjs`. Plain JavaScript, so the child
// starts in about a second even on a busy machine (through tsx it took several).
// Its tools answer what a test needs to see of the child's end: what it was given, its pid, its
// environment's names. It logs to stderr (which Parley captures) and exits when its stdin ends.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'stdio-test-tools', version: '1.0.0' });
/** When set, each process appends its pid to this file, so a test can check every one of them has ended. */
if (process.env.STDIO_TEST_PIDS) appendFileSync(process.env.STDIO_TEST_PIDS, `${process.pid}\n`);
const calls = new Map();
const count = (tool) => calls.set(tool, (calls.get(tool) ?? 0) + 1);

server.registerTool(
  'echo',
  { description: 'Echoes the text back, over stdio.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
  async ({ text }) => {
    count('echo');
    process.stderr.write(`echo called with ${text.length} characters\n`);
    return { content: [{ type: 'text', text: `stdio echo: ${text}` }] };
  },
);

server.registerTool('pid', { description: 'Answers the process id of this server.', inputSchema: {} }, async () => {
  count('pid');
  return { content: [{ type: 'text', text: String(process.pid) }] };
});

server.registerTool(
  'env',
  { description: 'Answers the names of the environment variables this server was given, and the working folder.', inputSchema: {} },
  async () => {
    count('env');
    return { content: [{ type: 'text', text: JSON.stringify({ names: Object.keys(process.env).sort(), cwd: process.cwd() }) }] };
  },
);

server.registerTool('fail', { description: 'Always reports an error.', inputSchema: {} }, async () => {
  count('fail');
  return { isError: true, content: [{ type: 'text', text: 'the stdio tool said no' }] };
});

server.registerTool('crash', { description: 'Exits the process at once.', inputSchema: {} }, async () => {
  count('crash');
  process.stderr.write('crashing on purpose\n');
  process.exit(3);
});

// The secret a test declares must never reach the log: printing it here proves Parley blanks it.
if (process.env.STDIO_TEST_SECRET) process.stderr.write(`starting with secret ${process.env.STDIO_TEST_SECRET}\n`);
process.stderr.write('stdio test server ready\n');
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
await server.connect(new StdioServerTransport());
