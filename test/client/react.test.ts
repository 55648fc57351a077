import { Window } from 'happy-dom';
import { createElement } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AppViewerDocument, createParleyClient, textOfParts, type ParleyClient } from '../../packages/client/src/index.ts';
import { ParleyProvider, useAction, useParleyQuery, useThread, type ThreadView } from '../../packages/client/src/react.ts';
import { newThread, setUpAgent } from '../support/scenario.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

// The server runs in this process on Node's globals (a happy-dom environment would replace URL and
// fetch under it), so the DOM is happy-dom's, installed only as React DOM's window and document.
const browser = new Window({ url: 'http://localhost/' });
// The updates come from a real server at their own pace, not from events a test fires: the test
// waits for what the page shows, as a user would, so this is not an act() environment.
Object.assign(globalThis, { window: browser, document: browser.document, IS_REACT_ACT_ENVIRONMENT: false });
if (!('navigator' in globalThis)) Object.assign(globalThis, { navigator: browser.navigator });
const { createRoot } = await import('react-dom/client');

/** Every render's useThread answer, to compare the actions' identity across renders. */
const renders: ThreadView[] = [];

/** The chat view docs/client.md shows: the conversation, the streaming reply, a composer. */
function Chat({ threadId, text }: { threadId: string; text: string }) {
  const thread = useThread(threadId);
  renders.push(thread);
  const [send, sending] = useAction(thread.send);
  return createElement(
    'main',
    { 'data-status': thread.status },
    thread.state.messages.map((message, index) =>
      createElement('p', { key: message.id ?? index, className: message.role.toLowerCase() }, textOfParts(message.parts)),
    ),
    createElement('button', { className: 'send', 'aria-busy': sending.pending, onClick: () => void send(text) }, 'Send'),
    sending.error && createElement('p', { role: 'alert' }, `${sending.error.__typename}: ${sending.error.message}`),
  );
}

function Viewer() {
  const { data, error, loading } = useParleyQuery(AppViewerDocument, {});
  return createElement('p', { className: 'viewer' }, loading ? 'loading' : (data?.viewer.email ?? error?.code ?? ''));
}

describe('the React hooks in a rendered component', () => {
  let server: TestServer;
  const roots: Root[] = [];

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    roots.forEach((root) => root.unmount());
    await server?.stop();
    await browser.happyDOM.close();
  });

  async function render(client: ParleyClient, element: ReturnType<typeof createElement>) {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    roots.push(root);
    root.render(createElement(ParleyProvider, { client }, element));
    await eventually(() => container.firstChild, 5_000, 'the first render');
    return container;
  }
  const click = (element: Element | null) => (element as unknown as { click(): void }).click();

  it('useThread: the same actions from the first render on, a status from loading to streaming to ready, and the reply as it arrives', async () => {
    const { token, agentId } = await setUpAgent(server, { project: 'React' });
    const threadId = await newThread(server, token, agentId);
    const client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
    renders.length = 0;
    const container = await render(client, createElement(Chat, { threadId, text: '/slow 2 hello from react' }));
    expect(renders[0]!.status).toBe('loading');
    expect(typeof renders[0]!.send).toBe('function');
    const main = () => container.querySelector('main')!;
    await eventually(() => main().getAttribute('data-status') === 'ready', 20_000, 'the thread to be ready');

    click(container.querySelector('button.send'));
    await eventually(() => main().getAttribute('data-status') === 'streaming', 20_000, 'the reply to stream');
    const reply = await eventually(
      () => main().getAttribute('data-status') === 'ready' && [...container.querySelectorAll('p.assistant')].find((p) => p.textContent?.includes('hello')),
      20_000,
      'the reply to be recorded',
    );
    expect(reply.textContent).toContain('hello from react');
    const [first, ...later] = renders;
    for (const view of later) {
      expect(view.send).toBe(first!.send);
      expect(view.stop).toBe(first!.stop);
      expect(view.resolve).toBe(first!.resolve);
    }
    expect(container.querySelector('[role=alert]')).toBeNull();
  });

  it('useAction: pending while a send runs, and its typed failure without a cast', async () => {
    const { token, agentId } = await setUpAgent(server, { project: 'React failures' });
    const threadId = await newThread(server, token, agentId);
    const client = createParleyClient({ url: server.url, token, webSocketImpl: WebSocket });
    const container = await render(client, createElement(Chat, { threadId, text: 'x'.repeat(32_001) }));
    await eventually(() => container.querySelector('main')!.getAttribute('data-status') === 'ready', 20_000, 'the thread to be ready');
    click(container.querySelector('button.send'));
    const alert = await eventually(() => container.querySelector('[role=alert]'), 20_000, 'the refusal to show');
    expect(alert.textContent).toMatch(/^InvalidInputError: /);
    expect(container.querySelector('button.send')!.getAttribute('aria-busy')).toBe('false');
  });

  it('useParleyQuery: reads the viewer; a refused token is final, not retried', async () => {
    const { token } = await server.createUser({ email: 'reader@example.com' });
    const good = await render(createParleyClient({ url: server.url, token, webSocketImpl: WebSocket }), createElement(Viewer));
    await eventually(() => good.querySelector('.viewer')?.textContent === 'reader@example.com', 20_000, 'the viewer to be read');
    const refused = await render(createParleyClient({ url: server.url, token: 'plr_not-a-token', webSocketImpl: WebSocket }), createElement(Viewer));
    await eventually(() => refused.querySelector('.viewer')?.textContent === 'UNAUTHENTICATED', 20_000, 'the refusal to be final');
  });
});
