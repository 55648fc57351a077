import type { MessagePart, ThreadMessage } from '@parley/client';
import { useState, type ReactNode } from 'react';
import { useMessages } from './i18n.ts';

type CompactionPart = Extract<MessagePart, { __typename: 'CompactionPart' }>;

/**
 * The summary in force on the path: the last one not undone. The model is sent it and the messages
 * from its holder on, so everything before the holder is summarised (an earlier summary's range
 * included: a later summary summarises it too).
 */
export function summaryInForce(messages: readonly ThreadMessage[]): { part: CompactionPart; holderIndex: number } | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const part = messages[index]!.parts.findLast((candidate): candidate is CompactionPart => candidate.__typename === 'CompactionPart' && !candidate.undone);
    if (part) return { part, holderIndex: index };
  }
  return null;
}

/**
 * The thread's messages, those a summary stands for collapsed under one marker that shows the
 * summary as such and, asked to, the original messages (they stay in the thread).
 */
export function MessageList({ messages, render }: { messages: readonly ThreadMessage[]; render: (message: ThreadMessage, index: number) => ReactNode }) {
  const inForce = summaryInForce(messages);
  const cut = inForce?.holderIndex ?? 0;
  return (
    <>
      {inForce && cut > 0 && <CompactionMarker part={inForce.part} summarised={cut}>{messages.slice(0, cut).map(render)}</CompactionMarker>}
      {messages.slice(cut).map((message, index) => render(message, cut + index))}
    </>
  );
}

function CompactionMarker({ part, summarised, children }: { part: CompactionPart; summarised: number; children: ReactNode }) {
  const t = useMessages();
  const [open, setOpen] = useState(false);
  return (
    <li className="compaction-marker" data-through-message-id={part.throughMessageId}>
      <button type="button" className="compaction-toggle" aria-expanded={open} onClick={() => setOpen((shown) => !shown)}>
        {open ? t.summarisedHide : t.summarisedShow}
      </button>
      <section className="compaction-summary" aria-label={t.summaryOf(summarised, part.model)}>
        <p className="hint">{t.summaryOf(summarised, part.model)}</p>
        <p className="text">{part.summary}</p>
      </section>
      {open && (
        <ol className="summarised-messages" aria-label={t.summarisedOriginals}>
          {children}
        </ol>
      )}
    </li>
  );
}
