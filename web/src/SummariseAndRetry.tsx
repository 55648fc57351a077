import { failureOf } from '@parley/client';
import type { ThreadView } from '@parley/client/react';
import { useState } from 'react';
import { useMessages } from './i18n.ts';

/** "Summarise and retry" on a CONTEXT_LENGTH card: what it does, whether it is under way, and why it did not work. */
export interface SummariseAndRetryAction {
  run: () => void;
  pending: boolean;
  problem: string | null;
}

/**
 * Compacts the thread (its oldest turns summarised, as the server would before a call) and then
 * re-queues the failed turn: the server retries a CONTEXT_LENGTH failure only once the thread was
 * compacted after it. A refusal of either step (nothing to compact, a run active) is said on the card.
 */
export function useSummariseAndRetry(thread: ThreadView, executionId: string | undefined): SummariseAndRetryAction {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    if (!executionId || pending) return;
    setPending(true);
    setProblem(null);
    try {
      const failed = failureOf(await thread.compact()) ?? failureOf(await thread.retry(executionId));
      setProblem(failed?.message ?? null);
    } finally {
      setPending(false);
    }
  };
  return { run: () => void run(), pending, problem };
}

export function SummariseAndRetryButton({ action }: { action: SummariseAndRetryAction }) {
  const t = useMessages();
  return (
    <>
      <button type="button" className="summarise-and-retry" disabled={action.pending} onClick={action.run}>
        {action.pending ? t.summarising : t.summariseAndRetry}
      </button>
      {action.problem && <p role="alert">{action.problem}</p>}
    </>
  );
}
