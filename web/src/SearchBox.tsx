import { ThreadSearchDocument, type ThreadSearchQuery } from '@parley/client';
import { useParleyClient } from '@parley/client/react';
import { useEffect, useState } from 'react';
import { useMessages } from './i18n.ts';

type Results = ThreadSearchQuery['searchThreads'];
type Hit = Results['hits'][number];
type SnippetParts = Hit['title']['parts'];

/** Waits this long after the last keystroke before asking the server. */
const TYPING_PAUSE_MS = 250;
/** How long a jump waits for the opened thread to show the message. */
const JUMP_WAIT_MS = 10_000;

/** Plain parts, the matched words emphasised: text nodes only, never markup from the server. */
function Marked({ parts }: { parts: SnippetParts }) {
  return (
    <>
      {parts.map((part, index) => (part.highlighted ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  );
}

/** Scrolls to the message once the opened thread shows it, and marks it for a moment. */
function jumpToMessage(messageId: string): void {
  const selector = `[data-message-id="${CSS.escape(messageId)}"]`;
  const show = (element: Element) => {
    element.scrollIntoView({ block: 'center' });
    element.classList.add('search-target');
  };
  const present = document.querySelector(selector);
  if (present) return show(present);
  const observer = new MutationObserver(() => {
    const element = document.querySelector(selector);
    if (!element) return;
    observer.disconnect();
    show(element);
  });
  observer.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => observer.disconnect(), JUMP_WAIT_MS);
}

/** The search box above the thread lists: the viewer's threads whose title or messages match, best first. */
export function SearchBox({ onOpen }: { onOpen: (threadId: string) => void }) {
  const t = useMessages();
  const client = useParleyClient();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const search = async (text: string, after: string | null) => {
    const answer = await client.request(ThreadSearchDocument, { query: text, first: 20, after });
    if (answer.__typename === 'RequestError') return { error: answer.message };
    return { results: answer.searchThreads };
  };

  useEffect(() => {
    const text = query.trim();
    setProblem(null);
    if (!/[\p{L}\p{N}]/u.test(text)) {
      setResults(null);
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      const answer = await search(text, null);
      if (!current) return;
      if ('error' in answer) setProblem(answer.error ?? null);
      else setResults(answer.results);
    }, TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `search` is this render's; the query alone decides when to ask again.
  }, [query]);

  const more = async () => {
    if (!results?.endCursor) return;
    const answer = await search(query.trim(), results.endCursor);
    if ('error' in answer) setProblem(answer.error ?? null);
    else setResults({ ...answer.results, hits: [...results.hits, ...answer.results.hits] });
  };

  const open = (hit: Hit) => {
    onOpen(hit.threadId);
    if (hit.messageId) jumpToMessage(hit.messageId);
  };

  return (
    <div role="search" className="search-box">
      <input
        type="search"
        aria-label={t.searchThreads}
        placeholder={t.searchPlaceholder}
        value={query}
        maxLength={200}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setQuery('');
        }}
      />
      {problem && <p role="alert" className="notice">{problem}</p>}
      {results && (
        <div aria-label={t.searchHits} role="region">
          {results.hits.length === 0 ? (
            <p className="hint">{t.noHits}</p>
          ) : (
            <ul className="search-hits">
              {results.hits.map((hit) => (
                <li key={hit.cursor}>
                  <button type="button" className="search-hit" onClick={() => open(hit)}>
                    <strong className="search-title">
                      <Marked parts={hit.title.parts} />
                    </strong>
                    {hit.snippet && (
                      <span className="search-snippet">
                        <Marked parts={hit.snippet.parts} />
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {results.hasNextPage && (
            <button type="button" className="more-hits" onClick={() => void more()}>
              {t.moreHits}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
