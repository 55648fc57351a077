import { ReplyUsageDocument, type ThreadMessage } from '@parley/client';
import { useParleyQuery } from '@parley/client/react';
import { useEffect, useRef } from 'react';
import { useSeen } from './hooks.ts';
import { useMessages } from './i18n.ts';
import { usageLine } from './usage-format.ts';

type ExecutionStatus = NonNullable<ThreadMessage['outcome']>;

/** Outcomes after which a run makes no more model calls: its usage is final. */
const ENDED: ReadonlySet<ExecutionStatus> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'REFUSED']);

export function runEnded(outcome: ExecutionStatus | null): outcome is ExecutionStatus {
  return outcome !== null && ENDED.has(outcome);
}

/**
 * The line under a finished reply: its run's tokens and cost, delegated tasks included. Read from
 * the run once it has ended — after a reload from the conversation's outcome, live when its
 * ExecutionFinished arrives (the server records the last calls with the run's end, so the read
 * sees them) — and again if the outcome changes. A reply is read once it comes near the screen,
 * so a reload of a long thread reads the replies in view, not its whole history. A run without
 * model calls shows nothing.
 */
export function ReplyUsage({ executionId, outcome }: { executionId: string; outcome: ExecutionStatus }) {
  const t = useMessages();
  const line = useRef<HTMLParagraphElement>(null);
  const seen = useSeen(line);
  const read = useParleyQuery(ReplyUsageDocument, { executionId }, { skip: !seen });
  const { refetch } = read;
  const shownFor = useRef(outcome);
  useEffect(() => {
    const changed = shownFor.current !== outcome;
    shownFor.current = outcome;
    // Not read yet: its first read, when it comes into view, is of the new outcome already.
    if (changed && seen) void refetch();
  }, [outcome, refetch, seen]);
  const node = read.data?.node;
  const usage = node?.__typename === 'Execution' ? node.usage : null;
  // Empty (and of no height) until read: it is what the viewport is watched for.
  return (
    <p className="reply-usage" ref={line}>
      {usage && usage.total.modelCalls > 0 && usageLine(usage.total, t)}
      {usage && usage.delegated.modelCalls > 0 && <span className="hint"> · {t.withDelegated}</span>}
    </p>
  );
}
