import { childrenOf, type MessagePart, type Suspension, type ThreadMessage, type ThreadSession, type ThreadState } from '@parley/client';
import { useThread } from '@parley/client/react';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorCard, type ErrorActions } from './ErrorCard.tsx';
import { useOnline, useSecondsUntil, whenOnline } from './hooks.ts';
import type { Messages } from './i18n.ts';
import { QueuePanel } from './QueuePanel.tsx';

interface ChatProps {
  threadId: string;
  t: Messages;
  /** Starts a new thread with this thread's agent (the CONTEXT_LENGTH card offers it). */
  onNewChat?: () => void;
}

/** One thread: its messages as they stream, its open cards, its queue, and the composer. */
export function Chat({ threadId, t, onNewChat }: ChatProps) {
  const { state, session } = useThread(threadId);
  const online = useOnline();
  const [notice, setNotice] = useState<string | null>(null);
  useFollowTheEnd(state.messages);
  const errorActions: ErrorActions | undefined =
    session && state.error
      ? {
          retry: async () => {
            const result = await session.retry(state.error?.executionId);
            setNotice(result.__typename === 'MessageQueued' ? null : (result as { message: string }).message);
          },
          newChat: onNewChat,
          retryAt: state.error.retryAt,
        }
      : undefined;

  return (
    <section className="chat" aria-busy={!state.loaded}>
      <ConnectionBanner state={state} online={online} t={t} />
      <ol className="messages" role="log" aria-live="polite" aria-relevant="additions text">
        {state.messages.map((message, index) => (
          <Message
            key={message.id ?? `${message.executionId}-${index}`}
            message={message}
            state={state}
            t={t}
            actions={message.executionId === state.error?.executionId ? errorActions : undefined}
          />
        ))}
      </ol>
      <RetryNotices state={state} t={t} />
      {session && state.openSuspensions.map((card) => <SuspensionCard key={card.id} card={card} session={session} t={t} />)}
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <QueuePanel state={state} session={session} t={t} />
      <Composer threadId={threadId} state={state} session={session} t={t} />
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

function ConnectionBanner({ state, online, t }: { state: ThreadState; online: boolean; t: Messages }) {
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

function Message({ message, state, t, actions }: { message: ThreadMessage; state: ThreadState; t: Messages; actions?: ErrorActions }) {
  const mine = message.role === 'USER';
  const delegated = new Set(message.parts.flatMap((part) => (part.__typename === 'DelegationPart' ? [part.toolCallId] : [])));
  const shownChildren = new Set(message.parts.flatMap((part) => (part.__typename === 'DelegationPart' ? [part.childExecutionId] : [])));
  // A child still running before its card is recorded shows from its streamed text.
  const liveChildren =
    message.executionId && !mine ? childrenOf(state, message.executionId).filter((child) => !shownChildren.has(child.executionId)) : [];
  return (
    <li className={`message ${mine ? 'mine' : 'reply'}`} data-outcome={message.outcome ?? undefined} data-execution-id={message.executionId ?? undefined}>
      <span className="author">{mine ? t.you : t.assistant}</span>
      {message.parts.map((part, index) =>
        part.__typename === 'ToolCallPart' && delegated.has(part.toolCallId) ? null : (
          <Part key={index} part={part} t={t} actions={actions} />
        ),
      )}
      {liveChildren.map((child) => (
        <article key={child.executionId} className="delegation">
          <h3>{t.delegated}</h3>
          <p className="text">{child.text}</p>
        </article>
      ))}
      {!mine && message.outcome === 'CANCELLED' && <span className="badge stopped">{t.stopped}</span>}
      {!mine && message.outcome === 'INTERRUPTED' && <span className="badge interrupted">{t.interrupted}</span>}
    </li>
  );
}

function Part({ part, t, actions }: { part: MessagePart; t: Messages; actions?: ErrorActions }) {
  switch (part.__typename) {
    case 'TextPart':
      return <p className="text">{part.text}</p>;
    case 'ReasoningPart':
      return (
        <details className="reasoning">
          <summary>{t.reasoning}</summary>
          <p>{part.text}</p>
        </details>
      );
    case 'ToolCallPart':
      return (
        <p className="tool" data-state={part.state}>
          {t.tool(part.toolName)} · {t.toolState[part.state] ?? part.state}
        </p>
      );
    case 'DelegationPart':
      return (
        <article className="delegation">
          <h3>{t.delegated}</h3>
          <p className="text">
            {part.text} {part.truncated && t.truncated}
          </p>
          {part.error && <ErrorCard failure={part.error} t={t} />}
        </article>
      );
    case 'ErrorPart':
      return <ErrorCard failure={part} t={t} actions={actions} />;
    case 'AttachmentPart':
      return (
        <p className="attachment">
          📎 {part.filename} ({Math.ceil(part.size / 1024)} KB)
        </p>
      );
    case 'SteeredInputPart':
      return (
        <p className="steered">
          <span className="hint">{t.steered}:</span> {part.text}
        </p>
      );
  }
}

function RetryNotices({ state, t }: { state: ThreadState; t: Messages }) {
  const next = Object.values(state.retries).sort((a, b) => a.retryAt - b.retryAt)[0];
  const seconds = useSecondsUntil(next?.retryAt ?? null);
  if (!next || seconds <= 0) return null;
  return <p className="hint">{t.retrying(seconds)}</p>;
}

function payloadText(card: Suspension, key: 'question' | 'action'): string {
  const payload = card.payload as Record<string, unknown> | null;
  const value = payload?.[key];
  return typeof value === 'string' ? value : JSON.stringify(card.payload);
}

function SuspensionCard({ card, session, t }: { card: Suspension; session: ThreadSession; t: Messages }) {
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const resolve = async (resolution: Parameters<ThreadSession['resolve']>[1]) => {
    const result = await session.resolve(card.id, resolution);
    setProblem(result.__typename === 'SuspensionResolved' ? null : (result as { message: string }).message);
  };
  if (card.kind === 'QUESTION') {
    return (
      <form
        className="card question"
        aria-label={t.questionTitle}
        onSubmit={(event) => {
          event.preventDefault();
          if (answer.trim()) void resolve({ answer: answer.trim() });
        }}
      >
        <strong>{t.questionTitle}</strong>
        <p>{payloadText(card, 'question')}</p>
        <label>
          {t.yourAnswer} <input value={answer} onChange={(event) => setAnswer(event.target.value)} />
        </label>
        <button type="submit">{t.answer}</button>
        <p className="hint">{t.orType}</p>
        {problem && <p role="alert">{problem}</p>}
      </form>
    );
  }
  return (
    <div className="card approval" role="group" aria-label={t.approvalTitle}>
      <strong>{t.approvalTitle}</strong>
      <p>
        {card.toolName}: {payloadText(card, 'action')}
      </p>
      <button type="button" onClick={() => void resolve({ decision: 'APPROVE' })}>
        {t.approve}
      </button>
      <button type="button" onClick={() => void resolve({ decision: 'DENY' })}>
        {t.deny}
      </button>
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}

const draftKey = (threadId: string) => `parley:draft:${threadId}`;

/**
 * The composer keeps its text until the server has the message: offline, sending waits for the
 * connection; a refused send (e.g. an attachment over the server's limits) says why and keeps it.
 */
function Composer({ threadId, state, session, t }: { threadId: string; state: ThreadState; session: ThreadSession | null; t: Messages }) {
  const [draft, setDraftState] = useState(() => sessionStorage.getItem(draftKey(threadId)) ?? '');
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const setDraft = (text: string) => {
    setDraftState(text);
    sessionStorage.setItem(draftKey(threadId), text);
  };

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!session || sending || (!draft.trim() && files.length === 0)) return;
    setSending(true);
    try {
      if (!navigator.onLine) {
        setProblem(t.offlineWait);
        await whenOnline();
      }
      const result = await session.send(draft, { attachments: files });
      if (result.__typename === 'MessageQueued' || result.__typename === 'SuspensionResolved') {
        setDraft('');
        setFiles([]);
        if (fileInput.current) fileInput.current.value = '';
        setProblem(null);
      } else {
        setProblem(t.sendFailed((result as { message: string }).message));
      }
    } finally {
      setSending(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" onSubmit={send}>
      {problem && (
        <p role="alert" className="notice">
          {problem}
        </p>
      )}
      <label htmlFor="composer-text" className="sr-only">
        {t.message}
      </label>
      <textarea id="composer-text" rows={2} value={draft} placeholder={t.message} onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
      <div className="composer-actions">
        <label className="attach">
          <span>{t.attach}</span>
          <input ref={fileInput} type="file" multiple onChange={(event) => setFiles([...(event.target.files ?? [])])} />
        </label>
        {state.activeExecutionId && (
          <button type="button" className="stop" onClick={() => void session?.stop()}>
            {t.stop}
          </button>
        )}
        <button type="submit" disabled={!session || sending}>
          {t.send}
        </button>
      </div>
    </form>
  );
}
