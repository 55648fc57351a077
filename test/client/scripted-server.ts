import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequest } from '../../packages/client/src/transport.ts';

// A GraphQL endpoint on a free loopback port whose answers a test writes, one per request, to
// drive the client's transport, actions and reads through the cases a real server rarely shows.

export interface SeenRequest {
  contentType: string;
  authorization: string;
  /** The JSON body, or for a multipart request the raw text of its parts. */
  body: string;
  operation: { query: string; variables: Record<string, unknown> } | null;
}

export type Answer = { status?: number; body: unknown };

export async function startScriptedServer(answer: (request: SeenRequest, index: number) => Answer) {
  const seen: SeenRequest[] = [];
  const server = createServer(async (incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const contentType = incoming.headers['content-type'] ?? '';
    let operation: SeenRequest['operation'] = null;
    if (contentType.startsWith('application/json')) operation = JSON.parse(body) as SeenRequest['operation'];
    const request = { contentType, authorization: incoming.headers.authorization ?? '', body, operation };
    seen.push(request);
    const { status = 200, body: reply } = answer(request, seen.length - 1);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A scripted endpoint and the client's request to it; the server is closed through `closers`. */
export async function scriptedRequest(answer: (request: SeenRequest, index: number) => Answer, closers: (() => Promise<void> | void)[]) {
  const server = await startScriptedServer(answer);
  closers.push(server.close);
  return { server, request: createRequest({ url: server.url, token: 'plr_t' }) };
}
