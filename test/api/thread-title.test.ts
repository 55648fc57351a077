import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { titleFromText } from '../../src/queue/thread-title.ts';
import { describeEachBackend } from '../support/backends.ts';
import { send } from '../support/client.ts';
import { ThreadDocument } from '../support/documents.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { requestData, startTestServer, type TestServer } from '../support/server.ts';

describe('a title from a message', () => {
  it('is the first non-blank line, trimmed, at most 60 characters, never cut inside a character', () => {
    expect(titleFromText('  Plan the trip  \nwith details')).toBe('Plan the trip');
    expect(titleFromText('\n\n  second line first\nthird')).toBe('second line first');
    expect(titleFromText('x'.repeat(80))).toBe('x'.repeat(60));
    expect(titleFromText(`${'😀'.repeat(59)}🎉🎉`)).toBe(`${'😀'.repeat(59)}🎉`);
    expect(titleFromText(`${'a'.repeat(59)} b`)).toBe('a'.repeat(59));
    expect(titleFromText('   \n  ')).toBe('');
  });
});

describeEachBackend('a new thread is titled by its first message', (backend) => {
  let server: TestServer;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend });
    ({ token, agentId } = await setUpAgent(server, { project: 'Titles' }));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const titleOf = async (threadId: string) => (await requestData(server, ThreadDocument, { id: threadId }, token)).thread.title;

  it('an untitled thread takes the first line of its first message, and keeps it after later ones', async () => {
    const threadId = await newThread(server, token, agentId);
    expect(await titleOf(threadId)).toBe('');
    await send(server, token, threadId, `  Where should we go in ${'spring '.repeat(12)}\nand the rest of the message`);
    expect(await titleOf(threadId)).toBe(`Where should we go in ${'spring '.repeat(12)}`.slice(0, 60).trimEnd());
    await send(server, token, threadId, 'A second message');
    expect(await titleOf(threadId)).toBe(`Where should we go in ${'spring '.repeat(12)}`.slice(0, 60).trimEnd());
  });

  it('a thread created with a title keeps it', async () => {
    const threadId = await newThread(server, token, agentId, 'Named by its owner');
    await send(server, token, threadId, 'First message');
    expect(await titleOf(threadId)).toBe('Named by its owner');
  });
});
