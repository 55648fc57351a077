import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MessagePart } from '../../src/conversation/parts.ts';
import { encodeId } from '../../src/schema/ids.ts';
import { threadExport, type ThreadExport } from '../../src/transfer/export-format.ts';
import { describeEachBackend } from '../support/backends.ts';
import { expectTypename, mutate } from '../support/client.ts';
import { ExportThreadDocument, ImportThreadDocument } from '../support/documents.ts';
import { setUpAgent, sendAndFollow, type User } from '../support/scenario.ts';
import { seedThread } from '../support/seeded-threads.ts';
import { databaseState, request, requestData, startTestServer, type TestServer } from '../support/server.ts';

const failure = {
  reason: 'RATE_LIMIT',
  retryable: true,
  retryAfterS: 30,
  provider: 'openai',
  httpStatus: 429,
  providerCode: null,
  requestId: 'req_1',
  detail: 'Too many requests',
  message: 'The provider is busy; retry in 30 s.',
  messageKey: 'error.rateLimit',
  params: { seconds: 30 },
  occurredAt: '2026-12-01T10:00:00.000Z',
} as const;

const RICH_PARTS: MessagePart[] = [
  { type: 'reasoning', text: 'The user wants the weather.' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Berlin' }, state: 'SUCCEEDED', output: { text: 'Sunny', truncated: false }, durationMs: 12 },
  { type: 'text', text: 'It is **sunny** in Berlin.\n\n```js\nconsole.log("```")\n```' },
  { type: 'attachment', attachmentId: '00000000-0000-4000-8000-000000000001', filename: 'map [1].png', mediaType: 'image/png', size: 2048 },
  { type: 'error', ...failure },
];

/** An export as content alone: ids replaced by their position, the export's own time left out. */
function comparable(exported: ThreadExport) {
  const position = new Map(exported.messages.map((message, index) => [message.id, `#${index}`]));
  return {
    title: exported.thread.title,
    messages: exported.messages.map((message) => ({
      role: message.role,
      createdAt: message.createdAt,
      parts: message.parts.map((part) =>
        part.type === 'compaction' ? { ...part, firstMessageId: position.get(part.firstMessageId), throughMessageId: position.get(part.throughMessageId) } : part,
      ),
    })),
  };
}

describeEachBackend('exportThread and importThread', (backend) => {
  let server: TestServer;
  let owner: User & { agentId: string };
  let stranger: User & { agentId: string };
  let threadId: string;

  const exportOf = async (id: string, format: 'JSON' | 'MARKDOWN', token = owner.token) =>
    (await requestData(server, ExportThreadDocument, { threadId: id, format }, token)).exportThread;
  const importAs = (content: string, token = owner.token, agentId = owner.agentId) =>
    mutate(server, ImportThreadDocument, { agentId: encodeId('Agent', agentId), content }, token, 'importThread');

  beforeAll(async () => {
    // Room for an import over its own bound, which the default request limit would refuse first.
    server = await startTestServer({ backend, env: { PARLEY_MAX_REQUEST_BYTES: '3000000' } });
    owner = await setUpAgent(server, { project: 'Transfer' });
    stranger = await setUpAgent(server, { project: 'Stranger' });
    const seeded = await seedThread(server, {
      ownerId: owner.userId,
      agentId: owner.agentId,
      title: 'Weather in Berlin',
      messages: [
        { role: 'USER', text: 'What is the weather?' },
        { role: 'ASSISTANT', text: 'An answer on a branch that is not active.' },
        { role: 'ASSISTANT', parts: RICH_PARTS, parent: 0 },
      ],
    });
    threadId = encodeId('Thread', seeded.threadId);
    await sendAndFollow(server, owner.token, threadId, 'Thanks!');
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('exports the active path with every part as versioned JSON', async () => {
    const file = await exportOf(threadId, 'JSON');
    expect(file.mediaType).toBe('application/json');
    expect(file.fileName).toMatch(/^thread-[0-9a-f-]{36}\.json$/);
    const exported = threadExport.parse(JSON.parse(file.content));
    expect(exported).toMatchObject({ format: 'parley.thread', version: 1, thread: { title: 'Weather in Berlin', agent: { model: 'demo:default' } } });
    expect(exported.messages.map((message) => message.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(exported.messages[1]!.parts).toEqual([
      ...RICH_PARTS.slice(0, 3),
      { ...RICH_PARTS[3], downloadPath: '/attachments/00000000-0000-4000-8000-000000000001' },
      RICH_PARTS[4],
    ]);
    expect(exported.messages[3]!.outcome).toBe('COMPLETED');
    expect(file.content).not.toContain('not active');
  });

  it('exports Markdown with each part, the error card with its reason and time, the attachment as a link', async () => {
    const file = await exportOf(threadId, 'MARKDOWN');
    expect(file.mediaType).toBe('text/markdown; charset=utf-8');
    expect(file.fileName).toMatch(/\.md$/);
    expect(file.content).toContain('# Weather in Berlin');
    expect(file.content).toContain('**Tool call** weather (SUCCEEDED, 12 ms)');
    expect(file.content).toContain('> **Error** RATE_LIMIT at 2026-12-01T10:00:00.000Z: The provider is busy; retry in 30 s.');
    expect(file.content).toContain('Attachment: [map \\[1\\].png](/attachments/00000000-0000-4000-8000-000000000001) (image/png, 2048 bytes)');
    expect(file.content).toContain('> **Reasoning**');
    expect(file.content).not.toContain('not active');
  });

  it('imports an export as a new thread of the importer that exports again as the same conversation', async () => {
    const original = threadExport.parse(JSON.parse((await exportOf(threadId, 'JSON')).content));
    const imported = expectTypename(await importAs(JSON.stringify(original)), 'Thread');
    expect(imported.id).not.toBe(threadId);
    expect(imported.title).toBe('Weather in Berlin');
    const again = threadExport.parse(JSON.parse((await exportOf(imported.id, 'JSON')).content));
    expect(comparable(again)).toEqual(comparable(original));
    // Finished history: no execution ran, nothing is queued.
    expect(again.messages.every((message) => message.outcome === null)).toBe(true);
  });

  it('marks a call that was still open as interrupted, and remaps a summary to the new messages', async () => {
    const base = threadExport.parse(JSON.parse((await exportOf(threadId, 'JSON')).content));
    const [first, second] = base.messages;
    base.messages[1] = {
      ...second!,
      parts: [
        { type: 'tool-call', toolCallId: 'open', toolName: 'slow', input: {}, state: 'CALLED', output: null },
        { type: 'compaction', summary: 'Earlier: weather talk.', firstMessageId: first!.id, throughMessageId: first!.id, replacedMessages: 1, model: 'demo:default', inputTokens: 1, outputTokens: 1, replacedTokens: 5, summaryTokens: 2, createdAt: '2026-12-01T10:00:00.000Z', undone: false },
      ],
    };
    const imported = expectTypename(await importAs(JSON.stringify(base)), 'Thread');
    const again = threadExport.parse(JSON.parse((await exportOf(imported.id, 'JSON')).content));
    const parts = again.messages[1]!.parts;
    expect(parts[0]).toMatchObject({ type: 'tool-call', state: 'INTERRUPTED' });
    expect(parts[1]).toMatchObject({ type: 'compaction', firstMessageId: again.messages[0]!.id, throughMessageId: again.messages[0]!.id });
  });

  it('refuses anything but a valid export of this version with an InvalidInputError on content, and changes nothing', async () => {
    const valid = JSON.parse((await exportOf(threadId, 'JSON')).content) as ThreadExport;
    const before = await databaseState(server);
    const cases: [string, RegExp][] = [
      ['{ not json', /is not JSON/],
      ['# Weather in Berlin', /is not JSON/],
      [JSON.stringify({ ...valid, version: 2 }), /version 2; this server imports version 1/],
      [JSON.stringify({ hello: 'world' }), /is not a Parley thread export/],
      [JSON.stringify({ ...valid, messages: [{ ...valid.messages[0], role: 'SYSTEM' }] }), /messages\.0\.role/],
      [JSON.stringify({ ...valid, messages: [{ ...valid.messages[0], parts: [{ type: 'html', html: '<b>' }] }] }), /messages\.0\.parts\.0/],
      [JSON.stringify({ ...valid, padding: 'x'.repeat(2_000_001) }), /is over 2000000 characters/],
    ];
    for (const [content, message] of cases) {
      const result = expectTypename(await importAs(content), 'InvalidInputError');
      expect(result.field).toBe('content');
      expect(result.message).toMatch(message);
    }
    expect(await databaseState(server)).toEqual(before);
  });

  it('serves the export as a download at GET /threads/<id>/export, 404 for a thread the viewer may not read', async () => {
    const download = (id: string, format: string, token: string | null = owner.token) =>
      fetch(new URL(`/threads/${encodeURIComponent(id)}/export?format=${format}`, server.url), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const json = await download(threadId, 'json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="thread-[0-9a-f-]{36}\.json"/);
    expect(threadExport.parse(await json.json()).thread.title).toBe('Weather in Berlin');
    const markdown = await download(threadId, 'markdown');
    expect(markdown.headers.get('content-disposition')).toMatch(/\.md"/);
    expect(await markdown.text()).toContain('# Weather in Berlin');
    const foreign = await download(threadId, 'json', stranger.token);
    const unknown = await download(encodeId('Thread', '00000000-0000-4000-8000-00000000abcd'), 'json', stranger.token);
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(await foreign.text()).toBe(await unknown.text());
    expect((await download(threadId, 'json', null)).status).toBe(401);
    expect((await download(threadId, 'pdf')).status).toBe(400);
  });

  it('answers another user’s thread or agent exactly as an unknown one', async () => {
    const unknownThread = encodeId('Thread', '00000000-0000-4000-8000-00000000abcd');
    const foreign = await request(server, ExportThreadDocument, { threadId, format: 'JSON' }, stranger.token);
    const unknown = await request(server, ExportThreadDocument, { threadId: unknownThread, format: 'JSON' }, stranger.token);
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const withoutId = (message: string) => message.replace(/[0-9a-f-]{36}/, 'ID');
    expect(withoutId(foreign.errors![0]!.message)).toBe(withoutId(unknown.errors![0]!.message));
    const content = (await exportOf(threadId, 'JSON')).content;
    const before = await databaseState(server);
    expect(expectTypename(await importAs(content, stranger.token, owner.agentId), 'NotFoundError').code).toBe('NOT_FOUND');
    expect(await databaseState(server)).toEqual(before);
  });
});
