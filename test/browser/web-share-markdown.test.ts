import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// Replies as Markdown and share links in Debian's Chromium against a real server on the demo
// model, which answers `You said: "<text>"`: a reply with a table, a task list, a code fence, links
// and HTML meant to run renders as Markdown (the HTML never runs, under the page's unchanged
// Content-Security-Policy), while the user's message shows as typed; Share… on the reply makes a
// link whose page, opened without a token, shows that snapshot and nothing later, until revoked.
// Screenshots go to test-artifacts/web-share/ (gitignored).

announceSkip('the web chat Markdown and share link tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-share');
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };

const MARKDOWN = [
  'Trip plan',
  '',
  '| City | Days |',
  '|---|---|',
  '| Lisbon | 3 |',
  '',
  '- [x] book the flight',
  '- [ ] pack',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '<script>window.injected = "script"</script>',
  '<img src=x onerror="window.injected = \'img\'">',
  '',
  '[docs](https://example.com/docs) and [bad](javascript:window.injected=1)',
  'end',
].join('\n');

declare global {
  interface Window {
    injected?: unknown;
  }
}

describe.skipIf(skipBrowserSuite)('Markdown replies and share links in the web chat, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let owner: { token: string; agentId: string; userId: string };
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  const pageNames = new Map<Page, string>();

  async function openPage(name: string, url: string): Promise<Page> {
    const page = await context.newPage();
    pageNames.set(page, name);
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto(url);
    return page;
  }
  const shot = (page: Page, step: string) => page.screenshot({ path: path.join(ARTIFACTS, `${pageNames.get(page)}-${step}.png`), fullPage: true });

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const [started] = await Promise.all([startTestServer(), ensureWebAppBuilt()]);
    server = started;
    origin = new URL(server.url).origin;
    owner = await setUpAgent(server, { project: 'Share project' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    // A revoked link's page is a 404 on purpose; Chromium logs the status of such a load as an error.
    recordPageErrors(context, consoleErrors, (page) => pageNames.get(page), (_page, text) => text.includes('status of 404'));
  }, SETUP_TIMEOUT_MS);

  afterEach(async () => {
    for (const page of context?.pages() ?? []) await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, SETUP_TIMEOUT_MS);

  it('renders a streamed reply as Markdown, runs none of its HTML, shows the user’s text as typed, and shares it up to there', async () => {
    const threadId = await newThread(server, owner.token, owner.agentId, 'Markdown and sharing');
    const chat = await openPage('chat', `${origin}/#${new URLSearchParams({ token: owner.token, thread: threadId })}`);
    await chat.locator('.connection[data-status="live"]').waitFor(WAIT);
    await chat.locator('#composer-text').fill(MARKDOWN);
    await chat.locator('#composer-text').press('Enter');
    const reply = chat.locator('.message.reply').first();
    await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toBe('COMPLETED');

    const markdown = reply.locator('.markdown');
    expect(await markdown.locator('table th').allInnerTexts()).toEqual(['City', 'Days']);
    expect(await markdown.locator('table td').allInnerTexts()).toEqual(['Lisbon', '3']);
    expect(await markdown.locator('input[type="checkbox"]').evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked))).toEqual([true, false]);
    expect((await markdown.locator('pre code').innerText()).trim()).toBe('const answer = 42;');
    expect(await markdown.locator('pre code .hljs-keyword').first().innerText()).toBe('const');
    await expect.poll(() => markdown.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    const link = markdown.getByRole('link', { name: 'docs' });
    expect([await link.getAttribute('href'), await link.getAttribute('target'), await link.getAttribute('rel')]).toEqual([
      'https://example.com/docs',
      '_blank',
      'noopener noreferrer',
    ]);
    expect(await markdown.getByRole('link', { name: 'bad' }).count()).toBe(0);
    expect(await markdown.locator('script, img, [onerror]').count()).toBe(0);
    expect(await chat.evaluate(() => window.injected)).toBeUndefined();
    const mine = chat.locator('.message.mine .text').first();
    expect(await mine.innerText()).toBe(MARKDOWN);
    await shot(chat, 'markdown');

    // Share… on the reply; a later message is not in the link's snapshot.
    await reply.getByRole('button', { name: 'Share…' }).click();
    const dialog = chat.getByRole('dialog', { name: 'Share this conversation up to here' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const urlField = dialog.getByRole('textbox', { name: 'Link' });
    await urlField.waitFor(WAIT);
    const shareUrl = await urlField.inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${origin}/share/[A-Za-z0-9_-]{43}$`));
    await shot(chat, 'share-dialog');
    await sendAndFollow(server, owner.token, threadId, 'A later secret', 1);

    const shared = await openPage('shared', shareUrl);
    await shared.locator('.snapshot').waitFor(WAIT);
    expect(await shared.locator('h1').innerText()).toBe('Markdown and sharing');
    expect(await shared.locator('.message.reply .markdown table td').allInnerTexts()).toEqual(['Lisbon', '3']);
    expect(await shared.locator('.message.mine .text').innerText()).toBe(MARKDOWN);
    const text = await shared.locator('main').innerText();
    expect(text).not.toContain('A later secret');
    expect(await shared.evaluate(() => [window.injected, sessionStorage.length])).toEqual([undefined, 0]);
    await shot(shared, 'snapshot');

    // Revoked in the dialog, the link's page is a bare 404.
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByText('Revoked: the link no longer works.').waitFor(WAIT);
    const gone = await shared.goto(shareUrl);
    expect(gone?.status()).toBe(404);
    expect((await shared.locator('body').innerText()).trim()).toBe('Not found.');
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
