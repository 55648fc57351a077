import { fileURLToPath } from 'node:url';

/** How a declared tool server runs test/support/stdio-mcp-server.mjs: with this very Node. */
export const STDIO_SERVER_COMMAND = process.execPath;
export const STDIO_SERVER_ARGS = [fileURLToPath(new URL('./stdio-mcp-server.mjs', import.meta.url))];
