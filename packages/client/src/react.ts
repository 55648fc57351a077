import { createContext, createElement, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ParleyClient, ThreadSession } from './client.ts';
import { initialThreadState, type ThreadState } from './thread-state.ts';

// React hooks over a thread session: the session owns the state, React reads it through
// useSyncExternalStore.

const ParleyContext = createContext<ParleyClient | null>(null);

export function ParleyProvider({ client, children }: { client: ParleyClient; children?: ReactNode }) {
  return createElement(ParleyContext.Provider, { value: client }, children);
}

export function useParleyClient(): ParleyClient {
  const client = useContext(ParleyContext);
  if (!client) throw new Error('useParleyClient needs a <ParleyProvider client={…}> above it.');
  return client;
}

export interface ThreadView {
  state: ThreadState;
  /** The session's actions; null until the session has opened (right after the first render). */
  session: ThreadSession | null;
}

const noSubscription = () => () => {};

/** Follows a thread for as long as the component is mounted (a new session per thread id). */
export function useThread(threadId: string): ThreadView {
  const client = useParleyClient();
  const [session, setSession] = useState<ThreadSession | null>(null);
  useEffect(() => {
    const opened = client.thread(threadId);
    setSession(opened);
    return () => {
      setSession(null);
      void opened.close();
    };
  }, [client, threadId]);
  const placeholder = useMemo(() => initialThreadState(threadId), [threadId]);
  const current = session?.threadId === threadId ? session : null;
  const state = useSyncExternalStore(
    current ? current.subscribe : noSubscription,
    current ? current.getSnapshot : () => placeholder,
    current ? current.getSnapshot : () => placeholder,
  );
  return { state, session: current };
}
