import {
  AgentThreadsDocument,
  DeleteThreadForGoodDocument,
  RenameThreadTitleDocument,
  StartThreadDocument,
  type AppViewerQuery,
} from '@parley/client';
import { useAction, useParleyClient, useParleyQuery } from '@parley/client/react';
import { useState } from 'react';
import { useMessages } from './i18n.ts';

type Agent = AppViewerQuery['viewer']['projects'][number]['agents'][number];

/** Starts a thread with an agent and shows it in that agent's list (the list's read is shared). */
export function useNewThread(agentId: string | null, onOpen: (threadId: string) => void) {
  const client = useParleyClient();
  const threads = useParleyQuery(AgentThreadsDocument, { agentId: agentId ?? '' }, { skip: !agentId });
  const [startThread, started] = useAction(async (forAgent: string) => {
    const result = await client.request(StartThreadDocument, { agentId: forAgent, title: null });
    return result.__typename === 'RequestError' ? result : result.createThread;
  });
  const newThread = async () => {
    if (!agentId) return;
    const created = await startThread(agentId);
    if (created.__typename !== 'Thread') return;
    await threads.refetch();
    onOpen(created.id);
  };
  return { threads, newThread, started };
}

export function AgentThreads({ agent, threadId, locale, onOpen }: { agent: Agent; threadId: string | null; locale: string; onOpen: (id: string | null) => void }) {
  const t = useMessages();
  const { threads, newThread, started } = useNewThread(agent.id, onOpen);
  const edges = threads.data?.agent.threads.edges ?? [];
  const problem = started.error?.message ?? threads.error?.message;
  return (
    <section className="agent">
      <h2>{agent.name}</h2>
      {problem && <p role="alert" className="notice">{problem}</p>}
      <button type="button" className="new-thread" disabled={started.pending} onClick={() => void newThread()}>
        {t.newThread}
      </button>
      {threads.data && edges.length === 0 ? (
        <p className="hint">{t.noThreads}</p>
      ) : (
        <ul>
          {[...edges]
            .sort((a, b) => b.node.lastActivityAt.localeCompare(a.node.lastActivityAt))
            .map(({ node }) => (
              <ThreadItem
                key={node.id}
                thread={node}
                current={node.id === threadId}
                label={node.title || new Date(node.createdAt).toLocaleString(locale)}
                onOpen={onOpen}
                onChanged={async (deleted) => {
                  if (deleted && node.id === threadId) onOpen(null);
                  await threads.refetch();
                }}
              />
            ))}
        </ul>
      )}
    </section>
  );
}

/** A thread in its agent's list, with Rename (inline) and Delete (after a confirmation). */
function ThreadItem({
  thread,
  current,
  label,
  onOpen,
  onChanged,
}: {
  thread: { id: string; title: string };
  current: boolean;
  label: string;
  onOpen: (id: string) => void;
  onChanged: (deleted: boolean) => Promise<void>;
}) {
  const t = useMessages();
  const client = useParleyClient();
  const [mode, setMode] = useState<'show' | 'rename' | 'confirmDelete'>('show');
  const [title, setTitle] = useState(thread.title);
  const [rename, renaming] = useAction(async (threadId: string, newTitle: string) => {
    const result = await client.request(RenameThreadTitleDocument, { threadId, title: newTitle });
    return result.__typename === 'RequestError' ? result : result.renameThread;
  });
  const [remove, removing] = useAction(async (threadId: string) => {
    const result = await client.request(DeleteThreadForGoodDocument, { threadId });
    return result.__typename === 'RequestError' ? result : result.deleteThread;
  });
  const problem = renaming.error?.message ?? removing.error?.message;
  return (
    <li className="thread-item">
      {mode === 'rename' ? (
        <form
          className="rename"
          onSubmit={async (event) => {
            event.preventDefault();
            const result = await rename(thread.id, title);
            if (result.__typename === 'Thread') {
              setMode('show');
              await onChanged(false);
            }
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setMode('show');
          }}
        >
          <label>
            <span className="hint">{t.renameTitle}</span>
            <input value={title} autoFocus onChange={(event) => setTitle(event.target.value)} />
          </label>
          <button type="submit" disabled={renaming.pending}>
            {t.save}
          </button>
          <button type="button" onClick={() => setMode('show')}>
            {t.cancel}
          </button>
        </form>
      ) : (
        <button type="button" aria-current={current ? 'page' : undefined} onClick={() => onOpen(thread.id)}>
          {label}
        </button>
      )}
      {mode === 'show' && (
        <span className="thread-actions">
          <button type="button" className="rename-thread" onClick={() => setMode('rename')}>
            {t.renameThread}
          </button>
          <button type="button" className="delete-thread" onClick={() => setMode('confirmDelete')}>
            {t.deleteThread}
          </button>
        </span>
      )}
      {mode === 'confirmDelete' && (
        <div role="alertdialog" aria-label={t.deleteThread} className="confirm-delete">
          <p>{t.confirmDelete(label)}</p>
          <button
            type="button"
            disabled={removing.pending}
            onClick={async () => {
              const result = await remove(thread.id);
              if (result.__typename === 'ThreadDeleted') await onChanged(true);
              else setMode('show');
            }}
          >
            {t.deleteForGood}
          </button>
          <button type="button" onClick={() => setMode('show')}>
            {t.cancel}
          </button>
        </div>
      )}
      {problem && <p role="alert">{problem}</p>}
    </li>
  );
}
