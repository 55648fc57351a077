import { childrenOf, type MessagePart, type Resolution, type Suspension, type ThreadMessage, type ThreadState } from '@parley/client';
import { useAction, useThread, type ThreadView } from '@parley/client/react';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MessageList } from './CompactedMessages.tsx';
import { ContextGauge } from './ContextGauge.tsx';
import { ElicitationCard } from './ElicitationCard.tsx';
import { ErrorCard, type ErrorActions } from './ErrorCard.tsx';
import { useOnline, useSecondsUntil, whenOnline } from './hooks.ts';
import { useMessages } from './i18n.ts';
import { QueuePanel } from './QueuePanel.tsx';
import { ReplyUsage, runEnded } from './ReplyUsage.tsx';
import { useSummariseAndRetry } from './SummariseAndRetry.tsx';
import { Markdown } from './Markdown.tsx';
import { ShareButton } from './ShareDialog.tsx';

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

function Message({ message, state, thread, actions }: { message: ThreadMessage; state: ThreadState; thread: ThreadView; actions?: ErrorActions }) {
  const t = useMessages();
  const mine = message.role === 'USER';
  const [editing, setEditing] = useState(false);
  const delegated = new Set(message.parts.flatMap((part) => (part.__typename === 'DelegationPart' ? [part.toolCallId] : [])));
  const shownChildren = new Set(message.parts.flatMap((part) => (part.__typename === 'DelegationPart' ? [part.childExecutionId] : [])));
  // A child still running before its card is recorded shows from its streamed text.
  const liveChildren =
    message.executionId && !mine ? childrenOf(state, message.executionId).filter((child) => !shownChildren.has(child.executionId)) : [];
  return (
    <li className={`message ${mine ? 'mine' : 'reply'}`} data-message-id={message.id ?? undefined} data-outcome={message.outcome ?? undefined} data-execution-id={message.executionId ?? undefined}>
      <span className="author">{mine ? t.you : t.assistant}</span>
      {editing && message.id ? (
        <EditForm message={message} thread={thread} onDone={() => setEditing(false)} />
      ) : (
        message.parts.map((part, index) =>
          part.__typename === 'ToolCallPart' && delegated.has(part.toolCallId) ? null : (
            part.__typename === 'TextPart' && !mine ? <Markdown key={index} text={part.text} /> : <Part key={index} part={part} actions={actions} />
          ),
        )
      )}
      {liveChildren.map((child) => (
        <article key={child.executionId} className="delegation">
          <h3>{t.delegated}</h3>
          <p className="text">{child.text}</p>
        </article>
      ))}
      {!mine && message.outcome === 'CANCELLED' && <span className="badge stopped">{t.stopped}</span>}
      {!mine && message.outcome === 'INTERRUPTED' && <span className="badge interrupted">{t.interrupted}</span>}
      {!mine && message.executionId && runEnded(message.outcome) && <ReplyUsage executionId={message.executionId} outcome={message.outcome} />}
      {message.id && !editing && <BranchControls message={message} thread={thread} onEdit={() => setEditing(true)} />}
      {!mine && message.id && runEnded(message.outcome) && <ShareButton threadId={state.threadId} messageId={message.id} />}
    </li>
  );
}

/** A running call's progress as its tool server last reported it: a bar when the total is known, and the server's words. */
function ToolProgressBar({ progress }: { progress: { progress: number; total?: number | null; message?: string | null } }) {
  const t = useMessages();
  const total = progress.total ?? null;
  const label = t.toolProgress(progress.progress, total);
  return (
    <div className="tool-progress">
      {/* Without a total the bar only says it moves (indeterminate). */}
      <progress aria-label={label} value={total === null ? undefined : progress.progress} max={total ?? undefined} />
      <span>{progress.message ? `${label} · ${progress.message}` : label}</span>
    </div>
  );
}

/**
 * Edit on a sent message, Regenerate on a reply, and a ‹ 2 / 3 › picker on a message with
 * siblings. A running reply is stopped first (the server refuses a branch change while one runs).
 */
