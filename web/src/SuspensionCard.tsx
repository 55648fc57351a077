import { type Resolution, type Suspension } from '@parley/client';
import { useAction, type ThreadView } from '@parley/client/react';
import { useState } from 'react';
import { ElicitationCard } from './ElicitationCard.tsx';
import { useMessages } from './i18n.ts';

function payloadText(card: Suspension, key: 'question' | 'action'): string {
  const payload = card.payload as Record<string, unknown> | null;
  const value = payload?.[key];
  return typeof value === 'string' ? value : JSON.stringify(card.payload);
}

export function SuspensionCard({ card, thread }: { card: Suspension; thread: ThreadView }) {
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
