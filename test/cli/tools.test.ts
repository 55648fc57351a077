import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.ts';

describe('parley tools', { timeout: 120_000 }, () => {
  let dataDir: string;
  let mcp: TestMcpServer;
  const env = () => ({ PARLEY_DATA_DIR: dataDir, PARLEY_TOOL_ALLOWED_HOSTS: '127.0.0.1' });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'parley-cli-tools-'));
    mcp = await startMcpServer();
  });

  afterAll(async () => {
    await mcp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds, lists, refreshes and removes a server, printing what the API shows (never a header value)', async () => {
    const token = await runCli(['user', 'create', '--email', 'ops@example.com'], env());
    expect(token.code).toBe(0);
    const project = await runCli(['project', 'create', '--name', 'Ops', '--admin', 'ops@example.com'], env());
    const projectId = project.stdout.trim();

    const added = await runCli(
      ['tools', 'add', '--project', projectId, '--name', 'ops', '--url', mcp.url, '--header', 'X-Api-Key: very-secret-value'],
      env(),
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const [first, ...rest] = added.stdout.trim().split('\n');
    expect(first).toMatch(new RegExp(`^\\S+  ops  CONNECTED  ${mcp.url.replace(/[.]/g, '\\.')}$`));
    expect(rest).toEqual(['  headers: X-Api-Key', '  tools: ops/echo, ops/fail, ops/big, ops/picture, ops/slow, ops/steps, ops/ask']);
    expect(added.stdout).not.toContain('very-secret-value');
    const id = first!.split('  ')[0]!;

    const listed = await runCli(['tools', 'list', '--project', projectId], env());
    expect(listed.stdout).toBe(added.stdout);
    const refreshed = await runCli(['tools', 'refresh', id], env());
    expect(refreshed.stdout).toBe(added.stdout);

    const doctor = await runCli(['doctor'], env());
    expect(doctor.stdout).toMatch(/tool server ops \(project [0-9a-f]{8}\)\s+PASS\s+reachable; 7 tools listed/);
    expect(doctor.stdout).not.toContain('very-secret-value');

    const refused = await runCli(['tools', 'add', '--project', projectId, '--name', 'local', '--url', 'http://127.0.0.1:1/'], {
      PARLEY_DATA_DIR: dataDir,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('loopback');

    const removed = await runCli(['tools', 'remove', id], env());
    expect(removed).toMatchObject({ code: 0, stdout: `removed ${id} (ops)\n` });
    expect((await runCli(['tools', 'list', '--project', projectId], env())).stdout).toBe('');
  });
});
