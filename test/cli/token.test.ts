import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userForToken } from '../../src/auth/tokens.ts';
import { openDatabase } from '../../src/db/database.ts';
import { describeWithServices } from '../support/backends.ts';
import { CLI_FROM_SOURCES } from '../support/cli.ts';
import { ViewerDocument } from '../support/documents.ts';
import { isolatedEnv, request, startTestServer, type TestServer } from '../support/server.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN_LINE = /^pky_[A-Za-z0-9_-]+\n$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...CLI_FROM_SOURCES, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('parley token', { timeout: 120_000 }, () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-cli-token-'));
    env = { PARLEY_DATA_DIR: dataDir };
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, lists and revokes tokens', async () => {
    const first = await runCli(['user', 'create', '--email', 'tokens@example.com'], env);
    expect(first.stdout).toMatch(TOKEN_LINE);
    const created = await runCli(['token', 'create', '--user', 'tokens@example.com', '--label', 'ci', '--expires-in', '30d'], env);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(TOKEN_LINE);

    const listed = await runCli(['token', 'list', '--user', 'tokens@example.com'], env);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const [header, ...rows] = listed.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(header).toEqual(['id', 'created', 'last used', 'expires', 'label']);
    expect(rows.map((row) => row[4])).toEqual(['created with the user', 'ci']);
    const ci = rows[1]!;
    expect(ci[0]).toMatch(UUID);
    const expiresInDays = (Date.parse(ci[3]!) - Date.parse(ci[1]!)) / 86_400_000;
    expect(expiresInDays).toBeCloseTo(30, 1);
    expect(rows[0]![3]).toBe('-');
    expect(listed.stdout).not.toContain('pky_');

    const revoked = await runCli(['token', 'revoke', ci[0]!], env);
    expect(revoked).toEqual({ code: 0, stdout: `Token ${ci[0]} (ci) is revoked.\n`, stderr: '' });

    const admin = await runCli(['token', 'create', '--user', 'tokens@example.com', '--admin'], env);
    expect(admin).toMatchObject({ code: 0, stderr: '' });
    expect(admin.stdout).toMatch(TOKEN_LINE);

    const db = await openDatabase({ dataDir });
    try {
      expect(await userForToken(db.prisma, created.stdout.trim())).toBeNull();
      expect(await userForToken(db.prisma, first.stdout.trim())).toMatchObject({ email: 'tokens@example.com' });
      const kinds = await db.prisma.apiToken.findMany({ select: { label: true, admin: true }, orderBy: { createdAt: 'asc' } });
      expect(kinds).toEqual([
        { label: 'created with the user', admin: false },
        { label: 'admin, created at the command line', admin: true },
      ]);
    } finally {
      await db.close();
    }
  });

  it('says what is wrong with a bad command line or an unknown token', async () => {
    const [missingId, badDuration, twoIds] = await Promise.all([
      runCli(['token', 'revoke'], env),
      runCli(['token', 'create', '--user', 'x@example.com', '--expires-in', 'soon'], env),
      runCli(['token', 'revoke', 'a', 'b'], env),
    ]);
    expect(missingId.code).toBe(2);
    expect(missingId.stderr).toMatch(/^parley: token revoke: missing <id>/);
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toMatch(/--expires-in must be a positive number with s, m, h or d/);
    expect(twoIds.code).toBe(2);

    const unknown = await runCli(['token', 'revoke', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: 'parley: token revoke: API token 00000000-0000-4000-8000-000000000000 was not found.\n',
    });
    const malformed = await runCli(['token', 'revoke', 'not-an-id'], env);
    expect(malformed).toMatchObject({ code: 1, stderr: 'parley: token revoke: id: "not-an-id" is not a token id.\n' });
  });
});

describeWithServices('parley token revoke reaches running instances at once (PostgreSQL + Redis)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ backend: 'postgres', env: isolatedEnv('postgres') });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('a server that had the token cached refuses it on the next request', { timeout: 120_000 }, async () => {
    const { token } = await server.createUser({ email: 'revoke-me@example.com' });
    const before = await request(server, ViewerDocument, {}, token);
    expect(before.data?.viewer).toBeTruthy();
    const env = { DATABASE_URL: server.env.DATABASE_URL!, REDIS_URL: server.env.REDIS_URL! };
    const listed = await runCli(['token', 'list', '--user', 'revoke-me@example.com'], env);
    const id = UUID.exec(listed.stdout.split('\n')[1]!)![0];
    const revoked = await runCli(['token', 'revoke', id], env);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    const after = await request(server, ViewerDocument, {}, token);
    expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
