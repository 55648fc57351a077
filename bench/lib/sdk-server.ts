/**
 * C1's AI SDK floor (child process): the least a server that streams a model through the AI SDK
 * can do. `sendMessage` over HTTP starts the AI SDK's `streamText` on the demo model (the fake
 * provider Parley's C1 replies run on: `/tokens 900 over 30`, chunk i due at the start plus i·30/900 s)
 * with Parley's runtime options, reads its `fullStream` as Parley's runtime does, and forwards
 * every text chunk to the thread's one subscriber over bare graphql-ws (`useServer` with a
 * graphql-js schema: no Yoga, no envelop, no database, no Redis, no recording, no auth).
 * Its schema answers the same operations as Parley's (`sendMessage` → MessageQueued, `runEvents`
 * → TextDelta { offset text } | ExecutionFinished { status }), so C1's client harness
 * (bench/lib/replies.ts) drives it unchanged. The emit time of each chunk is taken where
 * host.ts's recorder takes Parley's: when the chunk leaves the stream read, before it is sent.
 * IPC commands: setupThreads, emitsByTag, profileStart, profileStop, stop.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { buildSchema, graphql } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { stepCountIs, streamText } from 'ai';
import { createDemoModel } from '../../src/models/demo/model.ts';
import { profileStart, profileStop } from './inspector-profile.ts';
import { EmitLog } from './emit-log.ts';

const schema = buildSchema(/* GraphQL */ `
  type Query { ok: Boolean }
  interface Error { message: String! code: String! }
  type MessageQueued { queueId: ID! }
  type SendFailed implements Error { message: String! code: String! }
  union SendMessageResult = MessageQueued | SendFailed
  type Mutation { sendMessage(threadId: ID!, text: String!): SendMessageResult! }
  type TextDelta { offset: Int! text: String! }
  type ExecutionFinished { status: String! }
  union RunEvent = TextDelta | ExecutionFinished
  type Subscription { runEvents(threadId: ID!): RunEvent! }
`);

type Event = { runEvents: { __typename: 'TextDelta'; offset: number; text: string } | { __typename: 'ExecutionFinished'; status: string } };

/** One subscriber's events: a queue read by graphql-ws's for-await, with nothing in between. */
class Channel implements AsyncIterableIterator<Event> {
  private queue: Event[] = [];
  private waiting: ((result: IteratorResult<Event>) => void) | null = null;
  private closed = false;
  constructor(private readonly onClose: () => void) {}
  push(value: Event): void {
    if (this.closed) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting({ value, done: false });
    } else this.queue.push(value);
  }
  next(): Promise<IteratorResult<Event>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }
  return(): Promise<IteratorResult<Event>> {
    this.closed = true;
    this.queue = [];
    this.onClose();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = null;
    return Promise.resolve({ value: undefined, done: true });
  }
  [Symbol.asyncIterator]() {
    return this;
  }
}

const subscribers = new Map<string, Channel>();
const tags = new Map<string, string>();
const model = createDemoModel();
const emits = new EmitLog();

/** One reply: streamText with Parley's runtime options, every text chunk forwarded as it is read. */
async function reply(threadId: string, text: string): Promise<void> {
  const tag = tags.get(threadId);
  const system = tag ? `TAG${tag}` : undefined;
  const controller = new AbortController();
  const result = streamText({
    model,
    system,
    messages: [{ role: 'user', content: text }],
    maxRetries: 0,
    abortSignal: controller.signal,
    stopWhen: stepCountIs(1),
    onStepFinish: () => {},
    onError: () => {},
  });
  let offset = 0;
  let status = 'COMPLETED';
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (part.text.length === 0) continue;
        if (tag) emits.record(tag, offset);
        subscribers.get(threadId)?.push({ runEvents: { __typename: 'TextDelta', offset, text: part.text } });
        offset += part.text.length;
      } else if (part.type === 'error') throw part.error;
    }
  } catch {
    status = 'FAILED';
  }
  subscribers.get(threadId)?.push({ runEvents: { __typename: 'ExecutionFinished', status } });
}

const roots = {
  mutation: {
    sendMessage: ({ threadId, text }: { threadId: string; text: string }) => {
      void reply(threadId, text);
      return { __typename: 'MessageQueued', queueId: randomUUID() };
    },
  },
  subscription: {
    runEvents: ({ threadId }: { threadId: string }) => {
      subscribers.get(threadId)?.return();
      const channel = new Channel(() => {
        if (subscribers.get(threadId) === channel) subscribers.delete(threadId);
      });
      subscribers.set(threadId, channel);
      return channel;
    },
  },
};

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  const { query, variables } = JSON.parse(await body(req));
  const result = await graphql({ schema, source: query, variableValues: variables, rootValue: roots.mutation });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
});
const wsServer = new WebSocketServer({ server, path: '/graphql' });
useServer({ schema, roots: roots as never }, wsServer);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

const commands: Record<string, (args: never) => unknown> = {
  setupThreads: (args: { count: number; tagPrefix?: string }) =>
    Array.from({ length: args.count }, (_, index) => {
      const threadId = randomUUID();
      const tag = `${args.tagPrefix ?? 'f'}${index}`;
      tags.set(threadId, tag);
      return { threadId, token: 'floor', tag };
    }),
  emitsByTag: () => emits.takeByTag(),
  profileStart,
  profileStop,
  stop: () => {
    for (const client of wsServer.clients) client.terminate();
    server.close();
    setTimeout(() => process.exit(0), 20);
    return true;
  },
};

process.on('message', async (message: { id: number; cmd: string; args: never }) => {
  try {
    const result = await commands[message.cmd]!(message.args);
    process.send!({ id: message.id, ok: true, result });
  } catch (error) {
    process.send!({ id: message.id, ok: false, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}/graphql`, wsUrl: `ws://127.0.0.1:${port}/graphql`, pid: process.pid });
