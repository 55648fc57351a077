import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseState, startTestServer, type TestServer } from '../support/server.ts';

// Request bodies are counted as they arrive, chunked or not: an oversized one is refused with 413
// before it is read to its end. Small limits keep the attacks quick.
const MAX_REQUEST_BYTES = 100_000;
const MAX_ATTACHMENT_BYTES = 100_000;
const MAX_ATTACHMENTS = 2;
const MAX_MULTIPART_BYTES = MAX_REQUEST_BYTES + MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES;
const TWENTY_MB = 20_000_000;

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      PARLEY_MAX_REQUEST_BYTES: String(MAX_REQUEST_BYTES),
      PARLEY_MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES),
      PARLEY_MAX_ATTACHMENTS: String(MAX_ATTACHMENTS),
    },
  });
  ({ token } = await server.createUser());
});

afterAll(async () => {
  await server?.stop();
});

interface ChunkedAnswer {
  status: number;
  body: string;
  /** Bytes written when the answer came (all of them if the server read the body to its end). */
  sentBeforeAnswer: number;
}

/**
 * POSTs `head`, then `filler` again and again up to `total` bytes, then `tail`, with
 * `Transfer-Encoding: chunked` (no Content-Length), writing only as fast as the server reads.
 * Stops writing as soon as an answer arrives; a connection the server closes after answering is
 * expected.
 */
function postChunked(headers: Record<string, string>, head: string, filler: Buffer, total: number, tail: string): Promise<ChunkedAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(server.url, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}`, 'transfer-encoding': 'chunked' },
    });
    let sent = 0;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const sentBeforeAnswer = sent;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8'), sentBeforeAnswer }));
      response.on('error', reject);
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = (chunk: Buffer | string) => {
      sent += Buffer.byteLength(chunk);
      return request.write(chunk);
    };
    write(head);
    const pump = () => {
      while (!answered && !request.destroyed && sent < total) {
        if (!write(filler)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered && !request.destroyed) request.end(tail);
    };
    pump();
  });
}

async function typename(): Promise<unknown> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  return response.json();
}

describe('request bodies counted as they stream', () => {
  it('a chunked 20 MB JSON body is refused with 413 long before its end, and nothing changes', async () => {
    const before = await databaseState(server);
    const answer = await postChunked(
      { 'content-type': 'application/json' },
      '{"query":"mutation($name: String!) { createProject(name: $name) { __typename } }","variables":{"name":"',
      Buffer.alloc(64 * 1024, 'a'),
      TWENTY_MB,
      '"}}',
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ message: `Request body over ${MAX_REQUEST_BYTES} bytes.`, extensions: { code: 'BAD_USER_INPUT', requestId: expect.any(String) } }],
    });
    // Refused after about the limit (plus what the socket buffers held), not after 20 MB.
    expect(answer.sentBeforeAnswer).toBeLessThan(TWENTY_MB / 2);
    expect(await databaseState(server)).toEqual(before);
    expect(await typename()).toEqual({ data: { __typename: 'Query' } });
  });

  it('a chunked multipart body over the multipart limit is refused with 413 as it streams', async () => {
    const boundary = 'parleyboundary';
    const operations = JSON.stringify({ query: 'mutation($file: File) { __typename }', variables: { file: null } });
    const head =
      `--${boundary}\r\ncontent-disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="0"; filename="big.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
    const answer = await postChunked(
      { 'content-type': `multipart/form-data; boundary=${boundary}`, 'graphql-require-preflight': '1' },
      head,
      Buffer.alloc(64 * 1024, 'b'),
      TWENTY_MB,
      `\r\n--${boundary}--\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errors[0]).toEqual({
      message: `Request body over ${MAX_MULTIPART_BYTES} bytes.`,
      extensions: { code: 'BAD_USER_INPUT', requestId: expect.any(String) },
    });
    expect(answer.sentBeforeAnswer).toBeLessThan(TWENTY_MB / 2);
    expect(await typename()).toEqual({ data: { __typename: 'Query' } });
  });

  it('a chunked body within the limit is read whole and answered', async () => {
    const padding = 'a'.repeat(MAX_REQUEST_BYTES - 2_000);
    const answer = await postChunked(
      { 'content-type': 'application/json' },
      '{"query":"{ __typename }","variables":{"pad":"',
      Buffer.from(padding.slice(0, 1000)),
      padding.length,
      '"}}',
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ data: { __typename: 'Query' } });
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(TWENTY_MB) },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      });
      request.on('error', reject);
      // Only the headers: the answer must not wait for the body.
      request.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
