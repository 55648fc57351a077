import { type ThreadState } from '@parley/client';
import { useAction, useThread } from '@parley/client/react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { MessageList } from './CompactedMessages.tsx';
import { Composer } from './Composer.tsx';
import { ContextGauge } from './ContextGauge.tsx';
import { type ErrorActions } from './ErrorCard.tsx';
import { useOnline, useSecondsUntil } from './hooks.ts';
import { useMessages } from './i18n.ts';
import { Message } from './Message.tsx';
import { QueuePanel } from './QueuePanel.tsx';
import { useSummariseAndRetry } from './SummariseAndRetry.tsx';
import { SuspensionCard } from './SuspensionCard.tsx';

interface ChatProps {
  threadId: string;
  /** Starts a new thread with this thread's agent (the CONTEXT_LENGTH card offers it). */
  onNewChat?: () => void;
  /** A message was queued. */
  onSent?: () => void;
}

/** One thread: its messages as they stream, its open cards, its queue, and the composer. */
export function Chat({ threadId, onNewChat, onSent }: ChatProps) {
  const thread = useThread(threadId);
  const { state } = thread;
  const online = useOnline();
  const [retry, retried] = useAction(thread.retry);
  const summariseAndRetry = useSummariseAndRetry(thread, state.error?.executionId);
  useFollowTheEnd(state.messages);
  const errorActions: ErrorActions | undefined = state.error
    ? { retry: () => void retry(state.error?.executionId), newChat: onNewChat, retryAt: state.error.retryAt, summariseAndRetry }
    : undefined;

  return (
    <section className="chat" aria-busy={thread.status === 'loading'} data-status={thread.status}>
      <ConnectionBanner state={state} online={online} />
      <ContextGauge threadId={threadId} state={state} />
      <ol className="messages" role="log" aria-live="polite" aria-relevant="additions text">
        <MessageList
          messages={state.messages}
          render={(message, index) => (
            <Message
              key={message.id ?? `${message.executionId}-${index}`}
              message={message}
              state={state}
              thread={thread}
              actions={message.executionId === state.error?.executionId ? errorActions : undefined}
            />
          )}
        />
      </ol>
      <RetryNotices state={state} />
      {state.openSuspensions.map((card) => (
        <SuspensionCard key={card.id} card={card} thread={thread} />
      ))}
      {retried.error && (
        <p role="status" className="notice">
          {retried.error.message}
        </p>
      )}
      <QueuePanel thread={thread} />
      <Composer threadId={threadId} thread={thread} onSent={onSent} />
    </section>
  );
}

/** Keeps the page at its end as replies grow, unless the reader has scrolled up. */
function useFollowTheEnd(content: unknown) {
  const atEnd = useRef(true);
  useEffect(() => {
    const update = () => {
      atEnd.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
    };
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  useLayoutEffect(() => {
    if (atEnd.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [content]);
}

function ConnectionBanner({ state, online }: { state: ThreadState; online: boolean }) {
  const t = useMessages();
  const status = online ? state.connection.status : 'offline';
  // A session that gave up (an unknown thread, a revoked token) says why.
  const why = status === 'closed' ? state.connection.error?.message : undefined;
  return (
    <p className={`connection connection-${status}`} role="status" data-status={status}>
      {t.connection[status]}
      {why && `: ${why}`}
    </p>
  );
}

function RetryNotices({ state }: { state: ThreadState }) {
  const t = useMessages();
  const next = Object.values(state.retries).sort((a, b) => a.retryAt - b.retryAt)[0];
  const seconds = useSecondsUntil(next?.retryAt ?? null);
  if (!next || seconds <= 0) return null;
  return <p className="hint">{t.retrying(seconds)}</p>;
}
