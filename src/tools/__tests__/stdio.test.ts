import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STDIO_SERVER_ARGS, STDIO_SERVER_COMMAND } from '../../../test/support/stdio-command.ts';
import { ToolServerConnection } from '../connections.ts';
import type { ConnectionState } from '../server-endpoint.ts';
import { declaredServerId, readDeclaredServers } from '../declared-servers.ts';
import { UrlGuard } from '../url-guard.ts';

const SECRET = 'env-secret-value-for-the-child';
const guard = new UrlGuard({ allowedHosts: [], maxRequestBytes: 1_000, maxResponseBytes: 1_000 });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a stdio tool server connection', () => {
  it('runs the command, lists its tools, logs its stderr at debug with the env values blanked, and ends the child on close', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const states: ConnectionState[] = [];
    const connection = new ToolServerConnection(
      {
        id: 'id',
        name: 'local',
        url: 'stdio:node',
        headers: {},
        stdio: { command: STDIO_SERVER_COMMAND, args: STDIO_SERVER_ARGS, env: { STDIO_TEST_SECRET: SECRET }, cwd: tmpdir(), secrets: [SECRET] },
      },
      guard,
      (_id, state) => states.push(state),
      pino({ level: 'debug' }, sink),
    );
    try {
      const state = await connection.refresh();
      expect(state).toMatchObject({ status: 'CONNECTED', lastError: null });
      expect(state.tools.map((tool) => tool.name)).toContain('echo');
      const result = await connection.call('pid', {}, { signal: new AbortController().signal, timeoutMs: 10_000 });
      const pid = Number((result.content as { text: string }[])[0]!.text);
      expect(alive(pid)).toBe(true);
      const stderr = lines.filter((line) => line.msg === 'tool server stderr').map((line) => line.stderr);
      expect(lines.every((line) => line.level === 20 || line.msg !== 'tool server stderr')).toBe(true);
      expect(stderr).toContain('starting with secret [redacted]');
      expect(stderr).toContain('stdio test server ready');
      expect(JSON.stringify(lines)).not.toContain(SECRET);
      await connection.close();
      expect(alive(pid)).toBe(false);
    } finally {
      await connection.close();
    }
  });

  it('a command that cannot start is UNAVAILABLE, saying so', async () => {
    const connection = new ToolServerConnection(
      { id: 'id', name: 'missing', url: 'stdio:x', headers: {}, stdio: { command: '/nonexistent/mcp-server', args: [], env: {}, cwd: tmpdir(), secrets: [] } },
      guard,
      () => {},
    );
    const state = await connection.refresh();
    await connection.close();
    expect(state).toMatchObject({ status: 'UNAVAILABLE', lastError: 'the command /nonexistent/mcp-server could not be started (ENOENT).' });
  });

  it('a server the file does not declare (any more) is UNAVAILABLE, saying so', async () => {
    const connection = new ToolServerConnection({ id: 'id', name: 'old', url: 'stdio:x', headers: {}, stdio: null }, guard, () => {});
    expect(await connection.refresh()).toMatchObject({ status: 'UNAVAILABLE', lastError: expect.stringContaining('does not declare this server') });
    await connection.close();
  });
});

describe('PARLEY_TOOL_SERVERS_FILE', () => {
  let folder: string;
  const write = (name: string, content: unknown) => {
    const file = join(folder, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'parley-declared-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads each server with its defaults: cwd the file’s folder (relative ones from it), a Relay project id made raw', () => {
    const projectId = '0b8a6a57-3d43-4a8e-9b5c-0c1f4a1b2c3d';
    const relay = Buffer.from(`Project:${projectId}`).toString('base64');
    const file = write('ok.json', {
      servers: {
        files: { command: 'npx', args: ['-y', 'server'], env: { TOKEN: 'x' }, projects: ['*'] },
        db: { command: '/usr/bin/db-mcp', cwd: 'sub', projects: ['Team', relay], timeoutMs: 5000, inheritEnv: true },
      },
    });
    expect(readDeclaredServers(file)).toEqual([
      { name: 'files', command: 'npx', args: ['-y', 'server'], env: { TOKEN: 'x' }, inheritEnv: false, cwd: folder, projects: ['*'], timeoutMs: null },
      { name: 'db', command: '/usr/bin/db-mcp', args: [], env: {}, inheritEnv: true, cwd: join(folder, 'sub'), projects: ['Team', projectId], timeoutMs: 5000 },
    ]);
  });

  it.each([
    ['not JSON', '{"servers": ', /is not JSON/],
    ['no servers', {}, /servers: /],
    ['a bad name', { servers: { 'Bad Name': { command: 'x', projects: ['*'] } } }, /servers\.Bad Name: a server name must be 1 to 40 lower-case letters/],
    ['no projects', { servers: { files: { command: 'node', projects: [] } } }, /servers\.files\.projects: must name at least one project/],
    ['no command', { servers: { files: { projects: ['*'] } } }, /servers\.files\.command: /],
    ['an env value that is not a string', { servers: { files: { command: 'x', env: { A: 1 }, projects: ['*'] } } }, /servers\.files\.env\.A: /],
    ['an unknown key', { servers: { files: { command: 'x', projects: ['*'], shell: true } } }, /servers\.files: .*shell/i],
  ])('refuses %s, naming the file and the problem', (_title, content, problem) => {
    const file = write('bad.json', content);
    expect(() => readDeclaredServers(file)).toThrow(`PARLEY_TOOL_SERVERS_FILE ${file}: `);
    expect(() => readDeclaredServers(file)).toThrow(problem);
  });

  it('a file that is not there', () => {
    expect(() => readDeclaredServers(join(folder, 'none.json'))).toThrow(`PARLEY_TOOL_SERVERS_FILE ${join(folder, 'none.json')}: cannot be read (ENOENT).`);
  });

  it('a declared server’s id is the same UUID on every instance', () => {
    expect(declaredServerId('files')).toBe(declaredServerId('files'));
    expect(declaredServerId('files')).not.toBe(declaredServerId('db'));
    expect(declaredServerId('files')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
