import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppViewerDocument } from '../../packages/client/src/documents.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { ExecutionUsageDocument, type UsageFieldsFragment } from '../support/documents.ts';
import { ofKind } from '../support/run-events.ts';
import { addMember, newThread, sendAndFollow, setUpAgent, type User } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// Usage and cost in the web chat (web/src/ReplyUsage.tsx, web/src/UsagePage.tsx) in Debian's
// Chromium against a real server on the demo model, whose price docs/usage.md documents: each
// finished reply's line shows its tokens and its exact cost (a delegated task's included), live
// and after a reload, read once per reply; the Usage page shows an admin the whole project's spend
// per day and per user, model and agent, and a member (here in German) only their own. Expected
// amounts are computed here from the documented price, independently of src/usage. Screenshots go
// to test-artifacts/web-usage/ (gitignored).

announceSkip('the web chat usage tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-usage');
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };
const PROJECT = 'Usage project';
/** The demo model's documented price per million tokens, in micro-units: a token's price in pico-units. */
const DEMO_PRICE = { input: 1_000_000n, cachedInput: 100_000n, cacheWrite: 1_250_000n, output: 2_000_000n, reasoning: 3_000_000n };

type Tokens = Pick<UsageFieldsFragment, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'outputTokens' | 'reasoningTokens'>;

/** What docs/usage.md says a call costs, in pico-units of the currency. */
function demoCost(tokens: Tokens): bigint {
  return (
    BigInt(tokens.inputTokens - tokens.cachedInputTokens - tokens.cacheWriteTokens) * DEMO_PRICE.input +
    BigInt(tokens.cachedInputTokens) * DEMO_PRICE.cachedInput +
    BigInt(tokens.cacheWriteTokens) * DEMO_PRICE.cacheWrite +
    BigInt(tokens.outputTokens - tokens.reasoningTokens) * DEMO_PRICE.output +
    BigInt(tokens.reasoningTokens) * DEMO_PRICE.reasoning
  );
}

