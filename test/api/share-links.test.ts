import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_CONTENT_SECURITY_POLICY } from '../../src/server/plugins/use-web-app.ts';
import { sendWithFiles } from '../support/attachments.ts';
import { describeEachBackend } from '../support/backends.ts';
import { conversation, expectTypename, messagesOf, mutate } from '../support/client.ts';
import { RevokeShareLinkDocument, SharedThreadDocument, ShareThreadDocument, ThreadShareLinksDocument } from '../support/documents.ts';
import { follow } from '../support/follower.ts';
import { ofKind } from '../support/run-events.ts';
import { addMember, newThread, sendAndFollow, setUpAgent } from '../support/scenario.ts';
import { rawId } from '../support/security-world.ts';
import { request, requestData, startTestServer, type TestServer } from '../support/server.ts';

// A share link shows exactly its snapshot to anyone holding it, without signing in: not the
// messages after it, not the owner's email, no files unless the owner included them; and nothing
// once revoked.

describeEachBackend('share links', (backend) => {
  let server: TestServer;
  let owner: { token: string; userId: string; agentId: string; projectId: string };
  let ownerEmail: string;
  let threadId: string;
  let messageIds: string[];

  beforeAll(async () => {
    server = await startTestServer({ backend });
    owner = await setUpAgent(server, { project: 'Sharing' });
    ownerEmail = (await server.parley.db.prisma.user.findUniqueOrThrow({ where: { id: owner.userId } })).email!;
    threadId = await newThread(server, owner.token, owner.agentId, 'Holiday plans');
    const follower = follow(server, owner.token, threadId);
    try {
      const sent = await sendWithFiles(server, owner.token, { threadId, text: 'Where should we go?' }, [{ name: 'notes.txt', type: 'text/plain', content: 'beach, museum' }]);
      expect(sent.data?.sendMessage.__typename).toBe('MessageQueued');
      await follower.waitUntil((events) => ofKind(events, 'ExecutionFinished').length >= 1);
    } finally {
      await follower.close();
    }
    await sendAndFollow(server, owner.token, threadId, 'A later question', 1);
    messageIds = messagesOf(await conversation(server, owner.token, threadId)).map((message) => message.id);
    expect(messageIds).toHaveLength(4);
  }, 120_000);

  afterAll(async () => server?.stop());

  const share = async (throughMessageId: string, includeAttachments?: boolean, token = owner.token) =>
    mutate(server, ShareThreadDocument, { threadId, throughMessageId, includeAttachments }, token, 'shareThread');
  const tokenOf = (url: string | null | undefined) => url!.split('/').at(-1)!;
  const read = async (token: string) => (await requestData(server, SharedThreadDocument, { token }, null)).sharedThread;
  const origin = () => new URL(server.url).origin;

  it('shows the snapshot through the shared message to anyone, without later messages, the email or files', async () => {
    const link = expectTypename(await share(messageIds[1]!), 'ShareLink');
    expect(link.includeAttachments).toBe(false);
    const shared = expectTypename(await read(tokenOf(link.url)), 'ThreadSnapshot');
    expect(shared.title).toBe('Holiday plans');
    expect(shared.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT']);
    expect(shared.messages[0]!.parts).toEqual([{ __typename: 'TextPart', text: 'Where should we go?' }]);
    expect(JSON.stringify(shared.messages[1]!.parts)).toContain('You said: \\"Where should we go?\\"');
    const everything = JSON.stringify(shared);
    expect(everything).not.toContain('A later question');
    expect(everything).not.toContain(ownerEmail);
    expect(everything).not.toContain('notes.txt');

    const page = await fetch(`${origin()}${link.url}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(WEB_APP_CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('includes the files only when the owner chose to, each downloadable through the link alone', async () => {
    const link = expectTypename(await share(messageIds[1]!, true), 'ShareLink');
    const shared = expectTypename(await read(tokenOf(link.url)), 'ThreadSnapshot');
    const file = shared.messages[0]!.parts.find((part) => part.__typename === 'AttachmentPart');
    if (file?.__typename !== 'AttachmentPart') throw new Error(`no file in ${JSON.stringify(shared.messages[0])}`);
    expect(file.downloadPath).toBe(`${link.url}/attachments/${file.attachmentId}`);
    const download = await fetch(`${origin()}${file.downloadPath}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment');
    expect(await download.text()).toBe('beach, museum');

    const withoutFiles = expectTypename(await share(messageIds[1]!, false), 'ShareLink');
    expect((await fetch(`${origin()}${withoutFiles.url}/attachments/${file.attachmentId}`)).status).toBe(404);
  });

  it('is listed to its owner without its token, and a revoked link is the same bare 404 as one never made', async () => {
    const link = expectTypename(await share(messageIds[3]!), 'ShareLink');
    const listed = (await requestData(server, ThreadShareLinksDocument, { id: threadId }, owner.token)).thread.shareLinks;
    expect(listed[0]).toMatchObject({ id: link.id, url: null, throughMessageId: messageIds[3] });
    expect(expectTypename(await read(tokenOf(link.url)), 'ThreadSnapshot').messages).toHaveLength(4);

    const revoked = await mutate(server, RevokeShareLinkDocument, { id: link.id }, owner.token, 'revokeShareLink');
    expect(expectTypename(revoked, 'ShareLinkRevoked').shareLinkId).toBe(link.id);
    const forged = 'x'.repeat(43);
    for (const token of [tokenOf(link.url), forged, 'short']) {
      expect(await read(token)).toEqual({ __typename: 'NotFoundError', message: 'Shared thread was not found.', code: 'NOT_FOUND' });
    }
    const pages = await Promise.all([link.url, `/share/${forged}`].map((path) => fetch(`${origin()}${path}`)));
    expect(pages.map((page) => page.status)).toEqual([404, 404]);
    expect(await Promise.all(pages.map((page) => page.text()))).toEqual(['Not found.\n', 'Not found.\n']);
    const again = await mutate(server, RevokeShareLinkDocument, { id: link.id }, owner.token, 'revokeShareLink');
    expect(expectTypename(again, 'NotFoundError').code).toBe('NOT_FOUND');
  });

  it('refuses another user’s thread as an unknown one and a message off the active path, changing nothing', async () => {
    const member = await addMember(server, owner.projectId);
    const before = await server.parley.db.prisma.shareLink.count();
    const others = await share(messageIds[1]!, false, member.token);
    const unknownThread = await newThread(server, owner.token, owner.agentId);
    await server.parley.db.prisma.thread.delete({ where: { id: rawId(unknownThread) } });
    const unknown = await mutate(server, ShareThreadDocument, { threadId: unknownThread, throughMessageId: messageIds[1]! }, member.token, 'shareThread');
    const idFree = (answer: unknown, id: string) => JSON.stringify(answer).replaceAll(rawId(id), '<id>').replaceAll(id, '<id>');
    expect(idFree(others, threadId)).toBe(idFree(unknown, unknownThread));
    expect(expectTypename(others, 'NotFoundError').code).toBe('NOT_FOUND');
    const otherThread = await newThread(server, owner.token, owner.agentId);
    const offPath = await mutate(server, ShareThreadDocument, { threadId: otherThread, throughMessageId: messageIds[1]! }, owner.token, 'shareThread');
    expect(expectTypename(offPath, 'InvalidInputError').field).toBe('throughMessageId');
    expect(await server.parley.db.prisma.shareLink.count()).toBe(before);
  });
});

describe('a share link read anonymously is rate-limited like any anonymous query', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_QUERIES_PER_MINUTE: '3' } });
  });
  afterAll(async () => server?.stop());

  it('counts the page and sharedThread against the address’s budget, then answers 429 and RATE_LIMITED', async () => {
    const owner = await setUpAgent(server, { project: 'Limits' });
    const threadId = await newThread(server, owner.token, owner.agentId);
    const token = randomBytes(32).toString('base64url');
    await server.parley.db.prisma.shareLink.create({
      data: {
        threadId: rawId(threadId), ownerId: owner.userId, tokenHash: createHash('sha256').update(token).digest('hex'),
        throughMessageId: rawId(threadId), title: 'limited', agentName: 'Demo', snapshot: [],
      },
    });
    const page = () => fetch(`${new URL(server.url).origin}/share/${token}`);
    expect((await page()).status).toBe(200);
    expect((await read(server, token)).data?.sharedThread.__typename).toBe('ThreadSnapshot');
    expect((await page()).status).toBe(200);
    const refused = await page();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await read(server, token)).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });
});

const read = (server: TestServer, token: string) => request(server, SharedThreadDocument, { token }, null);
