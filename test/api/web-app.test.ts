import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { GRAPHIQL_CONTENT_SECURITY_POLICY } from '../../src/server/plugins/use-graphiql-csp.ts';
import { useWebApp, WEB_APP_CONTENT_SECURITY_POLICY, WEB_APP_DIRECTORY } from '../../src/server/plugins/use-web-app.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The web chat as `parley serve` hands it out: its page and assets at / with their own strict
// policy, GraphiQL untouched at /graphql, nothing else of the disk, and PARLEY_WEB=false.

describe('the web chat served at /', () => {
  let server: TestServer;
  let origin: string;

  beforeAll(async () => {
    await ensureWebAppBuilt();
    server = await startTestServer();
    origin = new URL(server.url).origin;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers / with the built page and its assets, each under the strict policy', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(WEB_APP_CONTENT_SECURITY_POLICY);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/.exec(html)?.[1];
    expect(script && style, html).toBeTruthy();
    // Everything the page loads comes from the origin: no absolute URL in its HTML.
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    // Without PARLEY_WEB_TOKEN_URL the page connects to its own origin only and names no token URL.
    expect(loadConfig({}).PARLEY_WEB_TOKEN_URL).toBeUndefined();
    expect(WEB_APP_CONTENT_SECURITY_POLICY).toContain("; connect-src 'self'; ");
    expect(html).not.toContain('parley-token-url');

    const js = await fetch(`${origin}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    const css = await fetch(`${origin}${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    const head = await fetch(`${origin}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('leaves GraphiQL its own policy at /graphql', async () => {
    const graphiql = await fetch(server.url, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    expect(graphiql.headers.get('content-security-policy')).toBe(GRAPHIQL_CONTENT_SECURITY_POLICY);
  });

  it('serves nothing else from the disk: unknown assets, other paths and traversal are 404', async () => {
    const built = readdirSync(path.join(WEB_APP_DIRECTORY, 'assets'));
    expect(built.length).toBeGreaterThan(0);
    for (const pathname of ['/assets/missing-abc.js', '/assets/..%2f..%2fpackage.json', '/assets/%2e%2e%2findex.html', '/assets/x.map', '/package.json', '/web/dist/index.html', '/src/main.tsx']) {
      const response = await fetch(`${origin}${pathname}`);
      expect(response.status, pathname).toBe(404);
      await response.body?.cancel();
    }
  });
});

describe('PARLEY_WEB=false', () => {
  it('serves no web chat; GraphiQL and the API stay', async () => {
    expect(loadConfig({}).PARLEY_WEB).toBe(true);
    expect(() => loadConfig({ PARLEY_WEB: 'off' })).toThrow(/PARLEY_WEB/);
    const server = await startTestServer({ env: { PARLEY_WEB: 'false' } });
    try {
      const origin = new URL(server.url).origin;
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-security-policy')).toBeNull();
      await page.body?.cancel();
      const graphiql = await fetch(server.url, { headers: { accept: 'text/html' } });
      expect(graphiql.status).toBe(200);
      await graphiql.body?.cancel();
    } finally {
      await server.stop();
    }
  });
});

describe('useWebApp without a build', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'parley-web-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const yogaOn = (root: string) =>
    createYoga({
      schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
      graphiql: false,
      landingPage: false,
      plugins: [useWebApp({ directory: root })],
    });

  it('with a token URL, names it in the page (escaped) and lets the page connect to its origin only', async () => {
    expect(() => loadConfig({ PARLEY_WEB_TOKEN_URL: 'app.example.com/token' })).toThrow(/PARLEY_WEB_TOKEN_URL/);
    expect(() => loadConfig({ PARLEY_WEB_TOKEN_URL: 'javascript:alert(1)' })).toThrow(/PARLEY_WEB_TOKEN_URL/);
    const tokenUrl = 'https://app.example.com/parley-token?for="chat"&x=<y>';
    expect(loadConfig({ PARLEY_WEB_TOKEN_URL: tokenUrl }).PARLEY_WEB_TOKEN_URL).toBe(tokenUrl);
    const root = mkdtempSync(path.join(tmpdir(), 'parley-web-'));
    try {
      mkdirSync(path.join(root, 'assets'));
      writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>built</title></head><body></body></html>');
      writeFileSync(path.join(root, 'assets/index-abc.js'), 'export {}');
      const yoga = createYoga({
        schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
        graphiql: false,
        landingPage: false,
        plugins: [useWebApp({ directory: root, tokenUrl })],
      });
      const page = await yoga.fetch('http://parley.test/');
      const policy = page.headers.get('content-security-policy');
      expect(policy).toBe(WEB_APP_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", "connect-src 'self' https://app.example.com"));
      expect(await page.text()).toContain(
        '<meta name="parley-token-url" content="https://app.example.com/parley-token?for=&quot;chat&quot;&amp;x=&lt;y&gt;" />\n</head>',
      );
      const asset = await yoga.fetch('http://parley.test/assets/index-abc.js');
      expect(asset.headers.get('content-security-policy')).toBe(policy);
      expect(await asset.text()).toBe('export {}');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('answers / saying how to build it, then serves the build once it is there', async () => {
    const missing = await yogaOn(directory).fetch('http://parley.test/');
    expect(missing.status).toBe(503);
    expect(await missing.text()).toContain('npm run build:web');

    mkdirSync(path.join(directory, 'assets'));
    writeFileSync(path.join(directory, 'index.html'), '<!doctype html><title>built</title>');
    writeFileSync(path.join(directory, 'assets/index-abc.js'), 'export {}');
    const yoga = yogaOn(directory);
    expect(await (await yoga.fetch('http://parley.test/')).text()).toContain('built');
    expect((await yoga.fetch('http://parley.test/assets/index-abc.js')).status).toBe(200);
    expect((await yoga.fetch('http://parley.test/assets/index-abd.js')).status).toBe(404);
  });
});
