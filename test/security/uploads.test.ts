import http from 'node:http';
import { print, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Uploads: a file is never walked into byte by byte, and an anonymous upload is refused before its
// files are read. Ten files of 5 MB, the default limits.

const FILES = 10;
const FILE_BYTES = 5_000_000;
const BOUNDARY = 'parley-upload-test';

let server: TestServer;
let token: string;
let threadId: string;

beforeAll(async () => {
  server = await startTestServer();
  const agent = await setUpAgent(server);
  token = agent.token;
  threadId = await newThread(server, token, agent.agentId, 'uploads');
});

afterAll(async () => {
  await server?.stop();
});

/** The parts of a GraphQL multipart request with FILES files: the head (operations, map), then each file. */
function multipartParts(fileName: (index: number) => string): Buffer[] {
  const operations = JSON.stringify({
    query: print(SendMessageDocument),
    variables: { threadId, text: 'files', attachments: Array.from({ length: FILES }, () => null) },
  });
  const map = JSON.stringify(Object.fromEntries(Array.from({ length: FILES }, (_, index) => [String(index), [`variables.attachments.${index}`]])));
  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const parts = [Buffer.from(field('operations', operations) + field('map', map))];
  const content = Buffer.alloc(FILE_BYTES, 'a');
  for (let index = 0; index < FILES; index++) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${index}"; filename="${fileName(index)}"\r\ncontent-type: text/plain\r\n\r\n`,
      ),
      content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return parts;
}

interface UploadAnswer {
  status: number;
  body: { errors?: { message: string; extensions?: { code?: string; argument?: string } }[] };
  /** Bytes written when the answer came. */
  sentBeforeAnswer: number;
  total: number;
}

/**
 * Sends the parts as fast as the server reads them, and stops writing as soon as an answer arrives;
 * `allSent` resolves when the last byte was handed to the socket (never, if the answer came first).
 */
function upload(parts: Buffer[], headers: Record<string, string> = {}): { answer: Promise<UploadAnswer>; allSent: Promise<void> } {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  let markAllSent!: () => void;
  const allSent = new Promise<void>((resolve) => (markAllSent = resolve));
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    const request = http.request(server.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(total) },
    });
    let sent = 0;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const sentBeforeAnswer = sent;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), sentBeforeAnswer, total }),
      );
      response.on('error', reject);
    });
    // The server closes the connection of a refused upload; writing on is then an expected error.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    let next = 0;
    const pump = () => {
      while (!answered && !request.destroyed && next < parts.length) {
        const part = parts[next++]!;
        sent += part.length;
        if (!request.write(part)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered && !request.destroyed && next === parts.length) request.end(markAllSent);
    };
    pump();
  });
  return { answer, allSent };
}

async function healthLatencyMs(): Promise<number> {
  const startedAt = performance.now();
  const response = await fetch(server.url.replace('/graphql', '/health'));
  expect(response.status).toBe(200);
  await response.text();
  return performance.now() - startedAt;
}

describe('an anonymous upload', () => {
  it('is refused UNAUTHENTICATED before its files are read, and /health answers meanwhile', async () => {
    const parts = multipartParts((index) => `file-${index}.txt`);
    const { answer } = upload(parts);
    const health = healthLatencyMs();
    const answered = await answer;
    expect(answered.status).toBe(401);
    expect(answered.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // The server answered without waiting for the 50 MB of files.
    expect(answered.sentBeforeAnswer).toBeLessThan(answered.total / 2);
    await health;
  });

  it('with a wrong token is refused the same way', async () => {
    const { answer } = upload(multipartParts((index) => `file-${index}.txt`), { authorization: 'Bearer not-a-token' });
    const answered = await answer;
    expect(answered.status).toBe(401);
    expect(answered.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(answered.sentBeforeAnswer).toBeLessThan(answered.total / 2);
  });
});

describe('a signed-in upload of ten 5 MB files', () => {
  it('has its file names checked without walking the bytes: refused at once, /health fast meanwhile', async () => {
    // The first file's name is checked last by a walk that visits the other files' bytes first.
    const { answer, allSent } = upload(
      multipartParts((index) => (index === 0 ? 'bad\u0000name.txt' : `file-${index}.txt`)),
      { authorization: `Bearer ${token}` },
    );
    await allSent;
    // Asked while the server parses and checks the 50 MB it has just received.
    const latency = await healthLatencyMs();
    const answered = await answer;
    expect(answered.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: '$attachments[0].name' });
    // Walking the bytes took about 0.3 s per MB (15 s here) with /health waiting all along; a
    // generous bound for a loaded machine, far below that.
    expect(latency).toBeLessThan(3_000);
  });
});
