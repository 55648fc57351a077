import { createParleyClient, type ParleyClient } from '@parley/client';
import { ParleyProvider } from '@parley/client/react';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Chat } from './Chat.tsx';
import { ChatViewerDocument, StartThreadDocument } from './documents.ts';
import type { ChatViewerQuery } from './gql/graphql.ts';
import { localeOf, MESSAGES, type Messages } from './i18n.ts';
import { forgetToken, showThreadInLocation, storedToken, storeToken, threadInLocation } from './token.ts';

type Viewer = ChatViewerQuery['viewer'];
type Agent = Viewer['projects'][number]['agents'][number];

/** Waits this long before reading the viewer again when the server cannot be reached. */
const VIEWER_RETRY_MS = 1000;

export function App() {
  const [token, setToken] = useState(storedToken);
  const [refused, setRefused] = useState(false);
  const signOut = useCallback((wasRefused: boolean) => {
    forgetToken();
    setRefused(wasRefused);
    setToken(null);
  }, []);
  if (!token) {
    return (
      <SignIn
        t={MESSAGES[localeOf(navigator.language)]}
        refused={refused}
        onSignIn={(given) => {
          storeToken(given);
          setRefused(false);
          setToken(given);
        }}
      />
    );
  }
  return <SignedIn key={token} token={token} onSignOut={signOut} />;
}

function SignIn({ t, refused, onSignIn }: { t: Messages; refused: boolean; onSignIn: (token: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onSignIn(value.trim());
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit}>
        <h1>{t.signInTitle}</h1>
        <p>{t.signInHint}</p>
        {refused && <p role="alert" className="notice">{t.tokenRefused}</p>}
        <label htmlFor="token">{t.token}</label>
        <input id="token" type="password" autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} autoFocus />
        <button type="submit">{t.signIn}</button>
      </form>
    </main>
  );
}

function graphqlUrl(): string {
  return new URL('/graphql', location.href).href;
}

function SignedIn({ token, onSignOut }: { token: string; onSignOut: (refused: boolean) => void }) {
  const client = useMemo(() => createParleyClient({ url: graphqlUrl(), token }), [token]);
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [threadId, setThreadId] = useState(threadInLocation);
  const [problem, setProblem] = useState<string | null>(null);
  const t = MESSAGES[localeOf(viewer?.locale ?? navigator.language)];

  const loadViewer = useCallback(() => readViewer(client), [client]);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const result = await loadViewer();
      if (cancelled) return;
      if (result === 'refused') return onSignOut(true);
      if (typeof result === 'string') {
        setProblem(result);
        timer = setTimeout(load, VIEWER_RETRY_MS);
        return;
      }
      setProblem(null);
      setViewer(result);
    };
    void load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [loadViewer, onSignOut]);

  useEffect(() => {
    document.documentElement.lang = localeOf(viewer?.locale ?? navigator.language);
  }, [viewer]);

  // Back, forward and links to `#thread=…` switch the thread too.
  useEffect(() => {
    const follow = () => setThreadId(threadInLocation());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const open = (id: string | null) => {
    showThreadInLocation(id);
    setThreadId(id);
  };

  const agents = viewer?.projects.flatMap((project) => project.agents) ?? [];
  const agentOfThread = agents.find((agent) => agent.threads.edges.some(({ node }) => node.id === threadId)) ?? agents[0];

  const newThread = async (agent: Agent) => {
    const result = await client.request(StartThreadDocument, { agentId: agent.id, title: null });
    if (result.__typename === 'RequestError' || result.createThread.__typename !== 'Thread') {
      setProblem(result.__typename === 'RequestError' ? result.message : (result.createThread as { message: string }).message);
      return;
    }
    const created = result.createThread;
    const refreshed = await loadViewer();
    if (typeof refreshed === 'object') setViewer(refreshed);
    open(created.id);
  };

  return (
    <ParleyProvider client={client}>
      <div className="layout">
        <header className="top">
          <h1>Parley</h1>
          {viewer && <span className="who">{viewer.email}</span>}
          <button type="button" onClick={() => onSignOut(false)}>
            {t.signOut}
          </button>
        </header>
        <nav className="threads" aria-label={t.agents}>
          {problem && <p role="alert" className="notice">{problem}</p>}
          {agents.map((agent) => (
            <section key={agent.id} className="agent">
              <h2>{agent.name}</h2>
              <button type="button" className="new-thread" onClick={() => void newThread(agent)}>
                {t.newThread}
              </button>
              {agent.threads.edges.length === 0 ? (
                <p className="hint">{t.noThreads}</p>
              ) : (
                <ul>
                  {[...agent.threads.edges]
                    .sort((a, b) => b.node.createdAt.localeCompare(a.node.createdAt))
                    .map(({ node }) => (
                      <li key={node.id}>
                        <button type="button" aria-current={node.id === threadId ? 'page' : undefined} onClick={() => open(node.id)}>
                          {node.title || new Date(node.createdAt).toLocaleString(localeOf(viewer?.locale))}
                        </button>
                      </li>
                    ))}
                </ul>
              )}
            </section>
          ))}
        </nav>
        <main className="conversation">
          {threadId ? (
            <Chat key={threadId} threadId={threadId} t={t} onNewChat={agentOfThread ? () => void newThread(agentOfThread) : undefined} />
          ) : (
            <p className="hint">{t.pickThread}</p>
          )}
        </main>
      </div>
    </ParleyProvider>
  );
}

/** The viewer, 'refused' for a token the server does not accept, or why it could not be read. */
async function readViewer(client: ParleyClient): Promise<Viewer | 'refused' | string> {
  const result = await client.request(ChatViewerDocument, {});
  if (result.__typename === 'RequestError') {
    return result.code === 'UNAUTHENTICATED' || result.code === 'FORBIDDEN' ? 'refused' : result.message;
  }
  return result.viewer;
}