/** Pico-units as a decimal string: at least two decimals, no trailing zeros beyond them ("0.000018", "1.50"). */
function decimal(picos: bigint): string {
  const whole = picos / 10n ** 12n;
  const fraction = (picos % 10n ** 12n).toString().padStart(12, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

const dollars = (picos: bigint) => `$${decimal(picos)}`;
/** German notation of a USD amount: decimal comma, the symbol after a no-break space. */
const dollarsDe = (picos: bigint) => `${decimal(picos).replace('.', ',')}\u00a0$`;
const grouped = (count: number) => count.toLocaleString('en-US');

describe.skipIf(skipBrowserSuite)('usage and cost in the web chat, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let admin: User & { projectId: string; agentId: string; email: string };
  let member: User & { email: string };
  /** Every run's usage (its total) as the API reported it, by whose it was; the member's thread. */
  const spent = { admin: [] as UsageFieldsFragment[], member: [] as UsageFieldsFragment[] };
  let memberThreadId: string;
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  const pageNames = new Map<Page, string>();
  let pageCount = 0;

  async function shot(page: Page, step: string) {
    await page.screenshot({ path: path.join(ARTIFACTS, `${pageNames.get(page)}-${step}.png`), fullPage: true });
  }

  async function openChat(name: string, token: string, threadId?: string): Promise<Page> {
    const page = await context.newPage();
    pageNames.set(page, `${String(++pageCount).padStart(2, '0')}-${name}`);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${origin}/#${new URLSearchParams({ token, ...(threadId ? { thread: threadId } : {}) })}`);
    return page;
  }

  const emailOf = async (token: string) => (await requestData(server, AppViewerDocument, {}, token)).viewer.email;
  /** What the runs cost, computed here from their tokens, in pico-units; and how many model calls they made. */
  const costOf = (runs: UsageFieldsFragment[]) => runs.reduce((sum, run) => sum + demoCost(run), 0n);
  const callsOf = (runs: UsageFieldsFragment[]) => String(runs.reduce((sum, run) => sum + run.modelCalls, 0));
  const today = () => new Date().toISOString().slice(0, 10);

  /** The usage of the run behind a reply, as the API reports it. */
  async function usageOfReply(reply: Locator): Promise<UsageFieldsFragment> {
    const executionId = await reply.getAttribute('data-execution-id');
    const { node } = await requestData(server, ExecutionUsageDocument, { id: executionId! }, admin.token);
    return (node as { usage: { total: UsageFieldsFragment } }).usage.total;
  }

  /** The line docs/usage.md's "In the web chat" describes, with the cost computed here. */
  function expectedLine(usage: UsageFieldsFragment): string {
    const kinds = [`${grouped(usage.inputTokens)} in`, `${grouped(usage.outputTokens)} out`];
    if (usage.cachedInputTokens > 0) kinds.push(`${grouped(usage.cachedInputTokens)} cached`);
    if (usage.cacheWriteTokens > 0) kinds.push(`${grouped(usage.cacheWriteTokens)} cache writes`);
    if (usage.reasoningTokens > 0) kinds.push(`${grouped(usage.reasoningTokens)} reasoning`);
    return `${grouped(usage.inputTokens + usage.outputTokens)} tokens (${kinds.join(' · ')}) · ${dollars(demoCost(usage))}`;
  }

  /** The same in German (the demo's plain replies have no cached input and no cache writes). */
  function expectedLineDe(usage: UsageFieldsFragment): string {
    const de = (count: number) => count.toLocaleString('de-DE');
    const kinds = [`${de(usage.inputTokens)} Eingabe`, `${de(usage.outputTokens)} Ausgabe`, `${de(usage.reasoningTokens)} Reasoning`];
    return `${de(usage.inputTokens + usage.outputTokens)} Tokens (${kinds.join(' · ')}) · ${dollarsDe(demoCost(usage))}`;
  }

  /** A table's rows (its body) as the text of each cell. */
  async function tableRows(page: Page, title: string): Promise<string[][]> {
    const table = page.getByRole('table', { name: title });
    await table.waitFor(WAIT);
    return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText)));
  }

  const dayTitle = (page: Page, day: string) => page.locator(`svg g[data-day="${day}"] > title`);

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const [started] = await Promise.all([startTestServer(), ensureWebAppBuilt()]);
    server = started;
    origin = new URL(server.url).origin;
    const setUp = await setUpAgent(server, { project: PROJECT });
    admin = { ...setUp, email: (await emailOf(setUp.token))! };
    const joined = await addMember(server, admin.projectId, { role: 'member', locale: 'de' });
    member = { ...joined, email: (await emailOf(joined.token))! };
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

  it('shows each finished reply’s tokens and exact cost at the demo price, live and after a reload', async () => {
    const page = await openChat('reply-usage', admin.token);
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    const replies = page.locator('.message.reply');
    const lines: string[] = [];
    // 1,500 output tokens (thousands grouped); a plain message (its one reasoning token is priced
    // higher); a delegated task (the child's calls are in the reply's total, and the line says so).
    for (const [index, text] of ['/tokens 1500', 'price this reply please', '/delegate hello child'].entries()) {
      await page.locator('#composer-text').fill(text);
      await page.locator('#composer-text').press('Enter');
      const reply = replies.nth(index);
      await expect.poll(() => reply.getAttribute('data-outcome'), WAIT).toBe('COMPLETED');
      const usage = await usageOfReply(reply);
      expect(usage.cost).toEqual({ amount: decimal(demoCost(usage)), currency: 'USD' });
      lines.push(expectedLine(usage) + (index === 2 ? ' · delegated tasks included' : ''));
      spent.admin.push(usage);
      await expect.poll(() => reply.locator('.reply-usage').innerText().catch(() => ''), WAIT).toBe(lines[index]);
    }
    expect(lines[0]).toMatch(/^\d,\d{3} tokens \(\d+ in · 1,500 out\) · \$0\.00\d+$/);
    expect(lines[1]).toContain(' · 1 reasoning) · $');
    expect(spent.admin[2]!.modelCalls).toBeGreaterThan(2);
    await shot(page, 'live');

    // After a reload each reply's usage is read once.
    const usageReads: string[] = [];
    page.on('request', (request) => {
      if (request.postData()?.includes('query ReplyUsage')) usageReads.push(request.postData()!);
    });
    await page.reload();
    await page.locator('.connection[data-status="live"]').waitFor(WAIT);
    await expect.poll(() => page.locator('.message.reply .reply-usage').allInnerTexts(), WAIT).toEqual(lines);
    expect(usageReads).toHaveLength(3);
    // A sent message has no usage line of its own.
    expect(await page.locator('.message.mine .reply-usage').count()).toBe(0);
    await shot(page, 'reloaded');
  }, TEST_TIMEOUT_MS);

  it('shows an admin the whole project: the day’s spend, and every user, model and agent with tokens and cost', async () => {
    // The member's turn, through the API.
    memberThreadId = await newThread(server, member.token, admin.agentId);
    const events = await sendAndFollow(server, member.token, memberThreadId, 'what did this cost');
    const { node } = await requestData(server, ExecutionUsageDocument, { id: ofKind(events, 'ExecutionFinished').at(-1)!.executionId! }, member.token);
    spent.member.push((node as { usage: { total: UsageFieldsFragment } }).usage.total);
    const all = costOf([...spent.admin, ...spent.member]);

    const page = await openChat('admin-usage', admin.token);
    await page.getByRole('button', { name: `Usage of ${PROJECT}` }).click();
    const heading = page.getByRole('heading', { level: 2, name: `Usage of ${PROJECT}` });
    await heading.waitFor(WAIT);
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement), WAIT).toBe(true);
    await expect.poll(() => page.locator('.usage-total').innerText().catch(() => ''), WAIT).toBe(`Total: ${dollars(all)}`);
    expect(await dayTitle(page, today()).textContent()).toBe(`${today()}: ${dollars(all)}`);
    expect(await page.locator('svg g.usage-day:not(.empty)').count()).toBe(1);
    // The days' amounts as a table too, for the keyboard and screen readers.
    await page.locator('details.usage-days > summary').click();
    expect((await tableRows(page, 'Per day')).map((row) => [row[0], row.at(-1)])).toEqual([[today(), dollars(all)]]);

    const users = await tableRows(page, 'Per user');
    expect(users).toHaveLength(2);
    // Cells: who, input, cached, cache writes, output, reasoning, calls, cost; the most spent first.
    const adminRow = users.find((row) => row[0] === `${admin.email} (you)`)!;
    expect(adminRow.slice(-2)).toEqual([callsOf(spent.admin), dollars(costOf(spent.admin))]);
    const memberRow = users.find((row) => row !== adminRow)!;
    // Another user's email is not the project admin's to read (User.email): the row names them by id.
    expect(memberRow[0]).toMatch(/^User …/);
    expect(memberRow.slice(-2)).toEqual(['1', dollars(costOf(spent.member))]);
    const calls = callsOf([...spent.admin, ...spent.member]);
    expect(await tableRows(page, 'Per model')).toEqual([['demo:default', expect.any(String), '0', '0', expect.any(String), expect.any(String), calls, dollars(all)]]);
    const agents = await tableRows(page, 'Per agent');
    expect(agents).toHaveLength(1);
    expect(agents[0]![0]).toBe('Demo');
    expect(agents[0]!.at(-1)).toBe(dollars(all));
    await shot(page, 'admin');

    // Last month had no calls: the chart and the tables are empty, and the page says so.
    await page.getByRole('button', { name: 'Last month' }).click();
    await page.getByText('No model calls in this range.').first().waitFor(WAIT);
    expect(await page.locator('svg g.usage-day:not(.empty)').count()).toBe(0);
    await shot(page, 'admin-last-month');
  }, TEST_TIMEOUT_MS);

  it('shows a member only their own usage, in their language', async () => {
    expect(spent.member).toHaveLength(1);
    const page = await openChat('member-usage', member.token);
    await page.getByRole('button', { name: `Dein Verbrauch in ${PROJECT}` }).click();
    await page.getByRole('heading', { level: 2, name: `Dein Verbrauch in ${PROJECT}` }).waitFor(WAIT);
    await page.getByText('Du siehst nur deinen eigenen Verbrauch').waitFor(WAIT);
    const own = costOf(spent.member);
    await expect.poll(() => page.locator('.usage-total').innerText().catch(() => ''), WAIT).toBe(`Gesamt: ${dollarsDe(own)}`);
    expect(await dayTitle(page, today()).textContent()).toBe(`${today()}: ${dollarsDe(own)}`);
    const users = await tableRows(page, 'Pro Nutzer');
    expect(users).toHaveLength(1);
    expect(users[0]![0]).toBe(`${member.email} (du)`);
    expect(users[0]!.slice(-2)).toEqual(['1', dollarsDe(own)]);
    expect((await tableRows(page, 'Pro Modell')).map((row) => row.at(-1))).toEqual([dollarsDe(own)]);
    expect((await tableRows(page, 'Pro Agent')).map((row) => row[0])).toEqual(['Demo']);
    await shot(page, 'member');
    // A range ending before it starts is not asked for; the page says why.
    await page.getByLabel('Bis (einschließlich)', { exact: true }).fill(`${today().slice(0, 4)}-01-01`);
    await page.getByLabel('Von', { exact: true }).fill(`${today().slice(0, 4)}-12-31`);
    await page.getByRole('alert').filter({ hasText: 'Der erste Tag darf nicht nach dem letzten liegen.' }).waitFor(WAIT);
    expect(await page.locator('.usage-total').count()).toBe(0);
    // A member manages no tool servers: no settings entry.
    expect(await page.getByRole('button', { name: /Werkzeugserver/ }).count()).toBe(0);
    await shot(page, 'member-range-refused');

    // Their reply's line, in German notation.
    const chat = await openChat('member-reply', member.token, memberThreadId);
    const line = chat.locator('.message.reply .reply-usage');
    await expect.poll(() => line.innerText().catch(() => ''), WAIT).toBe(expectedLineDe(spent.member[0]!));
    await shot(chat, 'reply-in-german');

    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, TEST_TIMEOUT_MS);
});
