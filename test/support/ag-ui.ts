import { randomUUID } from 'node:crypto';
import { HttpAgent, type BaseEvent, type Message, type RunAgentParameters } from '@ag-ui/client';

/** The AG-UI endpoint of an agent on a test server (whose `url` is its GraphQL endpoint). */
export function agUiUrl(server: { url: string }, agentId: string): string {
  return server.url.replace(/\/graphql$/, `/ag-ui/agents/${agentId}`);
}

/** An unmodified `@ag-ui/client` HttpAgent signed in with `token`, on a thread of its own unless one is given. */
export function httpAgent(server: { url: string }, token: string, agentId: string, threadId: string = randomUUID()): HttpAgent {
  return new HttpAgent({ url: agUiUrl(server, agentId), headers: { Authorization: `Bearer ${token}` }, threadId });
}

export interface CollectedRun {
  events: BaseEvent[];
  /** What the run failed with, as the client reports it (RUN_ERROR, a refused request). */
  error: unknown;
}

/** Runs the agent to its end and keeps every event it applied. */
export async function runCollecting(agent: HttpAgent, parameters?: RunAgentParameters, onEvent?: (event: BaseEvent) => void): Promise<CollectedRun> {
  const events: BaseEvent[] = [];
  let error: unknown = null;
  try {
    await agent.runAgent(parameters, {
      onEvent: ({ event }) => {
        events.push(event);
        onEvent?.(event);
      },
    });
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

/** A user message as an AG-UI client makes it. */
export function userMessage(content: string, id: string = randomUUID()): Message {
  return { id, role: 'user', content };
}

export function ofType(events: readonly BaseEvent[], type: string): BaseEvent[] {
  return events.filter((event) => event.type === type);
}

/** The text streamed for one message (its TEXT_MESSAGE_CONTENT deltas, joined). */
export function streamedText(events: readonly BaseEvent[]): string {
  return ofType(events, 'TEXT_MESSAGE_CONTENT')
    .map((event) => String(event.delta))
    .join('');
}

/** A raw POST to the endpoint (for what HttpAgent would never send). */
export function postRun(url: string, token: string | null, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
