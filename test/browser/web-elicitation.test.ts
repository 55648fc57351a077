import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { messagesOf, conversation, send } from '../support/client.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { newThread, setUpAgent, type User } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The web chat's card for a tool server's question during a call (web/src/ElicitationCard.tsx) in
// Debian's Chromium against a real server and a real MCP server whose `ask` tool elicits a form of
// every field type: a wrong value is refused with the server's words and the card stays; the
// answer, a decline and a reload all work. Screenshots in test-artifacts/web-elicitation/.

announceSkip('the web chat elicitation tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-elicitation');
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };

describe.skipIf(skipBrowserSuite)('a tool server’s question in the web chat (Chromium)', () => {
  let server: TestServer;
  let mcp: TestMcpServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let user: User & { projectId: string; agentId: string };
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  const pageNames = new Map<Page, string>();

  async function openThread(name: string, threadId: string): Promise<Page> {
    const page = await context.newPage();
    pageNames.set(page, name);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${origin}/#${new URLSearchParams({ token: user.token, thread: threadId })}`);
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    return page;
  }

  const card = (page: Page) => page.getByRole('form', { name: 'A tool asks you' });

  async function toolState(threadId: string): Promise<string | undefined> {
    const reply = messagesOf(await conversation(server, user.token, threadId)).find((message) => message.role === 'ASSISTANT');
    const call = reply?.parts.find((part) => part.__typename === 'ToolCallPart') as { state?: string } | undefined;
    return call?.state;
  }

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const [tools, started] = await Promise.all([
      startMcpServer(),
      startTestServer({ env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' } }),
      ensureWebAppBuilt(),
    ]);
    mcp = tools;
    server = started;
    origin = new URL(server.url).origin;
    user = await setUpAgent(server, { project: 'Asking tools' });
    const project = await server.parley.services.tools.add(await userRow(user.userId), user.projectId, { name: 'work', url: mcp.url, headers: [] });
    expect(project).toBeTruthy();
    await server.parley.db.prisma.agent.update({
      where: { id: user.agentId },
      data: { tools: ['work/*'], toolApprovals: [{ tool: 'work/*', approval: 'NEVER' }] },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    recordPageErrors(context, consoleErrors, (page) => pageNames.get(page));
  }, SETUP_TIMEOUT_MS);

  async function userRow(id: string) {
    return server.parley.db.prisma.user.findUniqueOrThrow({ where: { id } });
  }

  afterEach(async () => {
    for (const page of context?.pages() ?? []) await page.close();
  });

  afterAll(async () => {
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await browser?.close();
    await server?.stop();
    await mcp?.stop();
  }, SETUP_TIMEOUT_MS);

  it(
    'shows the server’s form; a wrong value is refused and the card stays; after a reload the answer reaches the server',
    async () => {
      const threadId = await newThread(server, user.token, user.agentId, 'Who are you');
      const page = await openThread('answer', threadId);
      await send(server, user.token, threadId, '/tool work/ask {}');
      const form = card(page);
      await form.waitFor(WAIT);
      await expect.poll(() => form.innerText(), WAIT).toContain('Who are you?');
      await page.screenshot({ path: path.join(ARTIFACTS, '01-card.png'), fullPage: true });
      expect(await form.getByLabel('Age').getAttribute('type')).toBe('number');
      expect(await form.getByLabel('Email').getAttribute('type')).toBe('email');
      expect(await form.getByLabel('Subscribe').getAttribute('type')).toBe('checkbox');
      expect(await form.getByLabel('Colour').evaluate((element) => element.tagName)).toBe('SELECT');

      // The browser's own checks let this through (a name of one letter has no minLength check
      // until edited by a user); the server refuses it, and the card stays to be corrected.
      await form.getByLabel('Name').fill('Ada');
      await form.getByLabel('Age').fill('3.5');
      await form.evaluate((element: HTMLFormElement) => (element.noValidate = true));
      await form.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => form.getByRole('alert').innerText().catch(() => ''), WAIT).toMatch(/age must be a whole number/);
      await page.screenshot({ path: path.join(ARTIFACTS, '02-refused.png'), fullPage: true });

      await page.reload();
      await page.locator('.connection[data-status="live"]').waitFor(WAIT);
      const again = card(page);
      await again.waitFor(WAIT);
      // The fields in the server's order, after a reload too.
      const names = await again.locator('[name]').evaluateAll((elements) => elements.map((element) => element.getAttribute('name')));
      expect(names).toEqual(['name', 'email', 'age', 'subscribe', 'color']);
      await again.getByLabel('Name').fill('Ada');
      await again.getByLabel('Email').fill('ada@example.com');
      await again.getByLabel('Age').fill('36');
      await again.getByLabel('Subscribe').check();
      await again.getByLabel('Colour').selectOption('green');
      await again.getByRole('button', { name: 'Send' }).click();
      await again.waitFor({ state: 'detached', ...WAIT });
      await expect.poll(() => toolState(threadId), WAIT).toBe('SUCCEEDED');
      expect(mcp.elicited.at(-1)).toEqual({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36, subscribe: true, color: 'green' } });
      await page.screenshot({ path: path.join(ARTIFACTS, '03-answered.png'), fullPage: true });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Decline sends no content and the call goes on',
    async () => {
      const threadId = await newThread(server, user.token, user.agentId, 'Decline');
      const page = await openThread('decline', threadId);
      await send(server, user.token, threadId, '/tool work/ask {}');
      const form = card(page);
      await form.waitFor(WAIT);
      await form.getByRole('button', { name: 'Decline' }).click();
      await form.waitFor({ state: 'detached', ...WAIT });
      await expect.poll(() => toolState(threadId), WAIT).toBe('SUCCEEDED');
      expect(mcp.elicited.at(-1)).toEqual({ action: 'decline' });
    },
    TEST_TIMEOUT_MS,
  );
});
