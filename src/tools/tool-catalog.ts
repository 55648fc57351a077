/** What Parley knows of one tool of a tool server (as last listed), stored on the server's row. */
export interface ToolInfo {
  /** The tool's own name on its server. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

export const TOOL_SERVER_STATUSES = ['CONNECTED', 'UNAVAILABLE', 'UNAUTHORIZED'] as const;
export type ToolServerStatus = (typeof TOOL_SERVER_STATUSES)[number];

/** Server names are the first half of `<server>/<tool>`: short, lower case, no slash. */
export const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export function qualifiedToolName(server: string, tool: string): string {
  return `${server}/${tool}`;
}

/** `<server>/<tool>` or `<server>/*`; null for a built-in name. */
export function splitToolName(name: string): { server: string; tool: string } | null {
  const slash = name.indexOf('/');
  if (slash <= 0) return null;
  return { server: name.slice(0, slash), tool: name.slice(slash + 1) };
}

/** A call of a tool that reads only, or that may be repeated with the same effect, can be run again after a crash. */
export function safeToRepeat(tool: Pick<ToolInfo, 'annotations'>): boolean {
  return tool.annotations.readOnlyHint === true || tool.annotations.idempotentHint === true;
}
