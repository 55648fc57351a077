import { childrenOf, type MessagePart, type ThreadMessage, type ThreadState } from '@parley/client';
import { useAction, type ThreadView } from '@parley/client/react';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorCard, type ErrorActions } from './ErrorCard.tsx';
import { useMessages } from './i18n.ts';
import { Markdown } from './Markdown.tsx';
import { ReplyUsage, runEnded } from './ReplyUsage.tsx';
import { ShareButton } from './ShareDialog.tsx';

export function Message({ message, state, thread, actions }: { message: ThreadMessage; state: ThreadState; thread: ThreadView; actions?: ErrorActions }) {
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
