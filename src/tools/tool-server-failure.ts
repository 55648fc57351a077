import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { redactedFor, type ServerEndpoint } from './server-endpoint.ts';
import type { ToolServerStatus } from './tool-catalog.ts';
import { RefusedUrl } from './url-guard.ts';

/** A tool server's refusal or failure, already worded for people (never with a header value). */
export class ToolServerFailure extends Error {
  constructor(
    readonly status: ToolServerStatus,
    message: string,
  ) {
    super(message);
  }
}

/** The failure as people read it; a header value the server echoed is blanked out. */
export function failureOf(error: unknown, endpoint: ServerEndpoint): ToolServerFailure {
  if (error instanceof ToolServerFailure) return error;
  const code = error instanceof StreamableHTTPError ? error.code : undefined;
  if (code === 401 || code === 403) return new ToolServerFailure('UNAUTHORIZED', `UNAUTHORIZED (HTTP ${code})`);
  if (error instanceof Error && error.name === 'UnauthorizedError') return new ToolServerFailure('UNAUTHORIZED', 'UNAUTHORIZED (HTTP 401)');
  let message: string;
  if (error instanceof RefusedUrl) message = `The URL was refused: ${error.message}`;
  else if (code !== undefined && code > 0) message = `the tool server answered HTTP ${code}.`;
  else message = `the tool server is unreachable: ${describe(error)}`;
  return new ToolServerFailure('UNAVAILABLE', redactedFor(endpoint, message));
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
