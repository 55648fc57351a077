import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { addMember, setUpAgent, type User } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// Budgets in money on the web chat's Usage page (web/src/BudgetsPanel.tsx) in Debian's Chromium: an
// admin adds one (a refused amount says why), a reply stops at it with the budget's card, the gauge
// shows it spent, a member reads it in German without the controls, and the admin removes it.

announceSkip('the web chat budget tests');

const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };
const PROJECT = 'Budget project';

describe.skipIf(skipBrowserSuite)('budgets in the web chat, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let admin: User & { projectId: string; agentId: string };
  let member: User;
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];

  async function open(token: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${origin}/#${new URLSearchParams({ token })}`);
    return page;
  }

  beforeAll(async () => {
    requireChromium();
    const [started] = await Promise.all([startTestServer(), ensureWebAppBuilt()]);
    server = started;
    origin = new URL(server.url).origin;
    admin = await setUpAgent(server, { project: PROJECT, tools: [] });
    member = await addMember(server, admin.projectId, { role: 'member', locale: 'de' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    ({ outside: outsideRequests } = await keepInsideOrigin(context, origin));
    recordPageErrors(context, consoleErrors, () => 'budgets');
  }, SETUP_TIMEOUT_MS);

  afterEach(async () => {
    for (const page of context?.pages() ?? []) await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, SETUP_TIMEOUT_MS);

  it('lets an admin add a budget that stops a reply at it, shows it spent, and remove it', async () => {
    const page = await open(admin.token);
    await page.getByRole('button', { name: `Usage of ${PROJECT}` }).click();
    const budgets = page.locator('section.budgets');
    await budgets.getByText('No budgets: spend is not capped.').waitFor(WAIT);

    const form = page.getByRole('form', { name: 'Add a budget' });
    await form.getByLabel('Agent').selectOption({ label: 'Demo' });
    await form.getByLabel('For').selectOption({ label: 'each user' });
    await form.getByLabel('Period').selectOption({ label: 'per day' });
    await form.getByLabel('Amount').fill('-1');
    await form.getByRole('button', { name: 'Save budget' }).click();
    await form.getByRole('alert').filter({ hasText: 'amount' }).waitFor(WAIT);
    expect(await budgets.locator('li.budget').count()).toBe(0);

    // About 250 output tokens of the demo model (2.00 per million).
    await form.getByLabel('Amount').fill('0.0005');
    await form.getByRole('button', { name: 'Save budget' }).click();
    await form.getByRole('status').filter({ hasText: 'Budget saved.' }).waitFor(WAIT);
    const item = budgets.locator('li.budget');
    await expect.poll(() => item.innerText().catch(() => ''), WAIT).toContain('Demo · each user · per day');
    expect(await item.innerText()).toContain('$0.00 of $0.0005 spent (your share)');

    // A reply past it stops there with the budget's card.
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    await page.locator('#composer-text').fill('/tokens 900');
    await page.locator('#composer-text').press('Enter');
    const reply = page.locator('.message.reply').first();
    await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toBe('REFUSED');
    const card = page.locator('.error-card[data-reason="QUOTA_EXCEEDED"]');
    await card.waitFor(WAIT);
    expect(await card.innerText()).toContain('Your daily budget of 0.0005 USD for the agent “Demo” is used up');
    // What streamed before it stays.
    expect(await reply.innerText()).toContain('t1 t2 t3');

    await page.getByRole('button', { name: `Usage of ${PROJECT}` }).click();
    await expect.poll(() => budgets.locator('meter').evaluate((meter) => (meter as HTMLMeterElement).value).catch(() => -1), WAIT).toBe(100);

    // Removed, it is gone.
    await budgets.getByRole('button', { name: 'Remove the budget Demo · each user · per day' }).click();
    await budgets.getByText('No budgets: spend is not capped.').waitFor(WAIT);
  }, TEST_TIMEOUT_MS);

  it('shows a member the budgets and their own share, in their language, without the controls', async () => {
    const set = await server.parley.services.budgets.setBudget(await server.parley.db.prisma.user.findUniqueOrThrow({ where: { id: admin.userId } }), {
      projectId: admin.projectId,
      perUser: false,
      period: 'MONTH',
      amount: '12.5',
    });
    expect(set.perUser).toBe(false);
    const page = await open(member.token);
    await page.getByRole('button', { name: `Dein Verbrauch in ${PROJECT}` }).click();
    const item = page.locator('section.budgets li.budget');
    await expect.poll(() => item.innerText().catch(() => ''), WAIT).toContain('Alle Agenten · alle zusammen · pro Monat');
    // Shared: everyone's spend this month, the admin's stopped reply included (in German notation).
    const spent = (await server.parley.services.budgets.budgetsOf(await server.parley.db.prisma.user.findUniqueOrThrow({ where: { id: member.userId } }), admin.projectId))[0]!.spentPicos;
    expect(spent).toBeGreaterThan(0n);
    const amount = `${spent / 10n ** 12n},${(spent % 10n ** 12n).toString().padStart(12, '0').replace(/0+$/, '').padEnd(2, '0')}`;
    expect(await item.innerText()).toContain(`${amount}\u00a0$ von 12,50\u00a0$ ausgegeben`);
    expect(await page.getByRole('form', { name: 'Budget hinzufügen' }).count()).toBe(0);
    expect(await item.getByRole('button').count()).toBe(0);
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
