import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeId } from '../../src/schema/ids.ts';
import { describeEachBackend } from '../support/backends.ts';
import { sendWithFiles } from '../support/attachments.ts';
import { conversation, messagesOf } from '../support/client.ts';
import { follow } from '../support/follower.ts';
import { is } from '../support/run-events.ts';
import { addMember, newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type Backend, type TestServer } from '../support/server.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const HTML = new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>');

describeEachBackend('attachments: safe names, checked media types, served only as downloads', (backend: Backend) => {
  let server: TestServer;
  let owner: { token: string; agentId: string; projectId: string };

  beforeAll(async () => {
    server = await startTestServer({ backend });
    owner = await setUpAgent(server, { project: 'Files' });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const storedNamed = async (threadGlobalId: string) => {
    const threadId = decodeId('threadId', threadGlobalId, 'Thread');
    const prisma = server.parley.db.prisma;
    const [messages, queued] = await Promise.all([
      prisma.message.findMany({ where: { threadId }, select: { id: true } }),
      prisma.queueItem.findMany({ where: { threadId }, select: { id: true } }),
    ]);
    return prisma.attachment.findMany({
      where: { OR: [{ messageId: { in: messages.map(({ id }) => id) } }, { queueItemId: { in: queued.map(({ id }) => id) } }] },
      orderBy: { createdAt: 'asc' },
      select: { filename: true, mediaType: true },
    });
  };

  it('stores every file name as a safe base name', async () => {
    const threadId = await newThread(server, owner.token, owner.agentId);
    const follower = follow(server, owner.token, threadId);
    const long = `${'n'.repeat(1_000)}.txt`;
    const sent = await sendWithFiles(server, owner.token, { threadId, text: 'names' }, [
      { name: 'reports\\2024\\q1.txt', type: 'text/plain', content: 'a' },
      { name: '\u202Etxt.exe', type: 'text/plain', content: 'b' },
      { name: 'tab\there\u0007.txt', type: 'text/plain', content: 'c' },
      { name: '...', type: 'text/plain', content: 'd' },
      { name: long, type: 'text/plain', content: 'e' },
    ]);
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.sendMessage.__typename).toBe('MessageQueued');
    await follower.waitFor(is('ExecutionFinished'));
    await follower.close();
    const names = (await storedNamed(threadId)).map((file) => file.filename);
    expect(names.slice(0, 4)).toEqual(['q1.txt', 'txt.exe', 'tabhere.txt', 'attachment']);
    expect(names[4]).toHaveLength(255);
    expect(names[4]!.endsWith('n.txt')).toBe(true);
    for (const name of names) expect(name).not.toMatch(/[/\\\u0000-\u001f\u202e]/);
  });

  it('refuses a media type the bytes contradict, or one not accepted, and stores nothing', async () => {
    const threadId = await newThread(server, owner.token, owner.agentId);
    const before = await server.parley.db.prisma.attachment.count();
    const cases = [
      [{ name: 'cat.png', type: 'image/png', content: HTML }, /cat\.png: the content is not image\/png/],
      [{ name: 'page.html', type: 'text/html', content: HTML }, /media type text\/html is not accepted/],
      [{ name: 'x.svg', type: 'image/svg+xml', content: '<svg onload="alert(1)"/>' }, /image\/svg\+xml is not accepted/],
      [{ name: 'bin.txt', type: 'text/plain', content: new Uint8Array([0xff, 0xfe, 0, 1]) }, /not UTF-8 text/],
    ] as const;
    for (const [file, message] of cases) {
      const sent = await sendWithFiles(server, owner.token, { threadId, text: 'bad file' }, [
        { name: 'fine.txt', type: 'text/plain', content: 'fine' },
        file,
      ]);
      expect(sent.data!.sendMessage).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT', field: 'attachments' });
      expect(sent.data!.sendMessage.message).toMatch(message);
    }
    expect(await server.parley.db.prisma.attachment.count()).toBe(before);
    expect(await server.parley.db.prisma.queueItem.count({ where: { threadId: decodeId('threadId', threadId, 'Thread') } })).toBe(0);
  });

  it('a NUL in a file name is refused at the edge', async () => {
    const threadId = await newThread(server, owner.token, owner.agentId);
    const sent = await sendWithFiles(server, owner.token, { threadId, text: 'nul' }, [
      { name: 'a\u0000b.txt', type: 'text/plain', content: 'x' },
    ]);
    expect(sent.data ?? null).toBeNull();
    expect(sent.errors).toMatchObject([{ extensions: { code: 'BAD_USER_INPUT', argument: '$attachments[0].name' } }]);
    expect(await storedNamed(threadId)).toEqual([]);
  });

  it('serves a file only as a download, only to who can see the thread; 404 alike for missing and not yours', async () => {
    const threadId = await newThread(server, owner.token, owner.agentId);
    const follower = follow(server, owner.token, threadId);
    const sent = await sendWithFiles(server, owner.token, { threadId, text: 'download' }, [
      { name: 'pixel.png', type: '', content: PNG },
      { name: 'Grüße (1).txt', type: 'text/plain; charset=utf-8', content: 'hallo' },
    ]);
    expect(sent.data!.sendMessage.__typename).toBe('MessageQueued');
    await follower.waitFor(is('ExecutionFinished'));
    await follower.close();
    const parts = messagesOf(await conversation(server, owner.token, threadId))[0]!.parts.filter(
      (part) => part.__typename === 'AttachmentPart',
    ) as { attachmentId: string; mediaType: string; downloadPath: string }[];
    expect(parts.map((part) => part.mediaType)).toEqual(['image/png', 'text/plain']);
    const origin = new URL(server.url).origin;
    const download = (path: string, token?: string) =>
      fetch(origin + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

    const png = await download(parts[0]!.downloadPath, owner.token);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe(`attachment; filename="pixel.png"; filename*=UTF-8''pixel.png`);
    expect(png.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG);

    const text = await download(parts[1]!.downloadPath, owner.token);
    expect(text.headers.get('content-disposition')).toBe(
      `attachment; filename="Gr__e (1).txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%281%29.txt`,
    );
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('hallo');

    const outsider = await server.createUser();
    const projectMember = await addMember(server, owner.projectId, { role: 'member' });
    const answers = [
      await download(parts[0]!.downloadPath, outsider.token),
      await download(parts[0]!.downloadPath, projectMember.token), // another user's TEST thread
      await download('/attachments/00000000-0000-4000-8000-000000000000', owner.token),
      await download('/attachments/not-an-id', owner.token),
    ];
    const bodies = await Promise.all(answers.map(async (answer) => [answer.status, await answer.text()]));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(bodies[0]![0]).toBe(404);

    const anonymous = await download(parts[0]!.downloadPath);
    expect(anonymous.status).toBe(401);
    const wrongToken = await download(parts[0]!.downloadPath, 'pky_wrong');
    expect(wrongToken.status).toBe(401);
    const posted = await fetch(origin + parts[0]!.downloadPath, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` } });
    expect(posted.status).toBe(405);
  });
});
