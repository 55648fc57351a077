import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParleyClient, type ParleyClient, type ThreadSession, type ThreadState } from '../../packages/client/src/index.ts';
import { conversation } from '../support/client.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Resolves with the session's state once `condition` holds for it. */
function until(session: ThreadSession, condition: (state: ThreadState) => boolean, timeoutMs = 20_000): Promise<ThreadState> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const state = session.getSnapshot();
      if (!condition(state)) return false;
      clearTimeout(timer);
      stop();
      resolve(state);
      return true;
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out; state: ${JSON.stringify(session.getSnapshot(), null, 1).slice(0, 3000)}`));
    }, timeoutMs);
    const stop = session.subscribe(check);
    check();
  });
}

describe('the shipped client against a real server', () => {
  let server: TestServer;
  let token: string;
  let agentId: string;
  let client: ParleyClient;
  const sessions: ThreadSession[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    ({ token, agentId } = await setUpAgent(server, { project: 'Client' }));
    client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
  });

  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await server?.stop();
  });

  const open = (threadId: string, using = client) => {
    const session = using.thread(threadId);
    sessions.push(session);
    return session;
  };

  it('streams a reply to completion', async () => {
    const threadId = await newThread(server, token, agentId);
    const session = open(threadId);
    await session.ready();
    const sent = await session.send('hello there');
    expect(sent.__typename).toBe('MessageQueued');
    const state = await until(session, (s) => s.messages.some((m) => m.role === 'ASSISTANT' && m.outcome === 'COMPLETED'));
    console.log(JSON.stringify(state, null, 1));
    console.log(JSON.stringify(await conversation(server, token, threadId), null, 1));
  });
});
