import { Window } from 'happy-dom';
import { createElement, useState } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParleyClient, textOfParts } from '../../packages/client/src/index.ts';
import { ParleyProvider, useThread } from '../../packages/client/src/react.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// The server runs in this process on Node's globals (a happy-dom environment would replace URL and
// fetch under it), so the DOM is happy-dom's, installed only as React DOM's window and document.
// The component is driven by a live server, as in a browser: its updates come from socket events at
// any time, never inside act(), so React renders on its own schedule and the test waits for the DOM.
const browser = new Window({ url: 'http://localhost/' });
Object.assign(globalThis, { window: browser, document: browser.document, IS_REACT_ACT_ENVIRONMENT: false });
if (!('navigator' in globalThis)) Object.assign(globalThis, { navigator: browser.navigator });
const { createRoot } = await import('react-dom/client');

/** The chat view the README shows: the conversation, the streaming reply, a composer. */
function Chat({ threadId }: { threadId: string }) {
  const { state, session } = useThread(threadId);
  const [draft, setDraft] = useState('hello from react');
  return createElement(
    'main',
    null,
    state.messages.map((message, index) =>
      createElement('p', { key: message.id ?? index, className: message.role.toLowerCase() }, textOfParts(message.parts)),
    ),
    createElement('p', { className: 'connection' }, state.connection.status),
    createElement('input', { value: draft, onChange: (event: { target: { value: string } }) => setDraft(event.target.value) }),
    createElement('button', { disabled: !session, onClick: () => void session?.send(draft) }, 'Send'),
  );
}

describe('useThread in a rendered component', () => {
  let server: TestServer;
  let root: Root | undefined;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    root?.unmount();
    await server?.stop();
    await browser.happyDOM.close();
  });

  it('shows the reply as it arrives', async () => {
    const { token, agentId } = await setUpAgent(server, { project: 'React' });
    const threadId = await newThread(server, token, agentId);
    const client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(createElement(ParleyProvider, { client }, createElement(Chat, { threadId })));
    await eventually(() => container.querySelector('.connection')?.textContent === 'live', 20_000, 'the session to be live');
    await eventually(() => container.querySelector('button')?.disabled === false, 20_000, 'the Send button to be enabled');
    (container.querySelector('button') as unknown as { click(): void }).click();
    const reply = await eventually(
      () => [...container.querySelectorAll('p.assistant')].find((p) => p.textContent?.includes('hello from react')),
      20_000,
      'the reply to appear',
    );
    expect(container.querySelector('p.user')?.textContent).toBe('hello from react');
    expect(reply.textContent).toContain('hello from react');
  });
});
