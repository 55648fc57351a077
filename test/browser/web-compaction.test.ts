import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ThreadContextDocument } from '../../packages/client/src/compaction-documents.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { UpdateAgentContextDocument } from '../support/documents.ts';
import { setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// Compaction in the web chat (web/src/ContextGauge.tsx, CompactedMessages.tsx, SummariseAndRetry.tsx)
// in Debian's Chromium against a real server on the demo model, whose tokens are words and whose
// window is the agent's (docs/compaction.md): the gauge follows each turn, a thread driven past its
// window collapses its summarised messages under a marker (live and after a reload) that shows the
// summary and, asked to, the originals; a CONTEXT_LENGTH card's "Summarise and retry" (in German)
// compacts the thread and re-runs the failed turn. Screenshots go to test-artifacts/web-compaction/.

announceSkip('the web chat compaction tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-compaction');
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 150_000;
const WAIT = { timeout: 30_000 };
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

describe.skipIf(skipBrowserSuite)('compaction in the web chat, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  const pageNames = new Map<Page, string>();

  async function open(name: string, token: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${origin}/#${new URLSearchParams({ token })}`);
    pageNames.set(page, name);
    return page;
  }

  async function shot(page: Page, step: string) {
    await page.screenshot({ path: path.join(ARTIFACTS, `${pageNames.get(page)}-${step}.png`), fullPage: true });
  }

  /** Sends a message from the composer and waits for its reply (the nth shown) to end as `outcome`. */
  async function say(page: Page, text: string, outcome = 'COMPLETED') {
    await page.locator('#composer-text').fill(text);
    await page.locator('#composer-text').press('Enter');
    // By its text, not by a count: a compaction in this very turn collapses earlier messages.
    await expect.poll(() => page.locator('.message.mine .text').last().innerText().catch(() => ''), WAIT).toBe(text);
    const reply = page.locator('.message.reply').last();
    await expect.poll(() => page.locator('.message').last().getAttribute('data-outcome'), WAIT).toBe(outcome);
    return reply;
  }

  const threadIdOf = (page: Page) => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('thread')!;

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const [started] = await Promise.all([startTestServer(), ensureWebAppBuilt()]);
    server = started;
    origin = new URL(server.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    recordPageErrors(context, consoleErrors, (page) => pageNames.get(page));
  }, SETUP_TIMEOUT_MS);

  afterEach(async () => {
    for (const page of context?.pages() ?? []) await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, SETUP_TIMEOUT_MS);

  it('shows the context gauge after each turn, and collapses the summarised messages under a marker, live and after a reload', async () => {
    // A turn `alpha` / `You said: "alpha"` takes 4 of the window's 40 tokens; past 32 the oldest turns are summarised.
    const owner = await setUpAgent(server, { project: 'Compaction', contextWindowTokens: 40, compaction: { keptTurns: 2 } });
    const page = await open('marker', owner.token);
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    const gauge = page.locator('.context-gauge');
    const marker = page.locator('.compaction-marker');
    for (const word of WORDS) {
      await say(page, word);
      // The gauge says what the API says once the turn has ended.
      const { context: measured } = (await requestData(server, ThreadContextDocument, { threadId: threadIdOf(page) }, owner.token)).conversation;
      const percent = Math.round((measured.usedTokens / 40) * 100);
      await expect.poll(() => gauge.innerText().catch(() => ''), WAIT).toBe(`Context: ${measured.usedTokens} of 40 tokens (${percent} %)`);
    }
    expect(Number(await gauge.getAttribute('data-used'))).toBeGreaterThan(0);
    await shot(page, 'live');

    // Live: the summarised messages are gone from view, the summary is shown as such.
    await marker.waitFor(WAIT);
    const toggle = marker.getByRole('button', { name: 'Earlier messages summarised — show' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const summary = marker.locator('.compaction-summary');
    expect(await summary.innerText()).toMatch(/^Summary of \d+ earlier messages \(by demo:default\), which the model is sent instead of them:\s+Summary: alpha; bravo/);
    const shownTexts = () => page.locator('.messages > .message.mine .text').allInnerTexts();
    expect(await shownTexts()).not.toContain('alpha');
    expect((await shownTexts()).at(-1)).toBe('juliet');

    // Shown on request: the originals, unchanged.
    const expectOriginals = async (on: Page) => {
      await on.locator('.compaction-marker').getByRole('button', { name: 'Earlier messages summarised — show' }).click();
      const originals = on.locator('.summarised-messages .message.mine .text');
      await expect.poll(() => originals.allInnerTexts(), WAIT).toEqual(WORDS.slice(0, await originals.count()));
      expect(await originals.count()).toBeGreaterThanOrEqual(2);
      expect(await on.locator('.summarised-messages .message.reply .text').first().innerText()).toBe('You said: "alpha"');
      await on.locator('.compaction-marker').getByRole('button', { name: 'Earlier messages summarised — hide' }).waitFor(WAIT);
      const all = [...(await originals.allInnerTexts()), ...(await on.locator('.messages > .message.mine .text').allInnerTexts())];
      expect(all).toEqual(WORDS);
    };
    await expectOriginals(page);
    await shot(page, 'expanded');

    // After a reload: the same marker, the same gauge.
    const gaugeText = await gauge.innerText();
    await page.reload();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    await marker.waitFor(WAIT);
    await expect.poll(() => gauge.innerText().catch(() => ''), WAIT).toBe(gaugeText);
    await expectOriginals(page);
    await shot(page, 'reloaded');
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('recovers a CONTEXT_LENGTH failure with "Summarise and retry", in German', async () => {
    // Nothing is summarised automatically while every turn is a kept one: the fifth turn does not fit.
    const owner = await setUpAgent(server, { project: 'Zu lang', locale: 'de', contextWindowTokens: 112, compaction: { keptTurns: 100 } });
    const page = await open('summarise-and-retry', owner.token);
    await page.getByRole('button', { name: 'Neuer Thread' }).click();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    // Four turns of 22 words (10 sent, 12 answered) and a message of 30: 118 words, past the window of 112.
    const long = (first: string, words: number) => [first, ...Array.from({ length: words - 1 }, (_, index) => `w${index}`)].join(' ');
    for (const word of ['one', 'two', 'three', 'four']) await say(page, long(word, 10));
    await say(page, long('five', 30), 'FAILED');
    const card = page.locator('.error-card[data-reason="CONTEXT_LENGTH"]');
    await card.waitFor(WAIT);
    await card.getByRole('button', { name: 'Neuer Chat' }).waitFor(WAIT);
    const button = card.getByRole('button', { name: 'Zusammenfassen und wiederholen' });
    await shot(page, 'failed');

    // With every turn kept there is nothing to summarise: the card says so and nothing changes.
    await button.click();
    await card.getByRole('alert').filter({ hasText: 'Nothing to compact' }).waitFor(WAIT);
    expect(await page.locator('.compaction-marker').count()).toBe(0);

    // Once the agent keeps one turn, the same button summarises the four before it and re-runs the turn.
    const updated = await requestData(server, UpdateAgentContextDocument, { agentId: owner.agentId, compaction: { keptTurns: 1 } }, owner.token);
    expect(updated.updateAgent.__typename).toBe('Agent');
    await button.click();
    await page.locator('.compaction-marker').waitFor(WAIT);
    const last = page.locator('.messages > .message').last();
    await expect.poll(() => last.getAttribute('data-outcome'), WAIT).toBe('COMPLETED');
    expect(await last.locator('.text').innerText()).toBe(`You said: "${long('five', 30)}"`);
    expect(await page.locator('.error-card[role="alert"]').count()).toBe(0);
    expect(await page.locator('.compaction-marker').getByRole('button', { name: 'Frühere Nachrichten zusammengefasst — anzeigen' }).count()).toBe(1);
    expect(await page.locator('.context-gauge').innerText()).toMatch(/^Kontext: \d+ von 112 Tokens \(\d+ %\)$/);
    await shot(page, 'retried');
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
