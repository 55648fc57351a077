import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { acquireDataDirLock } from '../../src/db/embedded-lock.ts';
import { chooseEncoding } from '../../src/server/plugins/use-graphiql-delivery.ts';
import { graphiqlEnabled } from '../../src/server/yoga.ts';
import { describeWithServices } from '../support/backends.ts';
import { isolatedEnv, startTestServer, type TestServer } from '../support/server.ts';

// What the HTTP answers carry besides their data: GraphiQL's delivery, CSRF prevention, parse
// errors that quote nothing, and the embedded data folder's permissions.

const QUERY = JSON.stringify({ query: '{ __typename }' });

describe('GraphiQL on the embedded default', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** node's http client, which does not decompress: the bytes and headers as they were sent. */
  async function rawPage(headers: Record<string, string>) {
    const { request } = await import('node:http');
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }>((resolve, reject) => {
      request(server.url, { headers: { accept: 'text/html', ...headers } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes }));
      })
        .on('error', reject)
        .end();
    });
  }

  it('is sent compressed as the client accepts, with an ETag that answers 304, nosniff and a Referrer-Policy', async () => {
    const plain = await rawPage({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes).toBeGreaterThan(5_000_000);

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const page = await rawPage({ 'accept-encoding': accept });
      expect(page.headers['content-encoding'], accept).toBe(encoding);
      expect(page.bytes, accept).toBeLessThan(plain.bytes / 3);
      expect(page.headers.vary).toContain('Accept-Encoding');
    }
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['referrer-policy']).toBe('no-referrer');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const revalidated = await rawPage({ 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.bytes).toBe(0);
  });

  it('reads Accept-Encoding as HTTP does', () => {
    expect(chooseEncoding(null)).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('br;q=0.5, gzip;q=1')).toBe('br');
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('gzip');
  });
});

describe('GraphiQL outside the embedded mode', () => {
  it('is off by default with DATABASE_URL, and on with PARLEY_GRAPHIQL=true', () => {
    expect(graphiqlEnabled(loadConfig({}))).toBe(true);
    expect(graphiqlEnabled(loadConfig({ DATABASE_URL: 'postgresql://db/parley' }))).toBe(false);
    expect(graphiqlEnabled(loadConfig({ DATABASE_URL: 'postgresql://db/parley', PARLEY_GRAPHIQL: 'true' }))).toBe(true);
    expect(graphiqlEnabled(loadConfig({ PARLEY_GRAPHIQL: 'false' }))).toBe(false);
  });
});

describeWithServices('GraphiQL with PostgreSQL', () => {
  const servers: TestServer[] = [];

  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it('is not served by default, and is with PARLEY_GRAPHIQL=true', async () => {
    const off = await startTestServer({ backend: 'postgres' });
    servers.push(off);
    const offPage = await fetch(off.url, { headers: { accept: 'text/html' } });
    expect(offPage.headers.get('content-type') ?? '').not.toContain('text/html');
    await offPage.body?.cancel();

    const on = await startTestServer({ env: { ...isolatedEnv('postgres'), PARLEY_GRAPHIQL: 'true' } });
    servers.push(on);
    const onPage = await fetch(on.url, { headers: { accept: 'text/html' } });
    expect(onPage.headers.get('content-type')).toContain('text/html');
    expect(await onPage.text()).toContain('GraphiQL');
  });
});

describe('requests a browser sends without asking', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('are refused (CSRF prevention) unless they carry Authorization or a CSRF header; JSON POSTs pass', async () => {
    const form = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent('{ __typename }')}`,
    });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain('CSRF');
    const get = await fetch(`${server.url}?query=${encodeURIComponent('{ __typename }')}`);
    expect(get.status).toBe(403);
    await get.body?.cancel();

    const passing: Record<string, string>[] = [{ authorization: 'Bearer anything' }, { 'x-graphql-yoga-csrf': '1' }, { 'graphql-require-preflight': '1' }];
    for (const headers of passing) {
      const allowed = await fetch(`${server.url}?query=${encodeURIComponent('{ __typename }')}`, { headers });
      expect(await allowed.json(), JSON.stringify(headers)).toEqual({ data: { __typename: 'Query' } });
    }
    const json = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
    expect(await json.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('a body that is not JSON gets an error that quotes none of it', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": "secret-body-text',
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('invalid JSON');
    expect(text).not.toContain('secret-body-text');
  });
});

describe('the embedded data folder', () => {
  it('is created readable by its owner only', () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'parley-mode-'));
    try {
      const dataDir = path.join(parent, 'data');
      const release = acquireDataDirLock(dataDir);
      release();
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
