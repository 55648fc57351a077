import { ThreadContextDocument, type ThreadState } from '@parley/client';
import { useParleyQuery } from '@parley/client/react';
import { useEffect, useRef } from 'react';
import { useMessages } from './i18n.ts';
import { formatCount } from './usage-format.ts';

/** Where the meter turns to its warning colour: the agents' default compaction threshold (docs/compaction.md). */
const HIGH_SHARE = 0.8;

/**
 * How full the thread's context is: what the next model call would send against the agent's window
 * (Conversation.context). Read again whenever the thread is idle at a new durable event — a turn
 * ended (its model calls are recorded with its end), a compaction made or undone, another branch —
 * never while a reply streams. An agent without a window is not measured: no gauge.
 */
export function ContextGauge({ threadId, state }: { threadId: string; state: ThreadState }) {
  const t = useMessages();
  const read = useParleyQuery(ThreadContextDocument, { threadId });
  const { refetch } = read;
  const idleAt = state.activeExecutionId ? null : state.cursor;
  const readAt = useRef(idleAt);
  useEffect(() => {
    if (idleAt === null || idleAt === readAt.current) return;
    readAt.current = idleAt;
    void refetch();
  }, [idleAt, refetch]);
  const context = read.data?.conversation.context;
  if (!context || context.windowTokens == null) return null;
  const { usedTokens, windowTokens } = context;
  const label = t.contextUsed(formatCount(usedTokens, t), formatCount(windowTokens, t), Math.round((usedTokens / windowTokens) * 100));
  return (
    <p className="context-gauge" data-used={usedTokens} data-window={windowTokens}>
      <meter aria-label={t.contextGauge} min={0} max={windowTokens} value={Math.min(usedTokens, windowTokens)} high={windowTokens * HIGH_SHARE} optimum={0} />
      <span>{label}</span>
    </p>
  );
}
