import { print } from 'graphql';
import WebSocket from 'ws';
import { RunEventsDocument } from './documents.ts';
import type { RunEvent } from './run-events.ts';
import { eventually } from './server.ts';

export interface Received {
  id?: string;
  type: string;
  payload?: any;
}

/** A graphql-transport-ws client on a bare `ws` socket, so that a test can stop reading (pause its TCP socket). */
export class RawClient {
  readonly socket: WebSocket;
  readonly received: Received[] = [];
  closed: { code: number; reason: string } | null = null;
  private readonly opened: Promise<void>;

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.socket = new WebSocket(url, 'graphql-transport-ws', options);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('message', (data) => this.received.push(JSON.parse(String(data)) as Received));
    this.socket.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  /** Sends connection_init and waits until the server acknowledges it or closes the socket. */
  async init(payload: Record<string, unknown> = {}): Promise<'acknowledged' | { code: number; reason: string }> {
    await this.opened;
    this.socket.send(JSON.stringify({ type: 'connection_init', payload }));
    await eventually(() => this.closed || this.received.some((message) => message.type === 'connection_ack'), 10_000, 'ack or close');
    return this.closed ?? 'acknowledged';
  }

  subscribe(id: string, threadId: string, after: string | null): void {
    this.socket.send(
      JSON.stringify({ id, type: 'subscribe', payload: { query: print(RunEventsDocument), variables: { threadId, after } } }),
    );
  }

  /**
   * The first message the server sent for subscription `id` (`next`, `error` or `complete`): its
   * first event, or its refusal. Fails if the socket closes before it.
   */
  firstAnswer(id: string, timeoutMs = 15_000): Promise<Received> {
    return eventually(
      () => {
        const first = this.messagesOf(id)[0];
        if (!first && this.closed) throw new Error(`the socket closed (${this.closed.code} ${this.closed.reason}) before subscription ${id} was answered`);
        return first;
      },
      timeoutMs,
      `an answer to subscription ${id}`,
    );
  }

  complete(id: string): void {
    this.socket.send(JSON.stringify({ id, type: 'complete' }));
  }

  /** The events of one subscription, in order. */
  events(id: string): RunEvent[] {
    return this.received
      .filter((message) => message.id === id && message.type === 'next' && message.payload?.data)
      .map((message) => message.payload.data.runEvents as RunEvent);
  }

  messagesOf(id: string): Received[] {
    return this.received.filter((message) => message.id === id);
  }

  /** Stops reading: the server's writes pile up in the kernel's buffers, then in the server. */
  pause(): void {
    (this.socket as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resume(): void {
    (this.socket as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  close(): void {
    this.socket.terminate();
  }
}
