/** Minimal clients: a raw graphql-ws (graphql-transport-ws) subscriber and a GraphQL-over-HTTP call. */
import WebSocket from 'ws';
import { nowMs } from './stats.ts';

export interface WsSubscription {
  socket: WebSocket;
  close(): void;
}

/**
 * Opens one WebSocket, does connection_init/ack and sends one subscribe. `onNext` gets the receive
 * time (taken first thing in the 'message' handler, before JSON parsing) and the `data` of each event.
 */
export function openSubscription(
  wsUrl: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown>,
  onNext: (receivedAt: number, data: any) => void,
  onError: (error: unknown) => void = () => {},
): Promise<WsSubscription> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { perMessageDeflate: false });
    let acked = false;
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('connection_ack timed out'));
    }, 30_000);
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} }));
    });
    socket.on('message', (raw) => {
      const receivedAt = nowMs();
      const message = JSON.parse(raw.toString());
      switch (message.type) {
        case 'connection_ack':
          acked = true;
          clearTimeout(timer);
          socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
          resolve({ socket, close: () => socket.close(1000) });
          break;
        case 'next':
          if (message.payload?.errors) onError(message.payload.errors);
          if (message.payload?.data) onNext(receivedAt, message.payload.data);
          break;
        case 'error':
          onError(message.payload);
          break;
        case 'ping':
          socket.send(JSON.stringify({ type: 'pong' }));
          break;
        default:
          break;
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (!acked) reject(error);
      else onError(error);
    });
  });
}

export async function graphqlHttp<T = any>(
  url: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown>,
): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) throw new Error(`GraphQL error: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
  return body.data;
}

export const SEND_MESSAGE = /* GraphQL */ `
  mutation BenchSend($threadId: ID!, $text: String!) {
    sendMessage(threadId: $threadId, text: $text) {
      __typename
      ... on MessageQueued { queueId }
      ... on Error { message code }
    }
  }
`;

export const RUN_EVENTS = /* GraphQL */ `
  subscription BenchRunEvents($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      ... on ExecutionStarted { executionId acceptedText }
      ... on TextDelta { executionId text offset }
      ... on ExecutionFinished { executionId status }
      ... on MessageQueued { cursor }
    }
  }
`;

export async function sendMessage(url: string, token: string, threadId: string, text: string): Promise<void> {
  const data = await graphqlHttp<{ sendMessage: { __typename: string; message?: string } }>(url, token, SEND_MESSAGE, {
    threadId,
    text,
  });
  if (data.sendMessage.__typename !== 'MessageQueued') throw new Error(`sendMessage: ${JSON.stringify(data.sendMessage)}`);
}

export async function inPool<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await work(index);
      }
    }),
  );
  return results;
}

export const CONVERSATION = /* GraphQL */ `
  query BenchConversation($threadId: ID!) {
    conversation(threadId: $threadId) {
      eventCursor
      activeExecutionId
      messages(first: 50) {
        pageInfo { hasNextPage endCursor }
        edges { node { id role createdAt parts { __typename ... on TextPart { text } } } }
      }
    }
  }
`;
export const REPLAY_QUERY = /* GraphQL */ `
  subscription BenchReplay($threadId: ID!, $after: String) {
    runEvents(threadId: $threadId, after: $after) {
      __typename
      ... on MessageQueued { cursor queueId text }
      ... on ExecutionStarted { cursor executionId acceptedText }
      ... on QueueUpdated { cursor }
      ... on ExecutionFinished { cursor executionId status }
      ... on MessageSnapshot { cursor messageId textLength parts { __typename ... on TextPart { text } } }
    }
  }
`;
