import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { print } from 'graphql';
import { RunEventsDocument } from './documents.ts';
import type { RunEvent } from './run-events.ts';
import { eventually, type GraphQLResponse } from './server.ts';

export type SseResult = GraphQLResponse<{ runEvents: RunEvent }>;

/**
 * A thread's runEvents over Yoga's SSE (one POST with `Accept: text/event-stream`), read as it
 * comes, on a response a test can stop reading.
 */
export class SseSubscription {
  /** Every result (`event: next`) so far, in order: events, or the errors the subscription ended with. */
  readonly results: SseResult[] = [];
  /** Yoga's keep-alive comment came before any result: the subscription runs, with nothing to send yet. */
  opened = false;
  /** The server ended the response. */
  ended = false;
  private response: IncomingMessage | null = null;
  private readonly request: ClientRequest;

  constructor(server: { url: string }, token: string | null, threadId: string, after: string | null = '0') {
    this.request = httpRequest(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    let buffered = '';
    this.request.on('response', (response) => {
      this.response = response;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (message.startsWith(':') && this.results.length === 0) this.opened = true;
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (/^event: next$/m.test(message) && data) this.results.push(JSON.parse(data.slice('data: '.length)) as SseResult);
        }
      });
      response.on('end', () => (this.ended = true));
    });
    this.request.on('error', () => (this.ended = true));
    this.request.end(JSON.stringify({ query: print(RunEventsDocument), variables: { threadId, after } }));
  }

  /** The events received so far, in order. */
  get events(): RunEvent[] {
    return this.results.flatMap((result) => (result.data ? [result.data.runEvents] : []));
  }

  /**
   * The subscription's first answer: its first result (an event, or its refusal), or 'open' when
   * Yoga's keep-alive came first (the subscription runs and has nothing to send yet). Only a result
   * means it is live for every later event, as `Follower.ready` says. Fails if the stream ends first.
   */
  firstAnswer(timeoutMs = 15_000): Promise<SseResult | 'open'> {
    return eventually(
      () => {
        const answer = this.results[0] ?? (this.opened ? ('open' as const) : undefined);
        if (answer === undefined && this.ended) throw new Error('the SSE stream ended without an answer');
        return answer;
      },
      timeoutMs,
      'an answer over SSE',
    );
  }

  /** Stops reading: the server's writes pile up in the socket's buffers, then in the server. */
  pause(): void {
    this.response!.pause();
  }

  resume(): void {
    this.response!.resume();
  }

  close(): void {
    this.request.destroy();
  }
}
