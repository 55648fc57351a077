import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancel, conversation, messagesOf, send, textOf } from '../support/client.ts';
import { sendWithFiles } from '../support/attachments.ts';
import { EditQueuedMessageDocument, RemoveQueuedMessageDocument } from '../support/documents.ts';
import { follow } from '../support/follower.ts';
import { is } from '../support/run-events.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';

describe('attachments', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { PARLEY_MAX_ATTACHMENT_BYTES: '1000', PARLEY_MAX_ATTACHMENTS: '2' } });
    ({ token, agentId } = await setUpAgent(server, { project: 'Files' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('keeps files with the message, hands them to the model and shows them in the conversation', async () => {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    const sent = await sendWithFiles(server, token, { threadId, text: 'see these' }, [
      { name: 'notes.txt', type: 'text/plain', content: 'hello' },
      { name: 'pixel.png', type: 'image/png', content: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0]) },
    ]);
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.sendMessage.__typename).toBe('MessageQueued');
    await follower.waitFor(is('ExecutionFinished'));
    await follower.close();
    const [question, reply] = messagesOf(await conversation(server, token, threadId));
    expect(question!.parts.map((part) => part.__typename)).toEqual(['TextPart', 'AttachmentPart', 'AttachmentPart']);
    expect(textOf(reply)).toBe('You said: "see these" (2 attachments)');
    const stored = await server.parley.db.prisma.attachment.findMany({ orderBy: { filename: 'asc' } });
    expect(stored.map((file) => [file.filename, file.mediaType, file.size, file.queueItemId])).toEqual([
      ['notes.txt', 'text/plain', 5, null],
      ['pixel.png', 'image/png', 10, null],
    ]);
  });

  it('refuses too many or too large files and stores nothing', async () => {
    const threadId = await newThread(server, token, agentId);
    const before = await server.parley.db.prisma.attachment.count();
    const tooLarge = await sendWithFiles(server, token, { threadId, text: 'big' }, [
      { name: 'big.bin', type: 'application/octet-stream', content: new Uint8Array(1001) },
    ]);
    expect(tooLarge.data!.sendMessage).toMatchObject({ __typename: 'InvalidInputError', code: 'BAD_USER_INPUT' });
    const tooMany = await sendWithFiles(server, token, { threadId, text: 'many' }, [
      { name: 'a', type: 'text/plain', content: 'a' },
      { name: 'b', type: 'text/plain', content: 'b' },
      { name: 'c', type: 'text/plain', content: 'c' },
    ]);
    expect(tooMany.data!.sendMessage).toMatchObject({ __typename: 'InvalidInputError' });
    expect(await server.parley.db.prisma.attachment.count()).toBe(before);
    expect(await server.parley.db.prisma.queueItem.count({ where: { threadId: undefined } })).toBe(0);
  });

  it('an edit keeps a pending message’s files; removing it discards them', async () => {
    const threadId = await newThread(server, token, agentId);
    const follower = follow(server, token, threadId);
    await send(server, token, threadId, '/slow 30 busy');
    const executionId = (await follower.waitFor(is('ExecutionStarted'))).executionId!;
    const sent = await sendWithFiles(server, token, { threadId, text: 'with a file' }, [
      { name: 'keep.txt', type: 'text/plain', content: 'keep me' },
    ]);
    const queueId = sent.data!.sendMessage.queueId as string;
    const prisma = server.parley.db.prisma;
    const edited = await requestData(server, EditQueuedMessageDocument, { queueId, text: 'edited, file kept' }, token);
    expect(edited.editQueuedMessage.__typename).toBe('QueueItem');
    expect(await prisma.attachment.count({ where: { queueItem: { threadId: undefined }, filename: 'keep.txt' } })).toBe(1);
    const removed = await requestData(server, RemoveQueuedMessageDocument, { queueId }, token);
    expect(removed.removeQueuedMessage.__typename).toBe('QueueItemRemoved');
    expect(await prisma.attachment.count({ where: { filename: 'keep.txt' } })).toBe(0);
    await cancel(server, token, executionId);
    await follower.waitFor(is('ExecutionFinished'));
    await follower.close();
  });
});
