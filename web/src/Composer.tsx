import { useAction, type ThreadView } from '@parley/client/react';
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { whenOnline } from './hooks.ts';
import { useMessages } from './i18n.ts';

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
export function Composer({ threadId, thread, onSent }: { threadId: string; thread: ThreadView; onSent?: () => void }) {
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
