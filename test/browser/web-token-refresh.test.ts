import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { webAppContentSecurityPolicy } from '../../src/server/plugins/use-web-app.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { ViewerDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The web chat of a product whose users sign in with short-lived JWTs (PARLEY_WEB_TOKEN_URL): a
// "product" server of the test's own answers a fresh JWT at /token for its session cookie, and the
// chat swaps its token before each expires, so a reply longer than several tokens' lives streams on.

announceSkip('the web chat token refresh test');

const ISSUER = 'https://id.example.test/';
const AUDIENCE = 'parley-api';
const SECRET = 'a shared secret of the tests, long enough for HS256';
const TOKEN_LIFETIME_S = 4;
const SESSION_COOKIE = 'product-session';
const SETUP_TIMEOUT_MS = 180_000;
const WAIT = { timeout: 30_000 };
/** The reply of `/slow 12`: over 11 s, more than two tokens' lives. */
const COUNTING_12 = `Counting: ${Array.from({ length: 48 }, (_, index) => index + 1).join(' ')}`;

function sign(subject: string, lifetimeS: number): Promise<string> {
  return new SignJWT({ sub: subject })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${lifetimeS}s`)
    .sign(new TextEncoder().encode(SECRET));
}

describe.skipIf(skipBrowserSuite)('the web chat with the product’s token URL, in Chromium', () => {
  let product: Server;
  let productOrigin: string;
  let server: TestServer;
  let chatOrigin: string;
  let browser: Browser;
  const subject = `web-refresh-${randomUUID()}`;
  const sessionId = randomUUID();
  const tokenCalls: { cookie: boolean }[] = [];

  beforeAll(async () => {
    requireChromium();
    // The product's backend: a fresh JWT for its signed-in session, to the chat's origin only.
    product = createServer((request, response) => {
      if (request.url !== '/token') return response.writeHead(404).end();
      const withSession = (request.headers.cookie ?? '').includes(`${SESSION_COOKIE}=${sessionId}`);
      tokenCalls.push({ cookie: withSession });
      const cors = { 'access-control-allow-origin': chatOrigin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
      if (!withSession) return response.writeHead(401, cors).end();
      void sign(subject, TOKEN_LIFETIME_S).then((token) =>
        response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ token })),
      );
    });
    await new Promise<void>((resolve) => product.listen(0, '127.0.0.1', resolve));
    productOrigin = `http://127.0.0.1:${(product.address() as AddressInfo).port}`;
    const [started] = await Promise.all([
      startTestServer({
        env: {
          PARLEY_AUTH_JWT_SECRET: SECRET,
          PARLEY_AUTH_ISSUER: ISSUER,
          PARLEY_AUTH_AUDIENCE: AUDIENCE,
          PARLEY_WEB_TOKEN_URL: `${productOrigin}/token`,
        },
      }),
      ensureWebAppBuilt(),
    ]);
    server = started;
    chatOrigin = new URL(server.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => product?.close(resolve));
  }, SETUP_TIMEOUT_MS);

  it('names the token URL to the page and lets it connect to that origin only', async () => {
    const page = await fetch(`${chatOrigin}/`);
    expect(page.headers.get('content-security-policy')).toBe(webAppContentSecurityPolicy(`${productOrigin}/token`));
    expect(page.headers.get('content-security-policy')).toContain(`connect-src 'self' ${productOrigin};`);
    expect(await page.text()).toContain(`<meta name="parley-token-url" content="${productOrigin}/token" />`);
  });

  it('streams a reply that outlives several JWTs, refreshing each from the product, and stays signed in', async () => {
    const longLived = await sign(subject, 3600);
    const { viewer } = await requestData(server, ViewerDocument, {}, longLived);
    const { agentId } = await setUpAgent(server, { project: 'Product', user: { userId: decodeId('id', viewer!.id, 'User'), token: longLived } });
    const threadId = await newThread(server, longLived, agentId);

    const context = await browser.newContext();
    // The product's session cookie, as its own sign-in would have set it.
    await context.addCookies([{ name: SESSION_COOKIE, value: sessionId, url: productOrigin }]);
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if ([chatOrigin, productOrigin].includes(new URL(url).origin)) return route.continue();
      outside.push(url);
      return route.abort('internetdisconnected');
    });
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    const firstToken = await sign(subject, TOKEN_LIFETIME_S);
    await page.goto(`${chatOrigin}/#${new URLSearchParams({ token: firstToken, thread: threadId })}`);
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    await page.locator('#composer-text').fill('/slow 12');
    await page.locator('#composer-text').press('Enter');
    const reply = page.locator('.message.reply').last();
    await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toBe('COMPLETED');

    expect((await reply.locator(':scope > .text').allInnerTexts()).join('')).toBe(COUNTING_12);
    // Still signed in, on a fresher token than the link's, fetched with the product's cookie.
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expect(await page.locator('#token').count()).toBe(0);
    const stored = await page.evaluate(() => sessionStorage.getItem('parley:token'));
    expect(stored).not.toBe(firstToken);
    expect(tokenCalls.length).toBeGreaterThanOrEqual(2);
    expect(tokenCalls.every((call) => call.cookie)).toBe(true);
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
