import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppViewerDocument } from '../../packages/client/src/documents.ts';
import { AddToolServerDocument, ProjectToolServersDocument, RemoveToolServerDocument } from '../../packages/client/src/tool-server-documents.ts';
import { announceSkip, CHROMIUM, CHROMIUM_ARGS, keepInsideOrigin, recordPageErrors, requireChromium, skipBrowserSuite } from '../support/chromium.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';
import { addMember, setUpAgent, type User } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';

// The web chat's project settings screen (web/src/ProjectSettings.tsx) in Debian's Chromium against
// a real server and real MCP servers: an admin adds, refreshes and removes tool servers and sees
// their status, header names and tools; refused adds show the server's error and add nothing; a
// header's value never reaches the page; a plain member gets no settings entry (the API gives only
// admins management). Every request outside the server's origin is aborted and recorded; each step
// saves a screenshot under test-artifacts/web-tool-servers/ (gitignored).

announceSkip('the web chat tool-server settings tests');

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/web-tool-servers');
const SETUP_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 120_000;
const WAIT = { timeout: 30_000 };
const SECRET = 'Bearer web-header-value-never-shown-4711';
const PROJECT = 'Tool project';
const TOOL_NAMES = ['tools/ask', 'tools/big', 'tools/echo', 'tools/fail', 'tools/picture', 'tools/slow', 'tools/steps'];