function BranchControls({ message, thread, onEdit }: { message: ThreadMessage; thread: ThreadView; onEdit: () => void }) {
  const t = useMessages();
  const [switchBranch, switching] = useAction(thread.switchBranch);
  const [regenerate, regenerating] = useAction(thread.regenerate);
  const siblings = message.siblingIds;
  const at = siblings.indexOf(message.id!);
  const busy = switching.pending || regenerating.pending;
  const problem = switching.error?.message ?? regenerating.error?.message;
  const go = (offset: number) => void switchBranch(siblings[at + offset]!, { stopFirst: true });
  return (
    <div className="branch-controls">
      {siblings.length > 1 && at >= 0 && (
        <span className="branch-picker" role="group" aria-label={t.branches}>
          <button type="button" aria-label={t.previousBranch} disabled={busy || at === 0} onClick={() => go(-1)}>
            ‹
          </button>
          <span className="branch-position">{t.branchOf(at + 1, siblings.length)}</span>
          <button type="button" aria-label={t.nextBranch} disabled={busy || at === siblings.length - 1} onClick={() => go(1)}>
            ›
          </button>
        </span>
      )}
      {message.role === 'USER' ? (
        <button type="button" className="edit-message" onClick={onEdit}>
          {t.editMessage}
        </button>
      ) : (
        <button type="button" className="regenerate" disabled={busy} onClick={() => void regenerate(message.id!, { stopFirst: true })}>
          {t.regenerate}
        </button>
      )}
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}

/** A sent message edited inline: Save & send makes it a new branch; Esc or Cancel leaves it. */
function EditForm({ message, thread, onDone }: { message: ThreadMessage; thread: ThreadView; onDone: () => void }) {
  const t = useMessages();
  const original = message.parts.map((part) => (part.__typename === 'TextPart' ? part.text : '')).join('');
  const [text, setText] = useState(original);
  const [editMessage, edited] = useAction(thread.editMessage);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    const result = await editMessage(message.id!, text, { stopFirst: true });
    if (result.__typename === 'MessageQueued') onDone();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <form className="edit-form" onSubmit={(event) => void submit(event)} onKeyDown={onKeyDown}>
      <label>
        <span className="hint">{t.editMessage}</span>
        <textarea value={text} autoFocus onChange={(event) => setText(event.target.value)} />
      </label>
      <button type="submit" disabled={edited.pending}>
        {t.saveAndSend}
      </button>
      <button type="button" onClick={onDone}>
        {t.cancel}
      </button>
      {edited.error && <p role="alert">{edited.error.message}</p>}
    </form>
  );
}

function Part({ part, actions }: { part: MessagePart; actions?: ErrorActions }) {
  const t = useMessages();
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
        <article className="tool" data-state={part.state} aria-label={t.tool(part.toolName)}>
          <p>
            {t.tool(part.toolName)} · {t.toolState[part.state] ?? part.state}
            {part.durationMs != null && ` · ${t.toolDuration(part.durationMs)}`}
          </p>
          {part.toolError && <p role="alert">{part.toolError}</p>}
          {part.state === 'CALLED' && part.progress && <ToolProgressBar progress={part.progress} />}
          {part.input != null && (
            <details>
              <summary>{t.toolInput}</summary>
              <pre>{JSON.stringify(part.input, null, 2)}</pre>
            </details>
          )}
          {part.output != null && (
            <details>
              <summary>{t.toolOutput}</summary>
              <pre>{outputText(part.output)}</pre>
            </details>
          )}
          {keptFiles(part.output).map((file) => (
            <AttachedFile key={file.attachmentId} file={file} />
          ))}
        </article>
      );
    case 'DelegationPart':
      return (
        <article className="delegation">
          <h3>{t.delegated}</h3>
          <p className="text">
            {part.text} {part.truncated && t.truncated}
          </p>
          {part.error && <ErrorCard failure={part.error} />}
        </article>
      );
    case 'ErrorPart':
      return <ErrorCard failure={part} actions={actions} />;
    case 'AttachmentPart':
      return <AttachedFile file={part} />;
    case 'CompactionPart':
      // Shown once, as the marker of the messages it summarises (CompactedMessages.tsx).
      return null;
    case 'SteeredInputPart':
      return (
        <p className="steered">
          <span className="hint">{t.steered}:</span> {part.text}
        </p>
      );
  }
}

