import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { isLostSession } from '../lost-session.ts';

/** The error the SDK's transport throws when a POST is answered `status` with `body`. */
const refused = (status: number, body: unknown) =>
  new StreamableHTTPError(status, `Error POSTing to endpoint: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

describe('isLostSession', () => {
  it('is a 404, or a 400 refusing the session, to a request that carried a session id', () => {
    expect(isLostSession(refused(404, jsonRpcError(-32001, 'Session not found')), 'abc')).toBe(true);
    expect(isLostSession(refused(404, 'Not Found'), 'abc')).toBe(true);
    expect(isLostSession(refused(400, jsonRpcError(-32000, 'Bad Request: No valid session ID provided')), 'abc')).toBe(true);
    expect(isLostSession(refused(400, jsonRpcError(-32000, 'Bad Request: Server not initialized')), 'abc')).toBe(true);
  });

  it('is never what may have come after the call ran, nor a refusal of something else', () => {
    // No session was sent (a stateless server, HTTP+SSE): a 404 is the endpoint's, not a session's.
    expect(isLostSession(refused(404, jsonRpcError(-32001, 'Session not found')), undefined)).toBe(false);
    expect(isLostSession(refused(500, jsonRpcError(-32000, 'session store down')), 'abc')).toBe(false);
    expect(isLostSession(refused(400, jsonRpcError(-32602, 'Invalid session argument')), 'abc')).toBe(false);
    expect(isLostSession(refused(400, { jsonrpc: '2.0', error: { code: -32000, message: 'No valid session' }, id: 7 }), 'abc')).toBe(false);
    expect(isLostSession(refused(400, 'Bad Request: No valid session ID provided'), 'abc')).toBe(false);
    expect(isLostSession(refused(400, jsonRpcError(-32000, 'Bad Request: Unsupported protocol version')), 'abc')).toBe(false);
    expect(isLostSession(new TypeError('fetch failed'), 'abc')).toBe(false);
    expect(isLostSession(new StreamableHTTPError(-1, 'Unexpected content type: text/html'), 'abc')).toBe(false);
  });
});
