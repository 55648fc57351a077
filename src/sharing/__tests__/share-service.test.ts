import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart } from '../../conversation/parts.ts';
import { InvalidInputError, NotFoundError } from '../../domain/errors.ts';
import type { User } from '../../generated/prisma/client.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { ShareService } from '../share-service.ts';
import { snapshotParts } from '../snapshot.ts';

const FILE: MessagePart = { type: 'attachment', attachmentId: '00000000-0000-4000-8000-000000000001', filename: 'a.txt', mediaType: 'text/plain', size: 1 };

describe('snapshotParts', () => {
  it('keeps what was said, drops files unless included, and drops compaction summaries', () => {
    const toolCall: MessagePart = {
      type: 'tool-call', toolCallId: 'c', toolName: 'files/get', input: {}, state: 'SUCCEEDED',
      output: { text: 'done', truncated: false, attachments: [{ ...FILE, downloadPath: '/attachments/x' }] },
    };
    const compaction = { type: 'compaction', summary: 's' } as unknown as MessagePart;
    const parts: MessagePart[] = [{ type: 'text', text: 'hi' }, FILE, toolCall, compaction];
    expect(snapshotParts(parts, false)).toEqual([{ type: 'text', text: 'hi' }, { ...toolCall, output: { text: 'done', truncated: false } }]);
    expect(snapshotParts(parts, true)).toEqual([{ type: 'text', text: 'hi' }, FILE, toolCall]);
  });
});

/** The service on a real database, with a thread's messages written by hand: a path and a branch off it. */
describe('ShareService', () => {
  let server: TestServer;
  let owner: User;
  let other: User;
  let sharing: ShareService;
  let threadId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer();
    const { directory, access } = server.parley.services;
    const unique = Math.random().toString(36).slice(2);
    ({ user: owner } = await directory.createUser({ email: `sharer-${unique}@example.test` }));
    ({ user: other } = await directory.createUser({ email: `other-${unique}@example.test` }));
    const project = await directory.createProject(owner, { name: 'sharing' });
    await directory.addMember(null, { projectId: project.id, user: other.id, role: 'member' });
    const agentId = (await directory.createAgent(null, project.id, { name: 'Helper', model: 'demo:default' })).id;
    const prisma = server.parley.db.prisma;
    const thread = await prisma.thread.create({ data: { agentId, ownerId: owner.id, title: 'Trip', kind: 'SHARED' } });
    threadId = thread.id;
    const write = async (name: string, role: 'USER' | 'ASSISTANT', parentId: string | null, parts: MessagePart[]) => {
      const message = await prisma.message.create({ data: { threadId, role, parentId, parts: parts as never } });
      ids[name] = message.id;
      return message.id;
    };
    const ask = await write('ask', 'USER', null, [{ type: 'text', text: 'Where to?' }, FILE]);
    const answer = await write('answer', 'ASSISTANT', ask, [{ type: 'text', text: 'Lisbon.' }]);
    await write('branch', 'USER', answer, [{ type: 'text', text: 'an edited question' }]);
    const later = await write('later', 'USER', answer, [{ type: 'text', text: 'And then?' }]);
    await prisma.thread.update({ where: { id: threadId }, data: { activeLeafMessageId: later } });
    sharing = new ShareService(prisma, access);
  });
  afterAll(async () => server?.stop());

  const tokenOf = (url: string | null) => url!.split('/').at(-1)!;

  it('snapshots the active path through the message, and nothing after it', async () => {
    const link = await sharing.share(owner, { threadId, throughMessageId: ids.answer!, includeAttachments: false });
    expect(link.url).toMatch(/^\/share\/[A-Za-z0-9_-]{43}$/);
    const shared = await sharing.sharedThread(tokenOf(link.url));
    expect(shared.title).toBe('Trip');
    expect(shared.agentName).toBe('Helper');
    expect(shared.messages.map((message) => [message.role, message.parts])).toEqual([
      ['USER', [{ type: 'text', text: 'Where to?' }]],
      ['ASSISTANT', [{ type: 'text', text: 'Lisbon.' }]],
    ]);
    await server.parley.db.prisma.message.update({ where: { id: ids.answer! }, data: { parts: [{ type: 'text', text: 'changed later' }] } });
    expect((await sharing.sharedThread(tokenOf(link.url))).messages[1]!.parts).toEqual([{ type: 'text', text: 'Lisbon.' }]);
  });

  it('stores only the token’s sha256, and lists the links without it', async () => {
    const link = await sharing.share(owner, { threadId, throughMessageId: ids.ask!, includeAttachments: true });
    const token = tokenOf(link.url);
    const row = await server.parley.db.prisma.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await sharing.linksOf(owner, threadId);
    expect(listed.find((each) => each.id === link.id)).toMatchObject({ url: null, includeAttachments: true });
    expect(await sharing.linksOf(other, threadId)).toEqual([]);
    const parts = (await sharing.sharedThread(token)).messages[0]!.parts;
    expect(parts[1]).toMatchObject({ type: 'attachment', downloadPath: `/share/${token}/attachments/${FILE.attachmentId}` });
  });

  it('refuses a message off the active path, another user’s thread as an unknown one, and forgets a revoked link', async () => {
    await expect(sharing.share(owner, { threadId, throughMessageId: ids.branch!, includeAttachments: false })).rejects.toThrow(InvalidInputError);
    const unknownThread = await sharing.share(other, { threadId: crypto.randomUUID(), throughMessageId: ids.ask!, includeAttachments: false }).catch((error: unknown) => error);
    const othersThread = await sharing.share(other, { threadId, throughMessageId: ids.ask!, includeAttachments: false }).catch((error: unknown) => error);
    expect(othersThread).toBeInstanceOf(NotFoundError);
    expect((othersThread as Error).message.replace(threadId, '<id>')).toBe((unknownThread as Error).message.replace(/[0-9a-f-]{36}/, '<id>'));

    const link = await sharing.share(owner, { threadId, throughMessageId: ids.ask!, includeAttachments: false });
    await expect(sharing.revoke(other, link.id)).rejects.toThrow(NotFoundError);
    expect(await sharing.revoke(owner, link.id)).toBe(link.id);
    const revoked = await sharing.sharedThread(tokenOf(link.url)).catch((error: unknown) => error);
    const forged = await sharing.sharedThread('A'.repeat(43)).catch((error: unknown) => error);
    const malformed = await sharing.sharedThread('../etc').catch((error: unknown) => error);
    expect([revoked, forged, malformed].map((error) => (error as Error).message)).toEqual(Array(3).fill('Shared thread was not found.'));
    await expect(sharing.revoke(owner, link.id)).rejects.toThrow(NotFoundError);
  });
});
