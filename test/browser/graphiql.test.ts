import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// The GraphiQL walkthrough of README.md and docs/getting-started.md in a real browser with no way out of the server's origin:
// Debian's Chromium, driven by playwright-core, never a downloaded browser.

announceSkip('the GraphiQL browser test');

/** A browser start and a 9 MB page on a machine busy with other suites. */
const BROWSER_TIMEOUT_MS = 120_000;

/** `/slow 4` streams this word by word over four seconds. */
const SLOW_REPLY = `Counting: ${Array.from({ length: 16 }, (_, index) => index + 1).join(' ')}`;

/**
 * Replaces what a Monaco editor holds, on one line: a typed bracket or line break would make
 * Monaco add a closing bracket or indentation of its own.
 */
async function replaceEditorText(page: Page, editor: string, text: string) {
  await page.locator(editor).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text.replaceAll(/\s+/g, ' '));
}

/**
 * Types the query, and waits for GraphiQL to have read it: the active tab takes the operation's
 * name as its title a moment later, and a run before that would ask for the tab's old operation.
 */
async function setQuery(page: Page, text: string) {
  await replaceEditorText(page, '.graphiql-query-editor .monaco-editor', text);
  const name = /^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(text)?.[1];
  if (name) await expect.poll(() => page.locator('[role="tab"][aria-selected="true"] .graphiql-tab-button').getAttribute('title')).toBe(name);
}

/** Opens a tab and waits until it is the active one, so that what is typed next goes into it. */
async function newTab(page: Page) {
  const tabs = page.getByRole('tab');
  const before = await tabs.count();
  await page.getByRole('button', { name: 'New tab' }).click();
  await expect.poll(() => tabs.count()).toBe(before + 1);
  await expect.poll(() => tabs.last().getAttribute('aria-selected')).toBe('true');
}

async function setHeaders(page: Page, text: string) {
  await page.getByRole('button', { name: 'Headers', exact: true }).click();
  await replaceEditorText(page, '.graphiql-editor-tool .monaco-editor >> visible=true', text);
}

async function run(page: Page) {
  await page.locator('.graphiql-execute-button').click();
}

/** An editor's text as shown (Monaco renders spaces as no-break spaces). */
async function shownText(page: Page, editor: string): Promise<string> {
  const text = await page.locator(`${editor} .view-lines`).innerText();
  return text.replaceAll('\u00a0', ' ');
}

function resultPane(page: Page): Promise<string> {
  return shownText(page, '.graphiql-response');
}

async function waitForResult(page: Page, expected: string) {
  await expect.poll(() => resultPane(page), { timeout: 30_000 }).toContain(expected);
}

async function openGraphiQL(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1800, height: 1000 });
  await page.goto(url);
  await page.locator('.graphiql-query-editor .view-lines').waitFor();
  return page;
}

/** Keeps every text the result pane shows, as it changes: a subscription shows one event at a time. */
async function recordResultPane(page: Page) {
  await page.evaluate(() => {
    const shown: string[] = [];
    (globalThis as unknown as { shownResults: string[] }).shownResults = shown;
    const pane = document.querySelector('.graphiql-response')!;
    new MutationObserver(() => {
      const lines = pane.querySelector('.view-lines');
      if (lines) shown.push((lines as HTMLElement).innerText.replaceAll('\u00a0', ' '));
    }).observe(pane, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as { shownResults: string[] }).shownResults);
}

describe.skipIf(skipBrowserSuite)('GraphiQL in Chromium, offline', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let token: string;
  let threadId: string;
  let outsideRequests: string[] = [];
  const refusedByPolicy: string[] = [];
  let requests: string[] = [];

  beforeAll(async () => {
    requireChromium();
    server = await startTestServer();
    const agent = await setUpAgent(server);
    token = agent.token;
    threadId = await newThread(server, token, agent.agentId, 'Browser chat');
    // launch() gives the browser a fresh temporary profile (user-data-dir) of its own.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests, requested: requests } = await keepInsideOrigin(context, new URL(server.url).origin));
    context.on('page', (page) => {
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) refusedByPolicy.push(message.text());
      });
    });
  }, BROWSER_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('runs a query, a subscription in a second tab and a sendMessage from a second window, and shows the reply streaming', async () => {
    const page = await openGraphiQL(context, server.url);
    expect(await shownText(page, '.graphiql-query-editor')).toContain('query Start {');

    await setHeaders(page, JSON.stringify({ Authorization: `Bearer ${token}` }));
    await run(page);
    await waitForResult(page, '"model": "demo:default"');
    await waitForResult(page, '"title": "Browser chat"');

    // A second tab starts with empty headers: the Authorization the first tab sent still applies.
    await newTab(page);
    await setQuery(
      page,
      `subscription Follow { runEvents(threadId: "${threadId}", after: "0") {
        __typename
        ... on ExecutionStarted { acceptedText }
        ... on TextDelta { text offset }
        ... on ExecutionFinished { status }
      } }`,
    );
    const shownResults = await recordResultPane(page);
    const subscribed = page.waitForResponse(
      (response) => response.url().startsWith(server.url) && response.request().headers().accept === 'text/event-stream',
    );
    await run(page);
    expect((await subscribed).status()).toBe(200);

    // Switching tabs would stop the subscription, so the message is sent from a second window.
    const sender = await openGraphiQL(context, server.url);
    await newTab(sender);
    await setQuery(
      sender,
      `mutation Send { sendMessage(threadId: "${threadId}", text: "/slow 4") { __typename ... on Error { message } } }`,
    );
    await run(sender);
    await waitForResult(sender, '"__typename": "MessageQueued"');
    await page.bringToFront();

    await waitForResult(page, '"status": "COMPLETED"');
    const shown = await shownResults();
    const deltas = shown.flatMap((text) => {
      const delta = /"text": "([^"]*)",\s*"offset": (\d+)/.exec(text);
      return delta ? [{ text: delta[1]!, offset: Number(delta[2]) }] : [];
    });
    expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas) expect(SLOW_REPLY.slice(delta.offset, delta.offset + delta.text.length)).toBe(delta.text);

    await setQuery(
      sender,
      `query Read { conversation(threadId: "${threadId}") { messages { edges { node { role parts { ... on TextPart { text } } } } } } }`,
    );
    await run(sender);
    await waitForResult(sender, `"text": "${SLOW_REPLY}"`);

    expect(outsideRequests).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
    // The route saw the page's own requests, so an empty list above means none went elsewhere.
    expect(requests.filter((url) => url.startsWith(server.url)).length).toBeGreaterThan(0);
  }, BROWSER_TIMEOUT_MS);
});
