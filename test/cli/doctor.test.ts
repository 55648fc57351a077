import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithServices } from '../support/backends.ts';
import { runCli } from '../support/cli.ts';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.ts';
import { dropSchema, isolatedEnv } from '../support/server.ts';

/** The rows of the doctor's table, by check: [result, detail]. */
function rows(stdout: string): Map<string, { result: string; detail: string }> {
  const table = new Map<string, { result: string; detail: string }>();
  for (const line of stdout.split('\n').slice(1)) {
    const match = /^(.+?)\s{2,}(PASS|FAIL|SKIP)\s+(.*)$/.exec(line);
    if (match) table.set(match[1]!.trim(), { result: match[2]!, detail: match[3]! });
  }
  return table;
}

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('parley doctor', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-doctor-'));
    tempDirs.push(dataDir);
  });

  it('fails on an embedded database that is not migrated yet, and passes once it is', async () => {
    const before = await runCli(['doctor'], { PARLEY_DATA_DIR: dataDir });
    expect(before.code).toBe(1);
    expect(rows(before.stdout).get('database')).toMatchObject({ result: 'FAIL' });
    expect(rows(before.stdout).get('database')?.detail).toMatch(/migration\(s\) pending \(run "parley migrate"\): 0001_init/);
    expect(before.stdout).toMatch(/1 check failed\.\n$/);

    expect((await runCli(['migrate'], { PARLEY_DATA_DIR: dataDir })).code).toBe(0);
    const after = await runCli(['doctor'], { PARLEY_DATA_DIR: dataDir });
    expect(after.code).toBe(0);
    const table = rows(after.stdout);
    expect(table.get('configuration')).toMatchObject({ result: 'PASS' });
    expect(table.get('database')).toMatchObject({ result: 'PASS' });
    expect(table.get('database')?.detail).toMatch(/^reachable; \d+ migrations applied, none pending$/);
    expect(table.get('redis')).toMatchObject({ result: 'SKIP' });
    expect(after.stdout).toMatch(/All checks passed\.\n$/);
  });

  it('fails clearly when the database and Redis are unreachable', async () => {
    const port = await closedPort();
    const result = await runCli(['doctor'], {
      DATABASE_URL: `postgresql://parley:secret-password@127.0.0.1:${port}/parley`,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    expect(result.code).toBe(1);
    const table = rows(result.stdout);
    expect(table.get('configuration')).toMatchObject({ result: 'PASS' });
    expect(table.get('configuration')?.detail).toMatch(/; role all$/);
    expect(table.get('database')).toEqual({ result: 'FAIL', detail: `connect ECONNREFUSED 127.0.0.1:${port}` });
    expect(table.get('redis')).toEqual({ result: 'FAIL', detail: `connect ECONNREFUSED 127.0.0.1:${port}` });
    expect(result.stdout).toMatch(/2 checks failed\.\n$/);
    expect(result.stdout).not.toContain('secret-password');
  });

  it('shows a split role, and refuses one on the embedded database, naming PARLEY_ROLE', async () => {
    const port = await closedPort();
    const worker = await runCli(['doctor'], {
      PARLEY_ROLE: 'worker',
      DATABASE_URL: `postgresql://parley@127.0.0.1:${port}/parley`,
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    expect(rows(worker.stdout).get('configuration')).toMatchObject({ result: 'PASS', detail: expect.stringMatching(/; role worker$/) });
    const embedded = await runCli(['doctor'], { PARLEY_ROLE: 'api', PARLEY_DATA_DIR: dataDir });
    expect(embedded.code).toBe(1);
    expect(rows(embedded.stdout).get('configuration')).toMatchObject({ result: 'FAIL', detail: expect.stringMatching(/^PARLEY_ROLE: "api" splits turns between instances and needs DATABASE_URL/) });
  });

  it('fails on a bad configuration, naming the variable', async () => {
    const result = await runCli(['doctor'], { PARLEY_DATA_DIR: dataDir, PARLEY_LEASE_MS: 'soon' });
    expect(result.code).toBe(1);
    expect(rows(result.stdout).get('configuration')).toMatchObject({ result: 'FAIL' });
    expect(rows(result.stdout).get('configuration')?.detail).toMatch(/^PARLEY_LEASE_MS: /);
  });

  describe('providers, against the local fake provider', () => {
    let provider: FakeProvider;
    beforeAll(async () => {
      provider = await startFakeProvider({ apiKey: 'the-right-key' });
    });
    afterAll(async () => {
      await provider?.close();
    });

    it('a rejected key is reported with its classified error; an accepted one passes', async () => {
      const result = await runCli(['doctor'], {
        PARLEY_DATA_DIR: dataDir,
        OPENAI_API_KEY: 'a-wrong-key',
        OPENAI_BASE_URL: provider.url,
        ANTHROPIC_API_KEY: 'the-right-key',
        ANTHROPIC_BASE_URL: provider.url,
        PARLEY_PROVIDERS: JSON.stringify({ local: { baseURL: provider.url, apiKey: 'another-wrong-key' } }),
      });
      expect(result.code).toBe(1);
      const table = rows(result.stdout);
      expect(table.get('provider openai')).toEqual({ result: 'FAIL', detail: 'AUTHENTICATION (HTTP 401): Incorrect API key provided.' });
      expect(table.get('provider local')).toEqual({ result: 'FAIL', detail: 'AUTHENTICATION (HTTP 401): Incorrect API key provided.' });
      expect(table.get('provider anthropic')).toMatchObject({ result: 'PASS' });
      expect(result.stdout).toMatch(/2 checks failed\.\n$/);
      expect(result.stdout).not.toContain('a-wrong-key');
    });

    it('an unreachable provider is a TRANSPORT failure', async () => {
      const result = await runCli(['doctor'], {
        PARLEY_DATA_DIR: dataDir,
        OPENAI_API_KEY: 'the-right-key',
        OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
      });
      expect(result.code).toBe(1);
      expect(rows(result.stdout).get('provider openai')?.detail).toMatch(/^TRANSPORT: /);
    });
  });
});

describeWithServices('parley doctor on PostgreSQL and Redis', () => {
  const env = isolatedEnv('postgres');
  afterAll(async () => {
    await dropSchema(env.DATABASE_URL!);
  });

  it('passes on the reachable, migrated database and Redis', { timeout: 120_000 }, async () => {
    expect((await runCli(['migrate'], env)).code).toBe(0);
    const result = await runCli(['doctor'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const table = rows(result.stdout);
    expect(table.get('database')).toMatchObject({ result: 'PASS' });
    expect(table.get('redis')?.result).toBe('PASS');
    expect(table.get('redis')?.detail).toMatch(/^reachable; pub\/sub round trip in \d+ ms$/);
  });
});
