/**
 * P2 and C1 floor (child process): a bare graphql-yoga + graphql-ws server, wired like src/server/app.ts
 * (useServer with yoga.getEnveloped on the same HTTP server and path), with one echo subscription on
 * yoga's in-memory pub/sub. The load is produced in this process like the demo model paces a reply:
 * one timer chain per topic publishing TextDelta-sized events, each due at the start plus i·interval.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionArgs } from 'graphql';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { nowMs } from './stats.ts';

interface EchoEvent {
  tag: string;
  text: string;
  offset: number;
  emittedAt: number;
  executionId: string;
  cursor: string;
}
const pubsub = createPubSub<{ echo: [topic: string, event: EchoEvent] }>();
const schema = createSchema({
  typeDefs: /* GraphQL */ `
    type Query { ok: Boolean }
    type Echo { tag: String! text: String! offset: Int! emittedAt: Float! executionId: ID! cursor: String! }
    type Subscription { echo(topic: String!): Echo! }
  `,
  resolvers: {
    Subscription: {
      echo: { subscribe: (_root: unknown, args: { topic: string }) => pubsub.subscribe('echo', args.topic), resolve: (event: EchoEvent) => event },
    },
  },
});
const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', graphiql: false, landingPage: false, logging: false });
const server = createServer((req, res) => void yoga.handle(req, res));
const wsServer = new WebSocketServer({ server, path: '/graphql' });
useServer(
  {
    execute: (args: ExecutionArgs) => (args.rootValue as { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
    subscribe: (args: ExecutionArgs) => (args.rootValue as { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
    onSubscribe: async (ctx, _id, payload) => {
      const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
        ...ctx,
        req: ctx.extra.request,
        socket: ctx.extra.socket,
        params: payload,
      });
      const args: ExecutionArgs = {
        schema,
        operationName: payload.operationName,
        document: parse(payload.query),
        variableValues: payload.variables,
        contextValue: await contextFactory(),
        rootValue: { execute, subscribe },
      };
      const errors = validate(args.schema, args.document);
      return errors.length ? errors : args;
    },
  },
  wsServer,
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

/**
 * The schedule: `topics` streams of `chunks` chunks over `seconds`, chunk i of each due at the
 * start plus i·seconds/chunks (not one interval after the previous one), like `/tokens n over s`.
 */
async function schedule(args: { topics: number; chunks: number; seconds: number; round: string }) {
  const interval = (args.seconds * 1000) / args.chunks;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: args.topics }, (_, topic) => {
      let offset = 0;
      return new Promise<void>((resolve) => {
        const tick = (index: number) => {
          const text = `t${index + 1} `;
          pubsub.publish('echo', `t${topic}`, {
            tag: `${args.round}s${topic}`,
            text,
            offset,
            emittedAt: nowMs(),
            executionId: 'RXhlY3V0aW9uOjExMTExMTExLTExMTEtNDExMS04MTExLTExMTExMTExMTExMQ==',
            cursor: '12.3',
          });
          offset += text.length;
          if (index + 1 >= args.chunks) return resolve();
          setTimeout(() => tick(index + 1), Math.max(0, start + (index + 1) * interval - performance.now()));
        };
        tick(0);
      });
    }),
  );
}

process.on('message', async (message: { id: number; cmd: string; args: never }) => {
  try {
    let result: unknown = true;
    if (message.cmd === 'schedule') await schedule(message.args);
    else if (message.cmd === 'stop') {
      for (const client of wsServer.clients) client.terminate();
      server.close();
      setTimeout(() => process.exit(0), 20);
    }
    process.send!({ id: message.id, ok: true, result });
  } catch (error) {
    process.send!({ id: message.id, ok: false, error: String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', wsUrl: `ws://127.0.0.1:${port}/graphql`, pid: process.pid });
