import { createParleyClient, SharedSnapshotDocument, type SharedSnapshotQuery } from '@parley/client';
import { useEffect, useMemo, useState } from 'react';
import { localeOf, MESSAGES, MessagesProvider, useMessages } from './i18n.ts';
import { Markdown } from './Markdown.tsx';

type Snapshot = Extract<SharedSnapshotQuery['sharedThread'], { __typename: 'ThreadSnapshot' }>;
type SnapshotPart = Snapshot['messages'][number]['parts'][number];

/** The token of a share link's page (`/share/<token>`), or null on any other page. */
export function shareTokenInLocation(): string | null {
  return /^\/share\/([\w-]+)$/.exec(location.pathname)?.[1] ?? null;
}

/**
 * A shared snapshot, read without signing in (no token is kept or sent): its messages as they were
 * shared, replies as Markdown, user messages as typed. An unknown or revoked link says only that.
 */
export function SharedPage({ token }: { token: string }) {
  const t = MESSAGES[localeOf(navigator.language)];
  const client = useMemo(() => createParleyClient({ url: new URL('/graphql', location.href).href, token: '' }), []);
  const [snapshot, setSnapshot] = useState<Snapshot | 'missing' | null>(null);
  useEffect(() => {
    void client.request(SharedSnapshotDocument, { token }).then((answer) => {
      setSnapshot(answer.__typename !== 'RequestError' && answer.sharedThread.__typename === 'ThreadSnapshot' ? answer.sharedThread : 'missing');
    });
  }, [client, token]);
  return (
    <MessagesProvider value={t}>
      <main className="shared-page">
        {snapshot === null && <p role="status">{t.sharedLoading}</p>}
        {snapshot === 'missing' && <p role="alert">{t.sharedNotFound}</p>}
        {snapshot && snapshot !== 'missing' && <SnapshotView snapshot={snapshot} />}
      </main>
    </MessagesProvider>
  );
}

function SnapshotView({ snapshot }: { snapshot: Snapshot }) {
  const t = useMessages();
  useEffect(() => {
    document.title = snapshot.title || 'Parley';
  }, [snapshot.title]);
  return (
    <article className="snapshot">
      <h1>{snapshot.title}</h1>
      <p className="hint">
        {t.sharedBy(snapshot.agentName, new Date(snapshot.sharedAt).toLocaleString())} · {t.sharedReadOnly}
      </p>
      <ol className="messages">
        {snapshot.messages.map((message, index) => (
          <li key={index} className={`message ${message.role === 'USER' ? 'mine' : 'reply'}`}>
            <span className="author">{message.role === 'USER' ? t.you : t.assistant}</span>
            {message.parts.map((part, at) => (
              <SnapshotPartView key={at} part={part} reply={message.role !== 'USER'} />
            ))}
          </li>
        ))}
      </ol>
    </article>
  );
}

function SnapshotPartView({ part, reply }: { part: SnapshotPart; reply: boolean }) {
  const t = useMessages();
  switch (part.__typename) {
    case 'TextPart':
      return reply ? <Markdown text={part.text} /> : <p className="text">{part.text}</p>;
    case 'ReasoningPart':
      return (
        <details className="reasoning">
          <summary>{t.reasoning}</summary>
          <p>{part.text}</p>
        </details>
      );
    case 'ToolCallPart':
      return <p className="tool">{t.tool(part.toolName)} · {t.toolState[part.state] ?? part.state}</p>;
    case 'DelegationPart':
      return (
        <article className="delegation">
          <h3>{t.delegated}</h3>
          <Markdown text={part.text} />
        </article>
      );
    case 'AttachmentPart':
      return (
        <p className="attachment">
          📎 <a href={part.downloadPath} download={part.filename}>{part.filename}</a> ({Math.ceil(part.size / 1024)} KB)
        </p>
      );
    case 'SteeredInputPart':
      return <p className="steered">{part.text}</p>;
    default:
      return null;
  }
}
