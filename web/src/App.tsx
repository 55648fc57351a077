import { AppViewerDocument, createParleyClient, ThreadSummaryDocument } from '@parley/client';
import { ParleyProvider, useParleyQuery } from '@parley/client/react';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Chat } from './Chat.tsx';
import { localeOf, MESSAGES, MessagesProvider, useMessages } from './i18n.ts';
import { ProjectNav, type ProjectView } from './ProjectNav.tsx';
import { ProjectSettings } from './ProjectSettings.tsx';
import { SearchBox } from './SearchBox.tsx';
import { AgentThreads, useNewThread } from './ThreadList.tsx';
import { forgetToken, refreshingToken, showThreadInLocation, storedToken, storeToken, threadInLocation, tokenUrl } from './token.ts';
import { UsagePage } from './UsagePage.tsx';

/** Answers that no wait can change: the token is not (or no longer) accepted. */
const REFUSED_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN']);

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
      <MessagesProvider value={MESSAGES[localeOf(navigator.language)]}>
        <SignIn
          refused={refused}
          onSignIn={(given) => {
            storeToken(given);
            setRefused(false);
            setToken(given);
          }}
        />
      </MessagesProvider>
    );
  }
  return <SignedIn key={token} token={token} onSignOut={signOut} />;
}

function SignIn({ refused, onSignIn }: { refused: boolean; onSignIn: (token: string) => void }) {
  const t = useMessages();
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

/**
 * One client per sign-in: `token` is what the user signed in with. With the product's token URL the
 * client asks a token function instead, which swaps an expiring JWT for a fresh one in
 * sessionStorage, so refreshes keep this client (and its live subscriptions).
 */
function SignedIn({ token, onSignOut }: { token: string; onSignOut: (refused: boolean) => void }) {
  const client = useMemo(() => {
    const refreshFrom = tokenUrl();
    return createParleyClient({ url: graphqlUrl(), token: refreshFrom ? refreshingToken(refreshFrom, token) : token });
  }, [token]);
  return (
    <ParleyProvider client={client}>
      <Workspace onSignOut={onSignOut} />
    </ParleyProvider>
  );
}

function Workspace({ onSignOut }: { onSignOut: (refused: boolean) => void }) {
  // Read until answered (an outage is waited out); a refused token signs out.
  const viewerQuery = useParleyQuery(AppViewerDocument, {});
  const viewer = viewerQuery.data?.viewer ?? null;
  const refused = Boolean(viewerQuery.error?.code && REFUSED_CODES.has(viewerQuery.error.code));
  const [threadId, setThreadId] = useState(threadInLocation);
  // The project page open instead of the thread: its settings (its admins only) or its usage.
  const [projectView, setProjectView] = useState<ProjectView | null>(null);
  const locale = localeOf(viewer?.locale ?? navigator.language);
  const t = MESSAGES[locale];

  useEffect(() => {
    if (refused) onSignOut(true);
  }, [refused, onSignOut]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  // Back, forward and links to `#thread=…` switch the thread too.
  useEffect(() => {
    const follow = () => {
      setThreadId(threadInLocation());
      setProjectView(null);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const open = useCallback((id: string | null) => {
    showThreadInLocation(id);
    setThreadId(id);
    setProjectView(null);
  }, []);
  const agents = viewer?.projects.flatMap((project) => project.agents) ?? [];
  const usageProject = projectView?.page === 'usage' ? viewer?.projects.find((project) => project.id === projectView.projectId) : undefined;

  return (
    <MessagesProvider value={t}>
      <div className="layout">
        <header className="top">
          <h1>Parley</h1>
          {viewer && <span className="who">{viewer.email}</span>}
          <button type="button" onClick={() => onSignOut(false)}>
            {t.signOut}
          </button>
        </header>
        <nav className="threads" aria-label={t.agents}>
          {viewerQuery.error && !refused && <p role="alert" className="notice">{viewerQuery.error.message}</p>}
          {viewer && <SearchBox onOpen={open} />}
          {agents.map((agent) => (
            <AgentThreads key={agent.id} agent={agent} threadId={threadId} locale={locale} onOpen={open} />
          ))}
          <ProjectNav projects={viewer?.projects ?? []} shown={projectView} onShow={setProjectView} />
        </nav>
        <main className="conversation">
          {projectView?.page === 'settings' ? (
            <ProjectSettings key={projectView.projectId} projectId={projectView.projectId} onClose={() => setProjectView(null)} />
          ) : projectView?.page === 'usage' && usageProject ? (
            <UsagePage key={usageProject.id} project={usageProject} onClose={() => setProjectView(null)} />
          ) : threadId ? (
            <OpenThread key={threadId} threadId={threadId} onOpen={open} />
          ) : (
            <p className="hint">{t.pickThread}</p>
          )}
        </main>
      </div>
    </MessagesProvider>
  );
}

/** The open thread; once its agent is known, its CONTEXT_LENGTH card can start a new chat there. */
function OpenThread({ threadId, onOpen }: { threadId: string; onOpen: (id: string) => void }) {
  const summary = useParleyQuery(ThreadSummaryDocument, { threadId });
  const thread = summary.data?.thread;
  const { threads, newThread } = useNewThread(thread?.agent.id ?? null, onOpen);
  // The server titles a thread after its first message: the list reads it then.
  const onSent = thread?.title === '' ? () => void Promise.all([threads.refetch(), summary.refetch()]) : undefined;
  return <Chat threadId={threadId} onNewChat={thread ? () => void newThread() : undefined} onSent={onSent} />;
}
