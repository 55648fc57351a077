import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';

// The browser suites drive Debian's Chromium with playwright-core, never a downloaded browser, and
// let no request leave the server's origin.

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
export const chromiumMissing = !existsSync(CHROMIUM);
/** Without Chromium a browser suite skips, saying so, except in CI, where it fails. */
export const skipBrowserSuite = chromiumMissing && !inCi;

export function announceSkip(suite: string): void {
  if (skipBrowserSuite) console.log(`${CHROMIUM} not found: skipping ${suite} (apt-get install chromium; in CI this fails)`);
}

export function requireChromium(): void {
  if (chromiumMissing) throw new Error(`${CHROMIUM} is missing: install it with apt-get install chromium`);
}

/**
 * Aborts every request of the context that leaves `origin` and records it (WebSockets included), and
 * records every URL asked for, so an empty list of outside requests means something.
 */
export async function keepInsideOrigin(context: BrowserContext, origin: string): Promise<{ outside: string[]; requested: string[] }> {
  const outside: string[] = [];
  const requested: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.push(url);
    if (new URL(url).origin === origin) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  context.on('page', (page) => {
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).host !== new URL(origin).host) outside.push(socket.url());
    });
  });
  return { outside, requested };
}

/**
 * Records every console error and uncaught error of the context's pages into `errors`, under the
 * page's name (else its URL), except those `expected` excuses (a page whose server is down on purpose).
 */
export function recordPageErrors(
  context: BrowserContext,
  errors: { page: string; text: string }[],
  nameOf: (page: Page) => string | undefined,
  expected: (page: Page, text: string) => boolean = () => false,
): void {
  context.on('page', (page) => {
    const record = (text: string) => errors.push({ page: nameOf(page) ?? page.url(), text });
    page.on('console', (message) => {
      if (message.type() === 'error' && !expected(page, message.text())) record(message.text());
    });
    page.on('pageerror', (error) => record(String(error)));
  });
}
