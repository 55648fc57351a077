import type { ToolInfo, ToolServerStatus } from './tool-catalog.ts';

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
  /** Exactly the environment the child gets (see `ServerEndpoints` in server-endpoints.ts). */
  env: Record<string, string>;
  cwd: string;
  /** Values to blank out of anything shown or logged (the declared env's). */
  secrets: string[];
}

export interface ConnectionState {
  status: ToolServerStatus;
  lastError: string | null;
  tools: ToolInfo[];
}

/** `message` without the endpoint's header values and declared secrets, cut to what a row keeps. */
export function redactedFor(endpoint: ServerEndpoint, message: string): string {
  let redacted = message;
  for (const value of [...Object.values(endpoint.headers), ...(endpoint.stdio?.secrets ?? [])]) {
    if (value.length >= 4) redacted = redacted.split(value).join('[redacted]');
  }
  return redacted.slice(0, 500);
}