describe.skipIf(skipBrowserSuite)('the tool-server settings in Chromium', () => {
  let server: TestServer;
  let mcp: TestMcpServer;
  let guarded: TestMcpServer;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;
  let admin: User & { projectId: string; agentId: string };
  let member: User;
  let projectNodeId: string;
  let outsideRequests: string[] = [];
  const consoleErrors: { page: string; text: string }[] = [];
  const pageNames = new Map<Page, string>();
  let pageCount = 0;

  async function shot(page: Page, step: string) {
    await page.screenshot({ path: path.join(ARTIFACTS, `${pageNames.get(page)}-${step}.png`), fullPage: true });
  }

  /** Opens the chat as the admin, then their project's settings screen. */
  async function openSettings(name: string): Promise<Page> {
    const page = await openChat(name, admin.token);
    await page.getByRole('button', { name: `Tool servers of ${PROJECT}` }).click();
    return page;
  }

  async function openChat(name: string, token: string): Promise<Page> {
    const page = await context.newPage();
    pageNames.set(page, `${String(++pageCount).padStart(2, '0')}-${name}`);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${origin}/#${new URLSearchParams({ token })}`);
    return page;
  }

  /** A server's row on the screen, by its name. */
  const row = (page: Page, name: string) =>
    page.locator('.tool-server', { has: page.getByRole('heading', { level: 3, name, exact: true }) });

  const storedServers = () => server.parley.db.prisma.toolServer.findMany({ where: { projectId: admin.projectId }, orderBy: { name: 'asc' } });

  async function addServer(page: Page, fields: { name: string; url: string; timeoutMs?: string }) {
    const form = page.getByRole('form', { name: 'Add a tool server' });
    await form.getByLabel('Name', { exact: true }).fill(fields.name);
    await form.getByLabel('URL', { exact: true }).fill(fields.url);
    if (fields.timeoutMs) await form.getByLabel('Timeout in ms (optional)').fill(fields.timeoutMs);
    await form.getByRole('button', { name: 'Add server' }).click();
  }

  async function refusedAdd(page: Page, fields: { name: string; url: string }, expected: RegExp) {
    const before = await storedServers();
    const rowsBefore = await page.locator('.tool-server').count();
    const namedBefore = await row(page, fields.name).count();
    await addServer(page, fields);
    const alert = page.getByRole('form', { name: 'Add a tool server' }).getByRole('alert');
    await expect.poll(() => alert.innerText().catch(() => ''), WAIT).toMatch(expected);
    expect(await page.locator('.tool-server').count()).toBe(rowsBefore);
    expect(await row(page, fields.name).count()).toBe(namedBefore);
    expect(await storedServers()).toEqual(before);
    // The fields stay to be corrected.
    expect(await page.getByRole('form', { name: 'Add a tool server' }).getByLabel('URL', { exact: true }).inputValue()).toBe(fields.url);
  }

  beforeAll(async () => {
    requireChromium();
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const [tools, withHeader, started] = await Promise.all([
      startMcpServer(),
      startMcpServer({ requiredAuthorization: SECRET }),
      startTestServer({
        env: { PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1', PARLEY_SECRET_KEY: 'b'.repeat(64), PARLEY_TOOL_TIMEOUT_MS: '5000' },
      }),
      ensureWebAppBuilt(),
    ]);
    mcp = tools;
    guarded = withHeader;
    server = started;
    origin = new URL(server.url).origin;
    admin = await setUpAgent(server, { project: PROJECT });
    // A member of the admin's project, and the admin of a project of their own (in German).
    member = await addMember(server, admin.projectId, { role: 'member', locale: 'de' });
    await setUpAgent(server, { project: 'Eigenes Projekt', user: member });
    const { viewer } = await requestData(server, AppViewerDocument, {}, admin.token);
    projectNodeId = viewer.projects.find((project) => project.name === PROJECT)!.id;
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
    await Promise.all([mcp?.stop(), guarded?.stop()]);
  }, SETUP_TIMEOUT_MS);

  it('an admin adds a real MCP server and sees it connected with its tools; refused adds say why and add nothing', async () => {
    const page = await openSettings('admin-add');
    const heading = page.getByRole('heading', { level: 2, name: `Tool servers of ${PROJECT}` });
    await heading.waitFor(WAIT);
    await page.getByText('No tool servers yet.').waitFor(WAIT);
    // The screen takes the focus, for keyboard and screen-reader users.
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement), WAIT).toBe(true);
    await shot(page, 'empty');

    await addServer(page, { name: 'tools', url: mcp.url, timeoutMs: '4000' });
    const tools = row(page, 'tools');
    await tools.waitFor(WAIT);
    expect(await tools.getAttribute('data-status')).toBe('CONNECTED');
    expect(await tools.locator('.server-status').innerText()).toBe('Connected');
    expect(await tools.locator('.server-url').innerText()).toBe(mcp.url);
    expect(await tools.getByText('HTTP', { exact: true }).count()).toBe(1);
    expect(await tools.locator('.header-names').innerText()).toBe('none');
    expect(await tools.getByText('4.0 s').count()).toBe(1);
    const listed = tools.getByRole('list', { name: 'Tools of tools' });
    expect((await listed.locator('code').allInnerTexts()).sort()).toEqual(TOOL_NAMES);
    expect(await listed.getByRole('listitem').filter({ hasText: 'tools/echo' }).innerText()).toContain('Echoes the text back.');
    await page.getByRole('status').filter({ hasText: 'Added tools.' }).waitFor(WAIT);
    // The form is empty again.
    const form = page.getByRole('form', { name: 'Add a tool server' });
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    expect(await form.getByLabel('URL', { exact: true }).inputValue()).toBe('');
    await shot(page, 'connected');

    // A host the server refuses (private, not in PARLEY_TOOL_ALLOWED_HOSTS), a URL that is none, a bad name, a taken name.
    await refusedAdd(page, { name: 'private', url: 'http://10.20.30.40/mcp' }, /url: .*10\.20\.30\.40.*PARLEY_TOOL_ALLOWED_HOSTS/);
    await shot(page, 'refused-host');
    expect(await page.getByLabel('URL', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await refusedAdd(page, { name: 'nourl', url: 'not a url' }, /url: is not a URL/);
    await refusedAdd(page, { name: 'Bad Name', url: mcp.url }, /name: must be 1 to 40 lower-case letters/);
    await refusedAdd(page, { name: 'tools', url: mcp.url }, /already has a tool server named tools/);
    expect((await storedServers()).map((stored) => stored.name)).toEqual(['tools']);
    await shot(page, 'refused-name');
  }, TEST_TIMEOUT_MS);

  it('a header-protected server: its header name is shown, its value never reaches the page', async () => {
    const page = await openSettings('admin-header');
    await row(page, 'tools').waitFor(WAIT);
    const form = page.getByRole('form', { name: 'Add a tool server' });
    await form.getByRole('button', { name: 'Add a header' }).click();
    await form.getByLabel('Header 1 name').fill('Authorization');
    const value = form.getByLabel('Header 1 value');
    expect(await value.getAttribute('type')).toBe('password');
    await value.fill(SECRET);
    await form.getByLabel('Name', { exact: true }).fill('guarded');
    await form.getByLabel('URL', { exact: true }).fill(guarded.url);
    await form.getByRole('button', { name: 'Add server' }).click();

    const added = row(page, 'guarded');
    await added.waitFor(WAIT);
    expect(await added.getAttribute('data-status')).toBe('CONNECTED');
    expect(await added.locator('.header-names').innerText()).toBe('Authorization');
    expect((await added.locator('code').allInnerTexts()).sort()).toEqual(TOOL_NAMES.map((name) => name.replace('tools/', 'guarded/')));
    // The server got the value; the page keeps it nowhere: not in its markup, text or inputs.
    expect(guarded.authorizations).toContain(SECRET);
    expect(await form.getByLabel('Header 1 value').count()).toBe(0);
    expect(await page.content()).not.toContain(SECRET);
    expect(await page.locator('body').innerText()).not.toContain(SECRET);
    const inputs = await page.locator('input').evaluateAll((elements) => elements.map((element) => (element as HTMLInputElement).value));
    expect(inputs.join('\n')).not.toContain(SECRET);
    await shot(page, 'header-name-only');

    // A refused add empties the header's value too (it is never kept), but keeps its name.
    await form.getByRole('button', { name: 'Add a header' }).click();
    await form.getByLabel('Header 1 name').fill('X-Api-Key');
    await form.getByLabel('Header 1 value').fill(SECRET);
    await form.getByLabel('Name', { exact: true }).fill('guarded');
    await form.getByLabel('URL', { exact: true }).fill(guarded.url);
    await form.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => form.getByRole('alert').innerText().catch(() => ''), WAIT).toContain('already has a tool server named guarded');
    expect(await form.getByLabel('Header 1 value').inputValue()).toBe('');
    expect(await form.getByLabel('Header 1 name').inputValue()).toBe('X-Api-Key');
    expect(await page.content()).not.toContain(SECRET);
    expect((await storedServers()).map((stored) => stored.headerNames)).toEqual([['Authorization'], []]);
  }, TEST_TIMEOUT_MS);

  it('refreshes a server: unavailable while its MCP server is down (with the last error), connected again after', async () => {
    const page = await openSettings('admin-refresh');
    const tools = row(page, 'tools');
    await tools.waitFor(WAIT);
    const port = Number(new URL(mcp.url).port);

    await mcp.stop();
    await tools.getByRole('button', { name: 'Refresh tools' }).click();
    await expect.poll(() => tools.getAttribute('data-status'), WAIT).toBe('UNAVAILABLE');
    expect(await tools.locator('.server-status').innerText()).toBe('Unavailable');
    expect(await tools.locator('.last-error').innerText()).not.toBe('');
    await shot(page, 'unavailable');

    mcp = await startMcpServer({ port });
    await tools.getByRole('button', { name: 'Refresh tools' }).click();
    await expect.poll(() => tools.getAttribute('data-status'), WAIT).toBe('CONNECTED');
    expect(await tools.locator('.last-error').count()).toBe(0);
    expect((await tools.locator('code').allInnerTexts()).sort()).toEqual(TOOL_NAMES);
    await shot(page, 'connected-again');

    // A refresh the server refuses (the server was removed meanwhile, by another admin) says why and changes nothing.
    const { addToolServer: other } = await requestData(server, AddToolServerDocument, { projectId: projectNodeId, name: 'gone', url: mcp.url, headers: null, timeoutMs: null }, admin.token);
    expect(other.__typename).toBe('ToolServer');
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await page.getByRole('button', { name: `Tool servers of ${PROJECT}` }).click();
    const gone = row(page, 'gone');
    await gone.waitFor(WAIT);
    await requestData(server, RemoveToolServerDocument, { toolServerId: (other as { id: string }).id }, admin.token);
    await gone.getByRole('button', { name: 'Refresh gone' }).click();
    await expect.poll(() => gone.getByRole('alert').innerText().catch(() => ''), WAIT).toMatch(/not found/i);
    expect((await storedServers()).map((stored) => stored.name)).toEqual(['guarded', 'tools']);
    await shot(page, 'refresh-refused');
  }, TEST_TIMEOUT_MS);

  it('shows how often a server’s lost session was reopened, once it has been', async () => {
    expect((await storedServers()).every((stored) => stored.reconnects === 0)).toBe(true);
    // The count as calls after the server's restarts leave it (test/api/tools-sessions.test.ts makes them).
    const { id } = (await storedServers()).find((stored) => stored.name === 'tools')!;
    await server.parley.db.prisma.toolServer.update({ where: { id }, data: { reconnects: 2, lastReconnectAt: new Date() } });
    const page = await openSettings('admin-reconnects');
    const tools = row(page, 'tools');
    await tools.waitFor(WAIT);
    await expect.poll(() => tools.locator('.reconnects').innerText().catch(() => ''), WAIT).toMatch(/^2 \(the last at .+\): the server restarted/);
    expect(await row(page, 'guarded').locator('.reconnects').count()).toBe(0);
    await page.close();
  }, TEST_TIMEOUT_MS);

  it('removes a server after a confirmation; Cancel keeps it', async () => {
    const page = await openSettings('admin-remove');
    const tools = row(page, 'tools');
    await tools.waitFor(WAIT);

    await tools.getByRole('button', { name: 'Remove tools' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove tools' });
    expect(await confirm.innerText()).toContain('Remove the tool server “tools”?');
    await shot(page, 'confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => confirm.count(), WAIT).toBe(0);
    expect(await tools.count()).toBe(1);

    await tools.getByRole('button', { name: 'Remove tools' }).click();
    await confirm.getByRole('button', { name: 'Remove for good' }).click();
    await expect.poll(() => tools.count(), WAIT).toBe(0);
    expect(await row(page, 'guarded').count()).toBe(1);
    expect((await storedServers()).map((stored) => stored.name)).toEqual(['guarded']);
    await shot(page, 'removed');
  }, TEST_TIMEOUT_MS);

  it('a plain member of the project gets no settings entry for it (the API refuses them management)', async () => {
    const page = await openChat('member', member.token);
    // The member's own project (German copy) has its entry; the admin's project has none.
    await page.getByRole('button', { name: 'Werkzeugserver von Eigenes Projekt' }).waitFor(WAIT);
    expect(await page.getByRole('button', { name: `Werkzeugserver von ${PROJECT}` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `Tool servers of ${PROJECT}` }).count()).toBe(0);
    await shot(page, 'no-entry');
    // The API: the member may read the servers, not add one.
    const { project } = await requestData(server, ProjectToolServersDocument, { projectId: projectNodeId }, member.token);
    expect(project.viewerRole).toBe('MEMBER');
    expect(project.toolServers.map((listed) => listed.name)).toEqual(['guarded']);
    expect(JSON.stringify(project)).not.toContain(SECRET);
    const { addToolServer } = await requestData(server, AddToolServerDocument, { projectId: projectNodeId, name: 'mine', url: mcp.url, headers: null, timeoutMs: null }, member.token);
    expect(addToolServer.__typename).toBe('ForbiddenError');
    expect((await storedServers()).map((stored) => stored.name)).toEqual(['guarded']);

    // Their own project's screen, in German, with the add form.
    await page.getByRole('button', { name: 'Werkzeugserver von Eigenes Projekt' }).click();
    await page.getByRole('heading', { level: 2, name: 'Werkzeugserver von Eigenes Projekt' }).waitFor(WAIT);
    await page.getByRole('form', { name: 'Werkzeugserver hinzufügen' }).waitFor(WAIT);
    await shot(page, 'own-project-de');
  }, TEST_TIMEOUT_MS);

  it('no request left the origin and no page logged an error', () => {
    expect(outsideRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
