import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FAILURE_REASONS } from '../../src/models/demo/failures.ts';
import { WEB_APP_CONTENT_SECURITY_POLICY } from '../../src/server/plugins/use-web-app.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { send } from '../support/client.ts';
import { QueueDocument } from '../support/documents.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { addAgent, newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The reference web chat (web/) in Debian's Chromium against a real server, every request outside
// the server's origin aborted and recorded. Each step saves a screenshot under
// test-artifacts/web-chat/ (gitignored). One server (on a data folder of its own, so it can be
// restarted in place) and one browser serve the whole file.

announceSkip('the web chat browser tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-chat');
/** A browser start, a build and a server on a machine busy with other suites. */
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };

/** What `/slow <seconds>` streams: four numbers a second. */
const counting = (seconds: number) => `Counting: ${Array.from({ length: seconds * 4 }, (_, index) => index + 1).join(' ')}`;

/**
 * Connection failures Chromium logs itself while the server is down on purpose (the restart tests)
 * or the browser is taken offline (a request or reconnect already under way when it went offline).
 */
const WHILE_UNREACHABLE =
  /ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|ERR_INTERNET_DISCONNECTED|WebSocket connection to .* failed/;

describe.skipIf(skipBrowserSuite)('the web chat in Chromium', () => {
  let server: TestServer;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let user: { token: string; agentId: string; projectId: string };
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  /** Pages whose connection failures while the server was down or the browser offline are expected. */
  const restartedPages = new Set<Page>();
  let pageCount = 0;
  const pageNames = new Map<Page, string>();

  async function restartServer() {
    const port = new URL(server.url).port;
    await server.stop();
    server = await startTestServer({ env: { ...server.env, PORT: port } });
  }

  async function shot(page: Page, step: string) {
    await page.screenshot({ path: path.join(ARTIFACTS, `${pageNames.get(page)}-${step}.png`), fullPage: true });
  }

  /** Opens the chat signed in by the banner's link, on a thread if given, and waits until it is live. */
  async function openChat(name: string, options: { token?: string; threadId?: string; width?: number } = {}): Promise<Page> {
    const page = await context.newPage();
    pageNames.set(page, `${String(++pageCount).padStart(2, '0')}-${name}`);
    await page.setViewportSize({ width: options.width ?? 1100, height: 900 });
    const hash = new URLSearchParams({ token: options.token ?? user.token, ...(options.threadId ? { thread: options.threadId } : {}) });
    await page.goto(`${origin}/#${hash}`);
    if (options.threadId) await waitLive(page);
    return page;
  }

  async function waitLive(page: Page) {
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
  }

  async function type(page: Page, text: string) {
    await page.locator('#composer-text').fill(text);
    await page.locator('#composer-text').press('Enter');
  }

  const replies = (page: Page) => page.locator('.message.reply');
  /** A reply's own text (not its delegation cards'). */
  const textOf = async (reply: Locator) => (await reply.locator(':scope > .text').allInnerTexts()).join('');
  const queueTexts = (page: Page) => page.locator('.queue-item .queue-text').allInnerTexts();
  const queueItem = (page: Page, text: string) => page.locator('.queue-item', { has: page.locator('.queue-text', { hasText: text }) });

  async function waitForOutcome(reply: Locator, outcome: string) {
    await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toBe(outcome);
  }

  /** Holds the page's sendMessage requests on their way until released (a slow network, on cue). */
  async function holdSends(page: Page): Promise<{ held: Route[]; release(): Promise<void> }> {
    const held: Route[] = [];
    let holding = true;
    await page.route('**/graphql', (route) => {
      if (holding && route.request().postData()?.includes('mutation SendThreadMessage')) held.push(route);
      else void route.fallback();
    });
    return {
      held,
      // The handler stays (passing everything on) until the page closes.
      async release() {
        holding = false;
        for (const route of held.splice(0)) await route.fallback();
      },
    };
  }

  /** Queues a message by the API (as another client of the same user would). */
  async function queue(threadId: string, text: string): Promise<string> {
    return (await send(server, user.token, threadId, text)).queueId;
  }

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-web-chat-'));
    const [started] = await Promise.all([
      startTestServer({
        env: {
          PARLEY_DATA_DIR: dataDir,
          // A retryable failure shows its card at once instead of after the backoff.
          PARLEY_RETRY_MAX_ATTEMPTS: '1',
          PARLEY_MAX_ATTACHMENT_BYTES: '1000',
          PARLEY_MAX_ATTACHMENTS: '2',
          PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1',
        },
      }),
      ensureWebAppBuilt(),
    ]);
    server = started;
    origin = new URL(server.url).origin;
    user = await setUpAgent(server, { project: 'Web chat' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    recordPageErrors(context, consoleErrors, (page) => pageNames.get(page), (page, text) => restartedPages.has(page) && WHILE_UNREACHABLE.test(text));
  }, SETUP_TIMEOUT_MS);

  // A test that failed half-way leaves no page behind to log the next test's server restart.
  afterEach(async () => {
    for (const page of context?.pages() ?? []) await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, SETUP_TIMEOUT_MS);

  it('goes from the sign-in link to a streamed reply: new thread, reasoning collapsed, a live region', async () => {
    const page = await openChat('first-reply');
    await page.getByRole('button', { name: 'New thread' }).waitFor(WAIT);
    // The token went to this tab's sessionStorage and left the address bar.
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate(() => sessionStorage.getItem('parley:token'))).toBe(user.token);
    await shot(page, 'signed-in');

    await page.getByRole('button', { name: 'New thread' }).click();
    await waitLive(page);
    await type(page, 'Hello Parley');
    const reply = replies(page).last();
    await waitForOutcome(reply, 'COMPLETED');
    expect(await textOf(reply)).toBe('You said: "Hello Parley"');
    expect(await page.locator('#composer-text').inputValue()).toBe('');
    // The new thread is titled by its first message, not by a date.
    await page.locator('nav.threads button[aria-current="page"]', { hasText: /^Hello Parley$/ }).waitFor(WAIT);
    const reasoning = reply.locator('details.reasoning');
    expect(await reasoning.count()).toBe(1);
    expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('[role="log"][aria-live="polite"]').count()).toBe(1);
    await shot(page, 'streamed-reply');

    // A reload signs in from sessionStorage and shows the same thread.
    await page.reload();
    await waitLive(page);
    expect(await textOf(replies(page).last())).toBe('You said: "Hello Parley"');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('signs in with a pasted token; a refused token says so and keeps nothing', async () => {
    const page = await context.newPage();
    pageNames.set(page, `${String(++pageCount).padStart(2, '0')}-sign-in`);
    await page.goto(`${origin}/`);
    const tokenField = page.getByLabel('API token');
    await tokenField.fill('pky_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'This token was not accepted' }).waitFor(WAIT);
    expect(await page.evaluate(() => sessionStorage.getItem('parley:token'))).toBeNull();
    await shot(page, 'refused');
    await tokenField.fill(user.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'New thread' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await tokenField.waitFor(WAIT);
    expect(await page.evaluate(() => sessionStorage.getItem('parley:token'))).toBeNull();
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('works at 360 px wide and with the keyboard alone', async () => {
    const page = await openChat('keyboard-360', { width: 360 });
    await page.getByRole('button', { name: 'New thread' }).waitFor(WAIT);
    const pressTabUntil = async (isTarget: () => Promise<boolean>) => {
      for (let presses = 0; presses < 40 && !(await isTarget()); presses++) await page.keyboard.press('Tab');
      expect(await isTarget()).toBe(true);
    };
    await pressTabUntil(() => page.evaluate(() => document.activeElement?.textContent === 'New thread'));
    await page.keyboard.press('Enter');
    await waitLive(page);
    await pressTabUntil(() => page.evaluate(() => document.activeElement?.id === 'composer-text'));
    await page.keyboard.type('typed with keys');
    await page.keyboard.press('Enter');
    const reply = replies(page).last();
    await waitForOutcome(reply, 'COMPLETED');
    expect(await textOf(reply)).toBe('You said: "typed with keys"');
    await shot(page, 'narrow');
    // Nothing sticks out sideways at 360 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('a reload mid-stream continues the same reply with no duplicated or missing text', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Reload mid-stream');
    const page = await openChat('reload-mid-stream', { threadId });
    await type(page, '/slow 6');
    const reply = replies(page).last();
    await expect.poll(() => textOf(reply), WAIT).toMatch(/^Counting: 1 2 3/);
    await shot(page, 'before-reload');

    await page.reload();
    await waitLive(page);
    // From here on, every text the reply shows must be a beginning of the recorded reply.
    await page.evaluate(() => {
      const shown: string[] = [];
      (globalThis as unknown as { shownTexts: string[] }).shownTexts = shown;
      const log = document.querySelector('.messages')!;
      const record = () => {
        const replies = log.querySelectorAll('.message.reply');
        const last = replies[replies.length - 1];
        if (last) shown.push([...last.querySelectorAll(':scope > .text')].map((element) => element.textContent).join(''));
      };
      record();
      new MutationObserver(record).observe(log, { subtree: true, childList: true, characterData: true });
    });
    await shot(page, 'after-reload');
    await waitForOutcome(replies(page).last(), 'COMPLETED');
    const expected = counting(6);
    expect(await textOf(replies(page).last())).toBe(expected);
    expect(await replies(page).count()).toBe(1);
    const shown = await page.evaluate(() => (globalThis as unknown as { shownTexts: string[] }).shownTexts);
    expect(shown.length).toBeGreaterThan(0);
    for (const text of shown) expect(expected.startsWith(text), `shown after the reload: "${text}"`).toBe(true);
    await shot(page, 'completed');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('two tabs on one thread: a reorder in one appears in the other; a stale reorder in the second is refused, refreshed and explained', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Two tabs');
    await queue(threadId, '/slow 60');
    const first = await openChat('tab-a', { threadId });
    await expect.poll(() => textOf(replies(first).last()), WAIT).toMatch(/^Counting: 1/);
    for (const text of ['one', 'two', 'three']) await queue(threadId, text);
    const second = await openChat('tab-b', { threadId });
    await expect.poll(() => queueTexts(first), WAIT).toEqual(['one', 'two', 'three']);
    await expect.poll(() => queueTexts(second), WAIT).toEqual(['one', 'two', 'three']);
    await shot(first, 'queue');

    // Drag and drop in the first tab; the second follows.
    await queueItem(first, 'three').dragTo(queueItem(first, 'one'));
    await expect.poll(() => queueTexts(first), WAIT).toEqual(['three', 'one', 'two']);
    await expect.poll(() => queueTexts(second), WAIT).toEqual(['three', 'one', 'two']);
    await shot(second, 'after-drag-in-a');

    // The second tab stops hearing about the queue (its reads are held), the first moves by keyboard...
    const held: Route[] = [];
    let holding = true;
    await second.route('**/graphql', (route) => {
      if (holding && route.request().postData()?.includes('query ThreadQueue')) held.push(route);
      else void route.fallback();
    });
    await queueItem(first, 'two').focus();
    await first.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => queueTexts(first), WAIT).toEqual(['three', 'two', 'one']);
    // ...and the second, still showing the old order, moves too: the server refuses the stale order.
    expect(await queueTexts(second)).toEqual(['three', 'one', 'two']);
    const refused = second.waitForResponse((response) => response.request().postData()?.includes('mutation ReorderQueued') ?? false);
    await queueItem(second, 'three').focus();
    await second.keyboard.press('Alt+ArrowDown');
    expect(JSON.stringify(await (await refused).json())).toContain('QueueChangedError');
    holding = false;
    for (const route of held.splice(0)) await route.fallback();
    await second.locator('.queue .notice', { hasText: 'The queue was changed elsewhere' }).waitFor(WAIT);
    await expect.poll(() => queueTexts(second), WAIT).toEqual(['three', 'two', 'one']);
    await shot(second, 'stale-reorder-refreshed');
    await second.unroute('**/graphql');

    // Inline edit and remove from the panel.
    await queueItem(first, 'one').getByRole('button', { name: 'Edit' }).click();
    await first.getByRole('textbox', { name: 'Edit' }).fill('uno');
    await first.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => queueTexts(second), WAIT).toEqual(['three', 'two', 'uno']);
    await queueItem(first, 'three').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => queueTexts(first), WAIT).toEqual(['two', 'uno']);
    await shot(first, 'edited-removed');

    // Stop: the reply is marked stopped, also after a reload; the queue goes on with the next.
    const running = replies(first).first();
    await first.getByRole('button', { name: 'Stop' }).click();
    await waitForOutcome(running, 'CANCELLED');
    await running.locator('.badge.stopped').waitFor(WAIT);
    await first.reload();
    await waitLive(first);
    await waitForOutcome(replies(first).first(), 'CANCELLED');
    expect(await replies(first).first().locator('.badge.stopped').innerText()).toBe('Stopped');
    await expect.poll(async () => (await replies(first).allInnerTexts()).join('\n'), WAIT).toContain('You said: "uno"');
    await shot(first, 'stopped-after-reload');
    await Promise.all([first.close(), second.close()]);
  }, TEST_TIMEOUT_MS);

  it('steers a queued message into the running reply from the panel', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Steer');
    const page = await openChat('steer', { threadId });
    await type(page, '/slow 4');
    await expect.poll(() => textOf(replies(page).last()), WAIT).toMatch(/^Counting: 1/);
    await type(page, 'steer me');
    await queueItem(page, 'steer me').getByRole('button', { name: 'Send into the current reply' }).click();
    const reply = replies(page).last();
    await waitForOutcome(reply, 'COMPLETED');
    await reply.locator('.steered', { hasText: 'steer me' }).waitFor(WAIT);
    expect(await textOf(reply)).toBe(`${counting(4)}You said: "steer me"`);
    expect(await replies(page).count()).toBe(1);
    expect(await page.locator('.queue-item').count()).toBe(0);
    await shot(page, 'steered');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows the card of every ErrorReason the demo model raises, with its affordance', async () => {
    const page = await openChat('error-cards');
    const affordances: Record<string, string[]> = {};
    const advice: Record<string, string> = {};
    for (const reason of DEMO_FAILURE_REASONS) {
      const threadId = await newThread(server, user.token, user.agentId, `Fails: ${reason}`);
      await queue(threadId, `/fail ${reason}`);
      await page.goto(`${origin}/#thread=${threadId}`);
      const card = page.locator(`.error-card[data-reason="${reason.toUpperCase()}"]`);
      await card.waitFor(WAIT);
      await waitLive(page);
      affordances[reason] = (await card.getByRole('button').allInnerTexts()).concat(await card.locator('.countdown').allInnerTexts().then((texts) => texts.map(() => 'countdown')));
      expect(await card.locator('strong').innerText()).not.toBe('');
      advice[reason] = await card.locator('p').first().innerText();
      // Details sit behind a disclosure, closed.
      const details = card.locator('details.error-details');
      expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      await details.locator('summary').click();
      expect(await details.innerText()).toContain('Message');
      await shot(page, `reason-${reason}`);
    }
    expect(affordances).toMatchObject({
      rate_limit: ['countdown'],
      provider_internal: ['Retry'],
      transport: ['Retry'],
      context_length: ['Summarise and retry', 'New chat'],
      quota_exceeded: [],
      authentication: [],
      authorization: [],
    });
    for (const reason of ['quota_exceeded', 'authentication', 'authorization']) expect(advice[reason]).toContain('contact the operator');
    await page.close();
  }, TEST_TIMEOUT_MS * 2);

  it('counts a RATE_LIMIT down from retryAfterS, right after a reload too, then offers Retry', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Rate limited');
    const page = await openChat('rate-limit', { threadId });
    await type(page, '/fail rate_limit');
    const card = page.locator('.error-card[data-reason="RATE_LIMIT"]');
    // The demo's retry-after is 7 s: reload as soon as the card is there, while it counts down.
    await card.waitFor(WAIT);
    await page.reload();
    await waitLive(page);
    await card.locator('.countdown').waitFor(WAIT);
    // The countdown runs to the failure's occurredAt + retryAfterS, not from the reload.
    const occurredAt = await page.evaluate(async (thread) => {
      const token = sessionStorage.getItem('parley:token');
      const response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          query: 'query($t: ID!) { conversation(threadId: $t) { messages { edges { node { parts { ... on ErrorPart { occurredAt retryAfterS } } } } } } }',
          variables: { t: thread },
        }),
      });
      const body = (await response.json()) as { data: { conversation: { messages: { edges: { node: { parts: { occurredAt?: string; retryAfterS?: number }[] } }[] } } } };
      const failure = body.data.conversation.messages.edges.flatMap(({ node }) => node.parts).find((part) => part.occurredAt)!;
      return { at: Date.parse(failure.occurredAt!), retryAfterS: failure.retryAfterS! };
    }, threadId);
    expect(occurredAt.retryAfterS).toBe(7);
    const shown = await page.evaluate(() => ({ text: document.querySelector('.error-card .countdown')?.textContent ?? '', now: Date.now() }));
    const seconds = Number(/(\d+) s/.exec(shown.text)?.[1]);
    const expected = Math.ceil((occurredAt.at + occurredAt.retryAfterS * 1000 - shown.now) / 1000);
    // The page reads the text and the clock in one go; a render may be one tick behind.
    expect(Math.abs(seconds - expected)).toBeLessThanOrEqual(1);
    await shot(page, 'countdown-after-reload');
    await card.getByRole('button', { name: 'Retry' }).waitFor({ timeout: 20_000 });
    await shot(page, 'retry-offered');
    await card.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.locator('.error-card[data-reason="RATE_LIMIT"]').count(), WAIT).toBe(2);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('nests a delegated child text and error in its card', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Delegation');
    const page = await openChat('delegation', { threadId });
    await type(page, '/delegate hello child');
    const reply = replies(page).last();
    await waitForOutcome(reply, 'COMPLETED');
    expect(await reply.locator('.delegation .text').innerText()).toContain('You said: "hello child"');
    await type(page, '/delegate /fail unknown');
    await waitForOutcome(replies(page).last(), 'COMPLETED');
    await replies(page).last().locator('.delegation .error-card[data-reason="UNKNOWN"]').waitFor(WAIT);
    await shot(page, 'delegation');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows tool cards of a tool server: approval with "Allow in this thread", state, duration, collapsed input and output, the error', async () => {
    const mcp: TestMcpServer = await startMcpServer();
    try {
      const admin = await server.parley.db.prisma.membership.findFirstOrThrow({ where: { projectId: user.projectId, role: 'ADMIN' } });
      const owner = await server.parley.services.directory.findUser(admin.userId);
      await server.parley.services.tools.add(owner, user.projectId, { name: 'tools', url: mcp.url });
      const agentId = await addAgent(server, user.projectId, {
        tools: ['tools/echo', 'tools/fail', 'tools/picture', 'tools/steps'],
        toolApprovals: [
          { tool: 'tools/fail', approval: 'NEVER' },
          { tool: 'tools/picture', approval: 'NEVER' },
          { tool: 'tools/steps', approval: 'NEVER' },
        ],
      });
      const threadId = await newThread(server, user.token, agentId, 'Tools');
      const page = await openChat('tools', { threadId });
      await type(page, '/tool tools/echo {"text":"hi"}');
      const approval = page.getByRole('group', { name: 'Approval needed' });
      await approval.waitFor(WAIT);
      expect(await approval.innerText()).toContain('tools/echo: Echoes the text back.');
      expect(await approval.locator('pre').innerText()).toContain('"text": "hi"');
      await shot(page, 'tool-approval');
      await approval.getByRole('button', { name: 'Allow in this thread' }).click();
      await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('Tool tools/echo returned: echo: hi');
      const card = replies(page).last().getByRole('article', { name: 'Tool: tools/echo' });
      expect(await card.getAttribute('data-state')).toBe('SUCCEEDED');
      expect(await card.locator('p').first().innerText()).toMatch(/^Tool: tools\/echo · done · \d+(\.\d)? m?s$/);
      expect(await card.locator('details pre').last().isVisible()).toBe(false);
      await card.getByText('Output').click();
      expect(await card.locator('details pre').last().innerText()).toBe('echo: hi');

      // Allowed in this thread: the next call runs without a card.
      await type(page, '/tool tools/echo {"text":"again"}');
      await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('Tool tools/echo returned: echo: again');
      expect(await page.locator('.card.approval').count()).toBe(0);

      await type(page, '/tool tools/fail {}');
      await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('Tool tools/fail failed: the database said no');
      const failed = replies(page).last().getByRole('article', { name: 'Tool: tools/fail' });
      expect(await failed.getAttribute('data-state')).toBe('FAILED');
      expect(await failed.getByRole('alert').innerText()).toBe('the database said no');

      // A result's image and PDF are files of the reply, named on the card (live, then after a reload).
      await type(page, '/tool tools/picture {"bytes":600}');
      const pictured = replies(page).last().getByRole('article', { name: 'Tool: tools/picture' });
      const filesOnCard = () => pictured.locator('.attachment').allInnerTexts();
      await expect.poll(filesOnCard, WAIT).toEqual(['📎 picture-1.png (1 KB)', '📎 q3.pdf (1 KB)']);
      await page.reload();
      await expect.poll(filesOnCard, WAIT).toEqual(['📎 picture-1.png (1 KB)', '📎 q3.pdf (1 KB)']);
      await shot(page, 'tool-cards');

      // A running call's progress: live on its card, again after a reload, gone once it is done.
      await type(page, '/tool tools/steps {"steps":5}');
      const stepping = replies(page).last().getByRole('article', { name: 'Tool: tools/steps' });
      const progressOnCard = () => stepping.locator('.tool-progress').innerText().catch(() => '');
      await expect.poll(progressOnCard, WAIT).toBe('Progress: 5 of 5 · step 5 of 5');
      expect(await stepping.getByRole('progressbar').getAttribute('value')).toBe('5');
      await page.reload();
      await expect.poll(progressOnCard, WAIT).toBe('Progress: 5 of 5 · step 5 of 5');
      await shot(page, 'tool-progress');
      mcp.releaseSteps();
      await expect.poll(() => stepping.getAttribute('data-state'), WAIT).toBe('SUCCEEDED');
      expect(await stepping.locator('.tool-progress').count()).toBe(0);
      await page.close();
    } finally {
      await mcp.stop();
    }
  }, TEST_TIMEOUT_MS);

  it('uploads attachments, showing the server’s size and count errors inline and keeping the text', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Attachments');
    const page = await openChat('attachments', { threadId });
    const file = (name: string, bytes: number) => ({ name, mimeType: 'text/plain', buffer: Buffer.from('a'.repeat(bytes)) });
    await page.locator('#composer-text').fill('with files');
    await page.locator('input[type="file"]').setInputFiles([file('big.txt', 1500)]);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.composer .notice', { hasText: 'Not sent' }).waitFor(WAIT);
    expect(await page.locator('.composer .notice').innerText()).toMatch(/big\.txt/);
    expect(await page.locator('#composer-text').inputValue()).toBe('with files');
    await shot(page, 'too-large');

    await page.locator('input[type="file"]').setInputFiles([file('a.txt', 10), file('b.txt', 10), file('c.txt', 10)]);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.composer .notice', { hasText: 'at most 2 files' }).waitFor(WAIT);
    expect(await page.locator('#composer-text').inputValue()).toBe('with files');
    await shot(page, 'too-many');

    await page.locator('input[type="file"]').setInputFiles([file('notes.txt', 20)]);
    await page.getByRole('button', { name: 'Send' }).click();
    await waitForOutcome(replies(page).last(), 'COMPLETED');
    expect(await page.locator('.message.mine .attachment').innerText()).toContain('notes.txt');
    expect(await page.locator('#composer-text').inputValue()).toBe('');
    await shot(page, 'sent');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('answers a question card by typing and inline, and keeps an approval card across a server restart', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Cards');
    const page = await openChat('cards', { threadId });
    restartedPages.add(page);
    await type(page, '/ask What colour?');
    await page.getByRole('form', { name: 'The assistant asks' }).waitFor(WAIT);
    expect(await page.locator('.card.question').innerText()).toContain('What colour?');
    await shot(page, 'question');
    await type(page, 'blue');
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('You answered: "blue"');
    expect(await page.locator('.card').count()).toBe(0);

    await type(page, '/ask Which city?');
    const question = page.getByRole('form', { name: 'The assistant asks' });
    await question.getByRole('textbox', { name: 'Your answer' }).fill('Lisbon');
    await question.getByRole('button', { name: 'Answer' }).click();
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('You answered: "Lisbon"');
    expect(await page.locator('.card').count()).toBe(0);

    await type(page, '/approve ship it');
    const approval = page.getByRole('group', { name: 'Approval needed' });
    await approval.waitFor(WAIT);
    await shot(page, 'approval');
    await restartServer();
    await waitLive(page);
    await page.reload();
    await waitLive(page);
    await approval.waitFor(WAIT);
    await shot(page, 'approval-after-restart');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('Approved: ship it');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('a server restart mid-stream: the page reconnects and the reply ends as recorded', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Restart mid-stream');
    const page = await openChat('restart-mid-stream', { threadId });
    restartedPages.add(page);
    await type(page, '/slow 30');
    await expect.poll(() => textOf(replies(page).last()), WAIT).toMatch(/^Counting: 1 2/);
    const reply = page.locator(`.message.reply[data-execution-id="${await replies(page).last().getAttribute('data-execution-id')}"]`);
    const stopping = restartServer();
    await page.locator('.connection:not([data-status="live"])').waitFor(WAIT);
    await shot(page, 'reconnecting');
    await stopping;
    await waitLive(page);
    await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toMatch(/^(INTERRUPTED|COMPLETED)$/);
    await send(server, user.token, threadId, 'after the restart');
    if ((await reply.getAttribute('data-outcome')) === 'INTERRUPTED') {
      await reply.locator('.error-card').waitFor(WAIT);
      await reply.locator('.badge.interrupted').waitFor(WAIT);
    } else {
      expect(await textOf(reply)).toBe(counting(30));
    }
    await shot(page, 'ended-as-recorded');
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('You said: "after the restart"');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('keeps the text while offline and sends it once the connection is back', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Offline');
    const page = await openChat('offline', { threadId });
    restartedPages.add(page);
    await context.setOffline(true);
    await page.locator('.connection[data-status="offline"]').waitFor(WAIT);
    await type(page, 'written offline');
    await page.locator('.composer .notice', { hasText: 'offline' }).waitFor(WAIT);
    // Taken from the box at once, and shown waiting to be sent.
    expect(await page.locator('#composer-text').inputValue()).toBe('');
    expect(await page.locator('.composer .outbox-item').allInnerTexts()).toEqual(['written offline']);
    await shot(page, 'offline');
    await context.setOffline(false);
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('You said: "written offline"');
    expect(await page.locator('#composer-text').inputValue()).toBe('');
    expect(await page.locator('.composer .outbox-item').count()).toBe(0);
    await shot(page, 'back-online');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('a fast typist: two messages typed and sent back to back while a reply streams are queued as two, in order', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Fast typist');
    const page = await openChat('fast-typist', { threadId });
    await type(page, '/slow 30');
    await expect.poll(() => textOf(replies(page).last()), WAIT).toMatch(/^Counting: 1/);
    const box = page.locator('#composer-text');
    await box.focus();
    // Key by key, as a person types, and the next message typed while the first send is on its way.
    const sends = await holdSends(page);
    await page.keyboard.type('alpha');
    await page.keyboard.press('Enter');
    await expect.poll(() => sends.held.length, WAIT).toBe(1);
    await page.keyboard.type('beta');
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe('');
    await sends.release();
    await expect.poll(async () => (await queueTexts(page)).length, WAIT).toBeGreaterThanOrEqual(2);
    expect(await queueTexts(page)).toEqual(['alpha', 'beta']);
    const { queue: recorded } = await requestData(server, QueueDocument, { threadId }, user.token);
    expect(recorded.items.map((item) => item.text)).toEqual(['alpha', 'beta']);
    await shot(page, 'two-queued');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => textOf(replies(page).last()), WAIT).toBe('You said: "beta"');
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('a refused send gives its text back: into the empty box, or kept as a draft when the user wrote on', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Refused');
    const page = await openChat('refused-send', { threadId });
    const box = page.locator('#composer-text');
    const tooLong = `too long ${'x'.repeat(32_000)}`;
    await type(page, tooLong);
    await page.locator('.composer .notice', { hasText: 'Not sent' }).waitFor(WAIT);
    expect(await box.inputValue()).toBe(tooLong);
    await shot(page, 'text-back');

    // The refusal is held back while the user writes a new message.
    const sends = await holdSends(page);
    await box.press('Enter');
    await expect.poll(() => sends.held.length, WAIT).toBe(1);
    expect(await box.inputValue()).toBe('');
    await page.keyboard.type('something new');
    await sends.release();
    await page.locator('.kept-draft').waitFor(WAIT);
    expect(await page.locator('.kept-draft .kept-text').allInnerTexts()).toEqual([tooLong]);
    expect(await box.inputValue()).toBe('something new');
    await shot(page, 'kept-draft');

    // Putting the draft back keeps what was in the box as a draft in its place.
    await page.getByRole('button', { name: 'Put back' }).click();
    expect(await box.inputValue()).toBe(tooLong);
    expect(await page.locator('.kept-draft .kept-text').allInnerTexts()).toEqual(['something new']);
    const { queue: recorded } = await requestData(server, QueueDocument, { threadId }, user.token);
    expect(recorded.items).toEqual([]);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('shows a German user German error copy and offers "Neuer Chat"', async () => {
    const german = await setUpAgent(server, { project: 'Deutsch', locale: 'de' });
    const threadId = await newThread(server, german.token, german.agentId, 'Zu lang');
    const page = await openChat('german', { token: german.token, threadId });
    await type(page, '/fail context_length');
    const card = page.locator('.error-card[data-reason="CONTEXT_LENGTH"]');
    await card.waitFor(WAIT);
    expect(await card.locator('strong').innerText()).toBe('Unterhaltung zu lang');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await shot(page, 'german-card');
    await card.getByRole('button', { name: 'Neuer Chat' }).click();
    await expect.poll(() => new URLSearchParams(new URL(page.url()).hash.slice(1)).get('thread'), WAIT).not.toBe(threadId);
    await waitLive(page);
    expect(await replies(page).count()).toBe(0);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('edits a message inline, compares the answers with the picker, regenerates one, then renames and deletes the thread', async () => {
    const threadId = await newThread(server, user.token, user.agentId, 'Branching');
    const page = await openChat('branches', { threadId });
    const mine = page.locator('.message.mine');
    await type(page, 'first');
    await waitForOutcome(replies(page).nth(0), 'COMPLETED');
    await type(page, 'second');
    await waitForOutcome(replies(page).nth(1), 'COMPLETED');

    // Esc leaves the message as it was; Save & send makes the edit the shown branch.
    await mine.nth(0).locator('.edit-message').click();
    await page.locator('.edit-form textarea').press('Escape');
    await expect.poll(() => page.locator('.edit-form').count(), WAIT).toBe(0);
    await mine.nth(0).locator('.edit-message').click();
    await page.locator('.edit-form textarea').fill('first, edited');
    await page.getByRole('button', { name: 'Save & send' }).click();
    await expect.poll(() => textOf(replies(page).nth(0)), WAIT).toBe('You said: "first, edited"');
    await expect.poll(() => replies(page).count(), WAIT).toBe(1);
    await expect.poll(() => mine.nth(0).locator('.branch-position').innerText(), WAIT).toBe('2 / 2');
    await shot(page, 'edited');

    // The picker goes back to the first version, with its later turn.
    await mine.nth(0).getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(() => replies(page).count(), WAIT).toBe(2);
    await expect.poll(() => mine.nth(0).locator('.branch-position').innerText(), WAIT).toBe('1 / 2');
    expect(await textOf(replies(page).nth(1))).toBe('You said: "second"');

    await replies(page).nth(1).locator('.regenerate').click();
    await expect.poll(() => replies(page).nth(1).locator('.branch-position').innerText(), WAIT).toBe('2 / 2');
    await waitForOutcome(replies(page).nth(1), 'COMPLETED');
    await page.reload();
    await waitLive(page);
    await expect.poll(() => replies(page).nth(1).locator('.branch-position').innerText(), WAIT).toBe('2 / 2');
    expect(await mine.nth(0).locator('.branch-position').innerText()).toBe('1 / 2');
    await shot(page, 'regenerated');

    const item = page.locator('.thread-item', { hasText: 'Branching' });
    await item.locator('.rename-thread').click();
    await page.locator('.thread-item .rename input').fill('Renamed chat');
    await page.locator('.thread-item .rename').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.thread-item', { hasText: 'Renamed chat' }).count(), WAIT).toBe(1);
    const renamed = page.locator('.thread-item', { hasText: 'Renamed chat' });
    await renamed.locator('.delete-thread').click();
    await expect.poll(() => page.getByRole('alertdialog').innerText(), WAIT).toContain('Renamed chat');
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => page.locator('.thread-item', { hasText: 'Renamed chat' }).count(), WAIT).toBe(0);
    await page.locator('main .hint').waitFor(WAIT);
    const gone = await requestData(server, QueueDocument, { threadId }, user.token).catch((error: unknown) => String(error));
    expect(String(gone)).toMatch(/NOT_FOUND|not found/i);
  }, TEST_TIMEOUT_MS);

  it('served its pages with the strict policy; no request left the origin and no page logged an error', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('content-security-policy')).toBe(WEB_APP_CONTENT_SECURITY_POLICY);
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
