import { ReplyUsageDocument, type ThreadMessage } from '@parley/client';
import { useParleyQuery } from '@parley/client/react';
import { useEffect, useRef } from 'react';
import { useMessages } from './i18n.ts';
import { usageLine } from './usage-format.ts';

type ExecutionStatus = NonNullable<ThreadMessage['outcome']>;

/** Outcomes after which a run makes no more model calls: its usage is final. */
const ENDED: ReadonlySet<ExecutionStatus> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'REFUSED']);

export function runEnded(outcome: ExecutionStatus | null): boolean {
  return outcome !== null && ENDED.has(outcome);
}

/**
 * The line under a finished reply: its run's tokens and cost, delegated tasks included. Read from
 * the run once it has ended — after a reload from the conversation's outcome, live when its
 * ExecutionFinished arrives (the server records the last calls with the run's end, so the read
 * sees them) — and again if the outcome changes. A run without model calls shows nothing.
 */
export function ReplyUsage({ executionId, outcome }: { executionId: string; outcome: ExecutionStatus }) {
  const t = useMessages();
  const read = useParleyQuery(ReplyUsageDocument, { executionId });
  const { refetch } = read;
  const shownFor = useRef(outcome);
  useEffect(() => {
    if (shownFor.current === outcome) return;
    shownFor.current = outcome;
    void refetch();
  }, [outcome, refetch]);
  const node = read.data?.node;
  const usage = node?.__typename === 'Execution' ? node.usage : null;
  if (!usage || usage.total.modelCalls === 0) return null;
  return (
    <p className="reply-usage">
      {usageLine(usage.total, t)}
      {usage.delegated.modelCalls > 0 && <span className="hint"> · {t.withDelegated}</span>}
    </p>
  );
}
