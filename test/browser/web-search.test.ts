import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeId } from '../../src/schema/ids.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { setUpAgent, type User } from '../support/scenario.ts';
import { seedThread } from '../support/seeded-threads.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The web chat's search box (web/src/SearchBox.tsx) in Debian's Chromium against a real server:
// it lists the viewer's matching threads as they type (the word being typed by its prefix), title
// matches first, the matched words marked as text (a message's markup is shown, never run), and a
// hit opens its thread at the message.

announceSkip('the web chat search test');

const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };

describe.skipIf(skipBrowserSuite)('searching threads in the web chat, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let owner: User & { agentId: string };
  let tripThreadId: string;
  let tripMessageId: string;
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];

  beforeAll(async () => {
    requireChromium();
    const [started] = await Promise.all([startTestServer(), ensureWebAppBuilt()]);
    server = started;
    origin = new URL(server.url).origin;
    owner = await setUpAgent(server, { project: 'Search' });
    const stranger = await setUpAgent(server, { project: 'Elsewhere' });
    const filler = Array.from({ length: 30 }, (_, index) => ({ role: index % 2 === 0 ? ('ASSISTANT' as const) : ('USER' as const), text: `Filler line ${index} about nothing in particular.` }));
    await seedThread(server, { ownerId: owner.userId, agentId: owner.agentId, title: 'Budget review', messages: [{ role: 'USER', text: 'Numbers, please.' }], lastActivityAt: new Date(Date.now() - 3_600_000) });
    const trip = await seedThread(server, {
      ownerId: owner.userId,
      agentId: owner.agentId,
      title: 'Trip',
      messages: [{ role: 'USER', text: 'Plan the trip: <img src=x onerror="document.title=\'injected\'"> the budget is tight.' }, ...filler],
    });
    tripThreadId = encodeId('Thread', trip.threadId);
    tripMessageId = encodeId('Message', trip.messageIds[0]!);
    await seedThread(server, { ownerId: stranger.userId, agentId: stranger.agentId, title: 'Secret budget', messages: [{ role: 'USER', text: 'budget' }] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    recordPageErrors(context, consoleErrors, () => 'search');
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, SETUP_TIMEOUT_MS);

  async function openChat(): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 700 });
    await page.goto(`${origin}/#${new URLSearchParams({ token: owner.token })}`);
    return page;
  }

  it('lists the hits as the user types, marks the matched words as text, and opens a thread at the message', async () => {
    const page = await openChat();
    const box = page.getByRole('searchbox', { name: 'Search threads' });
    await box.waitFor(WAIT);
    await box.pressSequentially('budg');
    const hits = page.locator('.search-hit');
    await expect.poll(() => hits.count(), WAIT).toBe(2);
    expect(await page.locator('.search-title').allInnerTexts()).toEqual(['Budget review', 'Trip']);
    expect(await hits.nth(0).locator('mark').allInnerTexts()).toEqual(['Budget']);
    expect(await hits.nth(1).locator('mark').allInnerTexts()).toEqual(['budget']);
    // The message's markup is text in the snippet: no element made of it, nothing run.
    expect(await hits.nth(1).locator('.search-snippet').innerText()).toContain('<img src=x');
    expect(await page.locator('.search-box img').count()).toBe(0);
    expect(await page.title()).not.toBe('injected');

    await hits.nth(1).click();
    await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('thread'), WAIT).toBe(tripThreadId);
    const target = page.locator(`.message[data-message-id="${tripMessageId}"]`);
    await expect.poll(() => target.getAttribute('class'), WAIT).toContain('search-target');
    await expect.poll(() => target.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }), WAIT).toBe(true);

    await box.fill('nothing-like-this');
    await page.getByText('Nothing found.').waitFor(WAIT);
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