/** A stored file of a message or of a tool's result. */
function AttachedFile({ file }: { file: { filename: string; size: number } }) {
  return (
    <p className="attachment">
      📎 {file.filename} ({Math.ceil(file.size / 1024)} KB)
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

/** A tool server's result is `{ text, truncated, attachments? }`; other tools' outputs are shown as JSON. */
function outputText(output: unknown): string {
  const text = (output as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : JSON.stringify(output, null, 2);
}

/** The files a tool server's result left as attachments of the reply (`output.attachments`). */
function keptFiles(output: unknown): { attachmentId: string; filename: string; size: number }[] {
  const attachments = (output as { attachments?: unknown } | null)?.attachments;
  return Array.isArray(attachments) ? attachments : [];
}

function payloadText(card: Suspension, key: 'question' | 'action'): string {
  const payload = card.payload as Record<string, unknown> | null;
  const value = payload?.[key];
  return typeof value === 'string' ? value : JSON.stringify(card.payload);
}

function SuspensionCard({ card, thread }: { card: Suspension; thread: ThreadView }) {
  const t = useMessages();
  const [answer, setAnswer] = useState('');
  const [resolveCard, resolving] = useAction(thread.resolve);
  const resolve = (resolution: Resolution) => void resolveCard(card.id, resolution);
  const problem = resolving.error?.message;
  if (card.kind === 'ELICITATION') return <ElicitationCard card={card} resolve={resolve} pending={resolving.pending} problem={problem} />;
  // A frontend tool call (an AG-UI client's tool, kind CLIENT_TOOL) is answered here as a question is: the answer is its result.
  if (card.kind === 'QUESTION' || card.kind === 'CLIENT_TOOL') {
    return (
      <form
        className="card question"
        aria-label={t.questionTitle}
        onSubmit={(event) => {
          event.preventDefault();
          if (answer.trim()) resolve({ answer: answer.trim() });
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
  // A tool server's card shows its server, tool, description and input.
  const serverTool = card.payload as { server?: string; tool?: string; description?: string; input?: unknown } | null;
  const fromServer = typeof serverTool?.server === 'string' && typeof serverTool.tool === 'string';
  return (
    <div className="card approval" role="group" aria-label={t.approvalTitle}>
      <strong>{t.approvalTitle}</strong>
      {fromServer ? (
        <>
          <p>
            {serverTool!.server}/{serverTool!.tool}
            {serverTool!.description ? `: ${serverTool!.description}` : ''}
          </p>
          <pre>{JSON.stringify(serverTool!.input ?? {}, null, 2)}</pre>
        </>
      ) : (
        <p>
          {card.toolName}: {payloadText(card, 'action')}
        </p>
      )}
      <button type="button" disabled={resolving.pending} onClick={() => resolve({ decision: 'APPROVE' })}>
        {t.approve}
      </button>
      {fromServer && (
        <button type="button" disabled={resolving.pending} onClick={() => resolve({ decision: 'APPROVE', allowInThread: true })}>
          {t.allowInThread}
        </button>
      )}
      <button type="button" disabled={resolving.pending} onClick={() => resolve({ decision: 'DENY' })}>
        {t.deny}
      </button>
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}

const draftKey = (threadId: string) => `parley:draft:${threadId}`;

interface Submitted {
  text: string;
  files: File[];
}

/**
 * The composer takes the text and clears the box the moment a message is submitted, so a fast
 * typist's next message starts in an empty box; messages go out one after another in the order
 * they were submitted, shown as sending until answered. Offline, they wait for the connection. A refused send (a spent budget,
 * an outage, an attachment over the server's limits) says why and gives its text back: into the
 * box when the box is empty, else as a kept draft shown above it, so nothing typed is lost.
 */
function Composer({ threadId, thread, onSent }: { threadId: string; thread: ThreadView; onSent?: () => void }) {
  const t = useMessages();
  const [draft, setDraftState] = useState(() => sessionStorage.getItem(draftKey(threadId)) ?? '');
  const [files, setFiles] = useState<File[]>([]);
  const [kept, setKept] = useState<Submitted[]>([]);
  // Submitted and not answered yet (offline, they wait here for the connection).
  const [outbox, setOutbox] = useState<Submitted[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [send, sending] = useAction(thread.send);
  const fileInput = useRef<HTMLInputElement>(null);
  // What the box holds now, for a refusal answering after the user typed on.
  const box = useRef({ draft, files });
  box.current = { draft, files };
  const queue = useRef(Promise.resolve());
  const setDraft = (text: string) => {
    box.current = { ...box.current, draft: text };
    setDraftState(text);
    sessionStorage.setItem(draftKey(threadId), text);
  };
  const setAttached = (chosen: File[]) => {
    box.current = { ...box.current, files: chosen };
    setFiles(chosen);
    if (chosen.length === 0 && fileInput.current) fileInput.current.value = '';
  };

  const giveBack = (message: Submitted, reason: string) => {
    setProblem(t.sendFailed(reason));
    if (!box.current.draft.trim() && box.current.files.length === 0) {
      setDraft(message.text);
      setAttached(message.files);
    } else {
      setKept((drafts) => [...drafts, message]);
    }
  };

  const deliver = async (message: Submitted) => {
    if (!navigator.onLine) {
      setProblem(t.offlineWait);
      await whenOnline();
    }
    const result = await send(message.text, { attachments: message.files });
    setOutbox((waiting) => waiting.filter((entry) => entry !== message));
    if (result.__typename === 'MessageQueued' || result.__typename === 'SuspensionResolved') {
      setProblem(null);
      onSent?.();
    } else {
      giveBack(message, result.message);
    }
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = { text: box.current.draft, files: box.current.files };
    if (!message.text.trim() && message.files.length === 0) return;
    setDraft('');
    setAttached([]);
    setOutbox((waiting) => [...waiting, message]);
    queue.current = queue.current.then(() => deliver(message));
  };
  const putBack = (index: number) => {
    const message = kept[index]!;
    const current = { text: box.current.draft, files: box.current.files };
    setKept((drafts) => [...drafts.filter((_, at) => at !== index), ...(current.text.trim() || current.files.length ? [current] : [])]);
    setDraft(message.text);
    setAttached(message.files);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form className="composer" onSubmit={submit} aria-busy={sending.pending}>
      {problem && (
        <p role="alert" className="notice">
          {problem}
        </p>
      )}
      {outbox.length > 0 && (
        <ul className="outbox" aria-label={t.sending}>
          {outbox.map((message, index) => (
            <li key={index} className="outbox-item">
              {message.text}
            </li>
          ))}
        </ul>
      )}
      {kept.length > 0 && (
        <section className="kept-drafts" aria-label={t.keptDrafts}>
          <p className="hint">{t.keptDrafts}</p>
          <ul>
            {kept.map((message, index) => (
              <li key={index} className="kept-draft">
                <span className="kept-text">{message.text}</span>
                <button type="button" onClick={() => putBack(index)}>
                  {t.useDraft}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <label htmlFor="composer-text" className="sr-only">
        {t.message}
      </label>
      <textarea id="composer-text" rows={2} value={draft} placeholder={t.message} onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
      {files.length > 0 && (
        <ul className="attached" aria-label={t.attachment}>
          {files.map((file, index) => (
            <li key={index}>📎 {file.name}</li>
          ))}
        </ul>
      )}
      <div className="composer-actions">
        <label className="attach">
          <span>{t.attach}</span>
          <input ref={fileInput} type="file" multiple onChange={(event) => setAttached([...(event.target.files ?? [])])} />
        </label>
        {thread.status === 'streaming' && (
          <button type="button" className="stop" onClick={() => void thread.stop()}>
            {t.stop}
          </button>
        )}
        <button type="submit">{t.send}</button>
      </div>
    </form>
  );
}
