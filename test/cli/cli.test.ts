import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userForToken } from '../../src/auth/tokens.ts';
import { openDatabase } from '../../src/db/database.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { ensureWebAppBuilt } from '../support/web-build.ts';
import { runCli as runParleyCli, startCli as startParleyCli, type CliResult } from '../support/cli.ts';

const TOKEN_LINE = /^pky_[A-Za-z0-9_-]+\n$/;

function startCli(args: string[], dataDir: string, extraEnv: Record<string, string> = {}): ChildProcess {
  return startParleyCli(args, { PARLEY_DATA_DIR: dataDir, ...extraEnv });
}

function runCli(args: string[], dataDir: string, extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runParleyCli(args, { PARLEY_DATA_DIR: dataDir, ...extraEnv });
}

/** Opens the data folder in this process after the CLI has exited, to check what it stored. */
async function inspectDatabase<T>(dataDir: string, check: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const db = await openDatabase({ dataDir });
  try {
    return await check(db);
  } finally {
    await db.close();
  }
}

const tempDirs: string[] = [];
function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-cli-'));
  tempDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

// Every step starts node + tsx + PGlite in a child process: seconds each, more on a loaded machine.
describe('parley CLI', { timeout: 120_000 }, () => {
  // One data folder for all tests, because setting up a fresh PGlite folder costs seconds; each
  // test uses its own emails and projects. The migrate test comes first so that it sees it fresh.
  let dataDir: string;
  beforeAll(() => {
    dataDir = freshDataDir();
  });

  it('migrate applies the migrations once and then reports the database up to date', async () => {
    const first = await runCli(['migrate'], dataDir);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Applied \d+ migrations? to the embedded database in .+:\n/);
    expect(first.stdout).toContain('0001_init');

    const second = await runCli(['migrate'], dataDir);
    expect(second).toEqual({ code: 0, stdout: 'Database is up to date.\n', stderr: '' });
  });

  it('user create prints only a working token, and stores the locale', async () => {
    const english = await runCli(['user', 'create', '--email', 'Ann@Example.com'], dataDir);
    const german = await runCli(['user', 'create', '--email', 'bernd@example.com', '--locale', 'de'], dataDir);
    for (const result of [english, german]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(TOKEN_LINE);
      expect(result.stderr).toBe('');
    }

    const [ann, bernd] = await inspectDatabase(dataDir, (db) =>
      Promise.all([userForToken(db.prisma, english.stdout.trim()), userForToken(db.prisma, german.stdout.trim())]),
    );
    expect(ann).toMatchObject({ email: 'ann@example.com', locale: 'en' });
    expect(bernd).toMatchObject({ email: 'bernd@example.com', locale: 'de' });
  });

  it('user create rejects a bad email with exit 1 and a missing or invalid flag with exit 2', async () => {
    // Only the first opens the database; usage errors are reported before that, so they can run alongside.
    const [badEmail, missingEmail, badLocale, unknownCommand] = await Promise.all([
      runCli(['user', 'create', '--email', 'not-an-email'], dataDir),
      runCli(['user', 'create'], dataDir),
      runCli(['user', 'create', '--email', 'x@example.com', '--locale', 'fr'], dataDir),
      runCli(['frobnicate'], dataDir),
    ]);
    expect(badEmail).toEqual({ code: 1, stdout: '', stderr: 'parley: user create: email: is not an email address.\n' });

    expect(missingEmail.code).toBe(2);
    expect(missingEmail.stdout).toBe('');
    expect(missingEmail.stderr).toMatch(/^parley: user create: missing required flag --email\b.*\n$/);

    expect(badLocale.code).toBe(2);
    expect(badLocale.stderr).toMatch(/^parley: user create: --locale must be one of en, de; got "fr"\.\n$/);

    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frobnicate"');
  });

  it('creates a project with an admin, adds a member and creates an agent', async () => {
    await runCli(['user', 'create', '--email', 'carla@example.com'], dataDir);
    await runCli(['user', 'create', '--email', 'dave@example.com'], dataDir);

    const project = await runCli(['project', 'create', '--name', 'Acme', '--admin', 'carla@example.com'], dataDir);
    expect(project).toMatchObject({ code: 0, stderr: '' });
    const projectGlobalId = project.stdout.trim();
    const projectId = decodeId('project', projectGlobalId, 'Project');

    const member = await runCli(['member', 'add', '--project', projectId, '--user', 'dave@example.com', '--role', 'viewer'], dataDir);
    expect(member).toEqual({
      code: 0,
      stdout: `dave@example.com is now viewer of project "Acme" (${projectGlobalId}).\n`,
      stderr: '',
    });

    const agent = await runCli(
      ['agent', 'create', '--project', projectGlobalId, '--name', 'Helper', '--model', 'demo:default', '--system-prompt', 'Be brief.'],
      dataDir,
    );
    expect(agent).toMatchObject({ code: 0, stderr: '' });
    const agentId = decodeId('agent', agent.stdout.trim(), 'Agent');

    const unknownProvider = await runCli(
      ['agent', 'create', '--project', projectGlobalId, '--name', 'Other', '--model', 'nope:x'],
      dataDir,
    );
    expect(unknownProvider.code).toBe(1);
    expect(unknownProvider.stdout).toBe('');
    expect(unknownProvider.stderr).toMatch(/^parley: agent create: model: Model "nope:x" uses provider "nope", which is not configured\..*\n$/);

    const stored = await inspectDatabase(dataDir, async (db) => ({
      roles: await db.prisma.membership.findMany({
        where: { projectId },
        select: { role: true, user: { select: { email: true } } },
        orderBy: { role: 'asc' },
      }),
      agents: await db.prisma.agent.findMany({ where: { projectId }, select: { id: true, model: true, systemPrompt: true } }),
    }));
    expect(stored.roles).toEqual([
      { role: 'ADMIN', user: { email: 'carla@example.com' } },
      { role: 'VIEWER', user: { email: 'dave@example.com' } },
    ]);
    expect(stored.agents).toEqual([{ id: agentId, model: 'demo:default', systemPrompt: 'Be brief.' }]);
  });

  it('thread delete removes a thread with all of it, and refuses an unknown one', async () => {
    const threadId = await inspectDatabase(dataDir, async (db) => {
      await db.migrate();
      const owner = await db.prisma.user.create({ data: { email: 'deleting@example.com' } });
      const project = await db.prisma.project.create({ data: { name: 'Deletion' } });
      const agent = await db.prisma.agent.create({ data: { projectId: project.id, name: 'A', model: 'demo:default' } });
      const thread = await db.prisma.thread.create({ data: { agentId: agent.id, ownerId: owner.id, title: 'to delete' } });
      const message = await db.prisma.message.create({ data: { threadId: thread.id, role: 'USER', parts: [{ type: 'text', text: 'hi' }] } });
      await db.prisma.attachment.create({ data: { messageId: message.id, filename: 'a.txt', mediaType: 'text/plain', size: 2, dataBase64: 'aGk=' } });
      await db.prisma.queueItem.create({ data: { threadId: thread.id, userId: owner.id, text: 'pending', position: 1 } });
      await db.prisma.threadEvent.create({ data: { threadId: thread.id, seq: 1, type: 'QueueUpdated', payload: { type: 'QueueUpdated' } } });
      return thread.id;
    });
    const deleted = await runCli(['thread', 'delete', encodeId('Thread', threadId)], dataDir);
    expect(deleted).toEqual({ code: 0, stdout: `deleted ${encodeId('Thread', threadId)}\n`, stderr: '' });
    const left = await inspectDatabase(dataDir, async (db) => ({
      threads: await db.prisma.thread.count({ where: { id: threadId } }),
      messages: await db.prisma.message.count({ where: { threadId } }),
      queueItems: await db.prisma.queueItem.count({ where: { threadId } }),
      events: await db.prisma.threadEvent.count({ where: { threadId } }),
      files: await db.prisma.attachment.count({ where: { filename: 'a.txt' } }),
    }));
    expect(left).toEqual({ threads: 0, messages: 0, queueItems: 0, events: 0, files: 0 });
    const again = await runCli(['thread', 'delete', threadId], dataDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^parley: thread delete: Thread .* was not found\.\n$/);
  });

  describe('serve', () => {
    let server: ChildProcess | null = null;
    afterEach(() => {
      server?.kill('SIGKILL');
      server = null;
    });

    it('prints the URL and a demo token, locks the data folder for other commands, and stops on SIGTERM', async () => {
      await ensureWebAppBuilt();
      const userToken = (await runCli(['user', 'create', '--email', 'erin@example.com'], dataDir)).stdout.trim();

      server = startCli(['serve'], dataDir, { PORT: '0' });
      const running = server;
      const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
      let banner = '';
      await new Promise<void>((resolve, reject) => {
        running.stdout!.on('data', (chunk) => {
          banner += chunk;
          if (banner.includes('Demo agent id:')) resolve();
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code} before printing its banner`)));
      });
      const url = /GraphiQL: (http:\/\/\S+\/graphql)/.exec(banner)?.[1];
      expect(url).toBeDefined();
      expect(banner).toMatch(/Demo API token: pky_[A-Za-z0-9_-]+\n/);
      const demoToken = /Demo API token: (\S+)/.exec(banner)![1]!;
      const origin = new URL(url!).origin;
      expect(banner).toContain(`  Chat:     ${origin}/\n`);
      expect(banner).toContain(`Open the chat signed in as the demo user: ${origin}/#token=${demoToken}\n`);
      const chat = await fetch(`${origin}/`);
      expect(chat.status).toBe(200);
      expect(chat.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await chat.text()).toContain('<div id="root"></div>');

      const health = await fetch(new URL('/health', url));
      expect(health.status).toBe(200);
      const viewer = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${userToken}` },
        body: JSON.stringify({ query: '{ viewer { email } }' }),
      });
      expect(await viewer.json()).toEqual({ data: { viewer: { email: 'erin@example.com' } } });

      const whileServing = await runCli(['user', 'create', '--email', 'frank@example.com'], dataDir);
      expect(whileServing.code).toBe(1);
      expect(whileServing.stdout).toBe('');
      expect(whileServing.stderr).toMatch(/^parley: user create: The embedded database in .+ is in use by another Parley process \(pid \d+\)\..*\n$/);

      running.kill('SIGTERM');
      expect(await exited).toBe(0);

      // The refused run changed nothing: the email is still free.
      const afterStop = await runCli(['user', 'create', '--email', 'frank@example.com'], dataDir);
      expect(afterStop).toMatchObject({ code: 0, stderr: '' });
      expect(afterStop.stdout).toMatch(TOKEN_LINE);
    });
  });

  it('exits 2 naming the variable when the environment is invalid', async () => {
    const result = await runCli(['user', 'create', '--email', 'gina@example.com'], dataDir, { PORT: 'abc' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^parley: invalid configuration: PORT: .*\n$/);
  });
});
