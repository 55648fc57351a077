import { AsyncLocalStorage } from 'node:async_hooks';
import type { ElicitRequest, ElicitResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** A form-mode elicitation as the SDK has checked it (URL mode and other field types never get here). */
export type FormElicitation = Extract<ElicitRequest['params'], { requestedSchema: unknown }>;

/** Asks the user of the call for what the server wants; settles with the user's answer, or `cancel` once `signal` aborts. */
export type Elicit = (request: FormElicitation, signal: AbortSignal) => Promise<ElicitResult>;

/** One tools/call in flight on a connection, and who may be asked on its behalf. */
export interface InFlightCall {
  /** Absent when the call's run cannot ask anyone (a probe, a run without a thread's user). */
  elicit?: Elicit;
  /** Aborted when the call ends however it ends (its answer, its timeout, a Stop): an open question closes with it. */
  ended: AbortController;
}

/** Which call each elicitation of one client's session belongs to, by the server's request id. */
export type Relations = Map<RequestId, InFlightCall>;

/**
 * Finds the tool call a server's `elicitation/create` belongs to, when one MCP client is shared by
 * every run of a connection. Over streamable HTTP a server sends a request that belongs to a call
 * on the SSE stream answering the POST of that call: every fetch made while the call is being sent
 * (`within`) runs in the call's async context, so `watching` knows whose stream it reads and
 * records "request E belongs to call X" as the event passes, before the transport hands the
 * request to the client's handler. A request with no relation (stdio, HTTP+SSE, a server that
 * sends it on its standalone stream) belongs to the connection's only call in flight; with none or
 * several it is refused, so a question is never put to the wrong user.
 */
export class ElicitationRouting {
  private readonly current = new AsyncLocalStorage<InFlightCall>();
  private readonly inFlight = new Set<InFlightCall>();

  /** Runs `send` (the call) as `call`: what its fetches bring back is related to it. */
  async within<T>(call: InFlightCall, send: () => Promise<T>): Promise<T> {
    this.inFlight.add(call);
    try {
      return await this.current.run(call, send);
    } finally {
      this.inFlight.delete(call);
      call.ended.abort();
    }
  }

  /** `fetch` that relates each elicitation arriving on a call's SSE stream to that call, in `relations`. */
  watching(fetch: typeof globalThis.fetch, relations: Relations): typeof globalThis.fetch {
    return async (input, init) => {
      const call = this.current.getStore();
      const response = await fetch(input, init);
      if (!call || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
      const related = response.body.pipeThrough(sseRequests((id) => relations.set(id, call)));
      return new Response(related, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }

  /** The answer to the server's elicitation `requestId`, from the user of the call it belongs to. */
  async answer(request: FormElicitation, requestId: RequestId, relations: Relations, serverSignal: AbortSignal): Promise<ElicitResult> {
    const related = relations.get(requestId);
    relations.delete(requestId);
    const only = this.inFlight.size === 1 ? [...this.inFlight][0] : undefined;
    const call = related && this.inFlight.has(related) ? related : only;
    if (!call?.elicit) {
      throw new McpError(ErrorCode.InvalidRequest, 'Parley cannot tell which tool call this elicitation belongs to: it must come during one call.');
    }
    return call.elicit(request, AbortSignal.any([serverSignal, call.ended.signal]));
  }
}

/**
 * Passes an SSE stream through unchanged, telling `onRequest` the id of each `elicitation/create`
 * request in it as soon as its event is complete (before the reader downstream sees that event).
 */
function sseRequests(onRequest: (id: RequestId) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending = '';
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const events = pending.split(/\r\n\r\n|\n\n|\r\r/);
      pending = events.pop() ?? '';
      for (const event of events) {
        const id = elicitationIdOf(event);
        if (id !== undefined) onRequest(id);
      }
      controller.enqueue(chunk);
    },
  });
}

function elicitationIdOf(event: string): RequestId | undefined {
  const data = event
    .split(/\r\n|\n|\r/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (!data.includes('elicitation/create')) return undefined;
  try {
    const message = JSON.parse(data) as { method?: unknown; id?: unknown };
    if (message.method !== 'elicitation/create') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}
