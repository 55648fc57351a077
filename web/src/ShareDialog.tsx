import { RevokeThreadShareLinkDocument, ShareThreadLinkDocument, ThreadShareLinkListDocument } from '@parley/client';
import { useAction, useParleyClient } from '@parley/client/react';
import { useEffect, useRef, useState } from 'react';
import { useMessages } from './i18n.ts';

type ListedLink = { id: string; createdAt: string; includeAttachments: boolean };

/**
 * Share… on a finished reply: a dialog that makes a read-only link to the thread up to that reply
 * (files only when asked), shows it once to copy (the server keeps only its hash), and lists the
 * thread's links with Revoke.
 */
export function ShareButton({ threadId, messageId }: { threadId: string; messageId: string }) {
  const t = useMessages();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="share"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
      >
        {t.share}
      </button>
      <dialog ref={dialog} className="share-dialog" aria-label={t.shareTitle} onClose={() => setOpen(false)}>
        {open && <ShareForm threadId={threadId} messageId={messageId} onClose={() => dialog.current?.close()} />}
      </dialog>
    </>
  );
}

function ShareForm({ threadId, messageId, onClose }: { threadId: string; messageId: string; onClose: () => void }) {
  const t = useMessages();
  const client = useParleyClient();
  const [includeFiles, setIncludeFiles] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [links, setLinks] = useState<ListedLink[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = async () => {
    const answer = await client.request(ThreadShareLinkListDocument, { threadId });
    if (answer.__typename !== 'RequestError') setLinks(answer.thread.shareLinks);
  };
  useEffect(() => {
    void reload();
    // The list is read when the dialog opens, and again after each change made here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [threadId]);
  const [share, sharing] = useAction(async () => {
    const answer = await client.request(ShareThreadLinkDocument, { threadId, throughMessageId: messageId, includeAttachments: includeFiles });
    return answer.__typename === 'RequestError' ? answer : answer.shareThread;
  });
  const [revoke, revoking] = useAction(async (id: string) => {
    const answer = await client.request(RevokeThreadShareLinkDocument, { id });
    return answer.__typename === 'RequestError' ? answer : answer.revokeShareLink;
  });
  const create = async () => {
    const made = await share();
    if (made.__typename === 'ShareLink' && made.url) {
      setUrl(new URL(made.url, location.origin).href);
      setNotice(null);
      await reload();
    }
  };
  const revokeLink = async (id: string) => {
    const revoked = await revoke(id);
    if (revoked.__typename === 'ShareLinkRevoked') {
      setNotice(t.shareRevoked);
      setUrl(null);
      await reload();
    }
  };
  const problem = [sharing.error, revoking.error].find(Boolean)?.message;
  return (
    <form method="dialog" className="share-form" onSubmit={(event) => event.preventDefault()}>
      <h2>{t.shareTitle}</h2>
      <p className="hint">{t.shareExplain}</p>
      <label>
        <input type="checkbox" checked={includeFiles} onChange={(event) => setIncludeFiles(event.target.checked)} /> {t.shareIncludeFiles}
      </label>
      <button type="button" disabled={sharing.pending} onClick={() => void create()}>
        {t.shareCreate}
      </button>
      {url && (
        <p className="share-url">
          <label>
            {t.shareLink} <input readOnly value={url} onFocus={(event) => event.target.select()} />
          </label>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(url)}>
            {t.shareCopy}
          </button>
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {problem && <p role="alert">{problem}</p>}
      {links.length > 0 && (
        <section aria-label={t.shareLinks}>
          <h3>{t.shareLinks}</h3>
          <ul className="share-links">
            {links.map((link) => (
              <li key={link.id} data-link-id={link.id}>
                {new Date(link.createdAt).toLocaleString()} {link.includeAttachments && '📎'}
                <button type="button" disabled={revoking.pending} onClick={() => void revokeLink(link.id)}>
                  {t.shareRevoke}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <button type="button" onClick={onClose}>
        {t.shareClose}
      </button>
    </form>
  );
}
