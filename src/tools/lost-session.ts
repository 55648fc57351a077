import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What the SDK's transport puts before the body of a refused POST in its error's message. */
const POST_REFUSED = 'Error POSTing to endpoint: ';
/** JSON-RPC's range of implementation-defined server errors, where servers put a refusal of the session. */
const SERVER_ERRORS = { lowest: -32099, highest: -32000 };

/**
 * Whether `error` says the server refused the request because it does not know the client's
 * session (it restarted), before running it: an HTTP 404 to a request that carried a session id
 * (what the MCP specification names for an unknown session), or an HTTP 400 whose JSON-RPC error,
 * answering no request id, is about the session (what `@modelcontextprotocol/server-everything`
 * and the SDK's own server answer). A server that answers with an HTTP error status has not run
 * the request: a call it ran is answered 200 with its result or error. Anything else (a dropped
 * connection, a timeout, a 5xx) may have come after the call ran, so it is never a lost session.
 */
export function isLostSession(error: unknown, sessionId: string | undefined): boolean {
  if (!(error instanceof StreamableHTTPError) || sessionId === undefined) return false;
  if (error.code === 404) return true;
  if (error.code !== 400) return false;
  const refusal = jsonRpcRefusal(error.message);
  return refusal !== null && /session|not initiali[sz]ed/i.test(refusal);
}

/** The session id the client's requests carry: none over HTTP+SSE or stdio, or from a stateless server. */
export function sessionIdOf(client: Client): string | undefined {
  const transport = client.transport;
  return transport instanceof StreamableHTTPClientTransport ? transport.sessionId : undefined;
}

/** The message of a JSON-RPC error that answers no request (id null), from a refused POST's error message. */
function jsonRpcRefusal(message: string): string | null {
  const at = message.indexOf(POST_REFUSED);
  if (at < 0) return null;
  try {
    const body = JSON.parse(message.slice(at + POST_REFUSED.length)) as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown; message?: unknown } };
    if (body.jsonrpc !== '2.0' || body.id !== null || !body.error) return null;
    const code = body.error.code;
    if (typeof code !== 'number' || code < SERVER_ERRORS.lowest || code > SERVER_ERRORS.highest) return null;
    return typeof body.error.message === 'string' ? body.error.message : null;
  } catch {
    return null;
  }
}
