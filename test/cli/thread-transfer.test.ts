import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { decodeId, encodeId } from '../../src/schema/ids.ts';
import { threadExport } from '../../src/transfer/export-format.ts';
import { runCli } from '../support/cli.ts';

// `parley thread export` and `parley thread import` on an embedded data folder (one process at a time).

describe('parley thread export and import', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'parley-transfer-'));
  const dataDir = path.join(work, 'data');
  const env = { PARLEY_DATA_DIR: dataDir };
  let threadId: string;
  let agentId: string;

  beforeAll(async () => {
    const db = await openDatabase({ dataDir });
    try {
      await db.migrate();
      const owner = await db.prisma.user.create({ data: { email: 'exporter@example.com' } });
      const project = await db.prisma.project.create({ data: { name: 'Transfer' } });
      await db.prisma.membership.create({ data: { projectId: project.id, userId: owner.id, role: 'MEMBER' } });
      const agent = await db.prisma.agent.create({ data: { projectId: project.id, name: 'A', model: 'demo:default' } });
      const thread = await db.prisma.thread.create({ data: { agentId: agent.id, ownerId: owner.id, title: 'Kept for later' } });
      const question = await db.prisma.message.create({ data: { threadId: thread.id, role: 'USER', parts: [{ type: 'text', text: 'Which river runs through Köln?' }] } });
      const answer = await db.prisma.message.create({
        data: { threadId: thread.id, role: 'ASSISTANT', parentId: question.id, parts: [{ type: 'reasoning', text: 'Geography.' }, { type: 'text', text: 'The Rhine.' }] },
      });
      await db.prisma.thread.update({ where: { id: thread.id }, data: { activeLeafMessageId: answer.id } });
      threadId = encodeId('Thread', thread.id);
      agentId = encodeId('Agent', agent.id);
    } finally {
      await db.close();
    }
  }, 60_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('exports Markdown to stdout and JSON to a file, and imports the JSON as a new thread of the user', async () => {
    const markdown = await runCli(['thread', 'export', threadId, '--format', 'markdown'], env);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('# Kept for later');
    expect(markdown.stdout).toContain('The Rhine.');

    const file = path.join(work, 'thread.json');
    const exported = await runCli(['thread', 'export', threadId, '--format', 'json', '--out', file], env);
    expect(exported).toEqual({ code: 0, stdout: `wrote ${file}\n`, stderr: '' });
    const original = threadExport.parse(JSON.parse(readFileSync(file, 'utf8')));

    const imported = await runCli(['thread', 'import', file, '--agent', agentId, '--user', 'exporter@example.com'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const newThreadId = imported.stdout.trim();
    expect(newThreadId).not.toBe(threadId);
    decodeId('thread', newThreadId, 'Thread');

    const again = await runCli(['thread', 'export', newThreadId, '--format', 'json'], env);
    const copy = threadExport.parse(JSON.parse(again.stdout));
    const content = (value: typeof original) => ({ title: value.thread.title, messages: value.messages.map(({ role, parts, createdAt }) => ({ role, parts, createdAt })) });
    expect(content(copy)).toEqual(content(original));
  }, 240_000);

  it('refuses a file that is not an export, changing nothing', async () => {
    const file = path.join(work, 'notes.md');
    writeFileSync(file, '# Just notes');
    const refused = await runCli(['thread', 'import', file, '--agent', agentId, '--user', 'exporter@example.com'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^parley: thread import: content: is not JSON .*\n$/);
    const missing = await runCli(['thread', 'import', path.join(work, 'nope.json'), '--agent', agentId, '--user', 'exporter@example.com'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.prisma.thread.count()).toBe(2);
    } finally {
      await db.close();
    }
  }, 240_000);
});
