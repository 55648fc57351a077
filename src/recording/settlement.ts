import { randomUUID } from 'node:crypto';
import type { MessagePart } from '../conversation/parts.ts';
import type { RecordedFailure } from '../errors/recorded-failure.ts';
import type { NewThreadEvent, ThreadEventPayload } from '../events/thread-event.ts';
import type { Checkpoint } from '../runtime/agent-runtime.ts';
import type { RunUsage } from '../runtime/runtime-event.ts';
import type { EndStatus, RunEnding } from './run-ending.ts';
import type { Contribution, RunState } from './run-listener.ts';

/** What the settlement reads under the thread's session lock before it writes. */
export interface SettlementFacts {
  /** The execution's status now; null when its row is gone with its thread. */
  status: string | null;
  /** Queue items are reserved for steering into it. */
  reserved: boolean;
  /** A message waits in the thread's queue. */
  queued: boolean;
  /** A Stop was recorded for it. */
  cancelRequested: boolean;
}

/** The card a suspension opens: what the user answers, and what the run goes on from. */
export interface SuspensionCard {
  id: string;
  kind: 'APPROVAL' | 'QUESTION';
  toolCallId: string;
  toolName: string;
  payload: unknown;
  checkpoint: Checkpoint;
}

/** Everything one run's end writes, in one statement (src/storage/settlement-statements.ts). */
export interface SettlementWrite {
  threadId: string;
  executionId: string;
  status: EndStatus;
  /** Null for a suspension: the turn goes on later. */
  finishedAt: Date | null;
  usage: RunUsage;
  failure: RecordedFailure | null;
  reply: { messageId: string; parts: MessagePart[] } | null;
  /** Reserved steering messages the run did not take go back to their places in the queue. */
  releaseReservations: boolean;
  /** Delegated children still running died with an interrupted run. */
  interruptChildren: boolean;
  card: SuspensionCard | null;
  /** Appended in this order. */
  events: NewThreadEvent[];
  at: Date;
}

/**
 * The ending as the settlement records it: someone else ended the run already (an interruption by
 * another instance, a Stop of a suspension) — null, nothing is written; a Stop recorded before a
 * suspension's end cancels it, since the user asked for it before the card could open.
 */
export function recordedEnding(ending: RunEnding, facts: SettlementFacts): RunEnding | null {
  if (facts.status !== 'RUNNING') return null;
  if (ending.status === 'SUSPENDED' && facts.cancelRequested) return { ...ending, status: 'CANCELLED', checkpoint: null };
  return ending;
}

/** What the end of `run` writes, from its recorded ending, the facts read under the lock and its listeners' contributions. */
export function settlementOf(
  ending: RunEnding,
  run: RunState,
  facts: SettlementFacts,
  contributions: readonly Contribution[],
  at: Date,
): SettlementWrite {
  const root = run.parentExecutionId === null;
  const event = (payload: ThreadEventPayload): NewThreadEvent => ({ executionId: run.executionId, parentExecutionId: run.parentExecutionId, payload });
  const card = ending.status === 'SUSPENDED' && ending.checkpoint ? cardOf(ending.checkpoint) : null;
  const releaseReservations = root && facts.reserved;
  const events: NewThreadEvent[] = [
    ...(card ? [event({ type: 'SuspensionOpened', suspensionId: card.id, kind: card.kind, toolCallId: card.toolCallId, payload: card.payload })] : []),
    ...contributions.flatMap((contribution) => contribution.events ?? []),
    ...(releaseReservations ? [{ executionId: null, payload: { type: 'QueueUpdated' as const } }] : []),
    ...(ending.failure ? [event({ type: 'ErrorEvent', ...ending.failure })] : []),
    // ExecutionFinished ends a turn of the thread; a suspension (the turn goes on later) and a
    // delegated child's end are updates.
    event(root && ending.status !== 'SUSPENDED' ? { type: 'ExecutionFinished', status: ending.status } : { type: 'ExecutionUpdated', status: ending.status }),
  ];
  return {
    threadId: run.threadId,
    executionId: run.executionId,
    status: ending.status,
    finishedAt: ending.status === 'SUSPENDED' ? null : at,
    usage: ending.usage,
    failure: ending.failure,
    reply: contributions.findLast((contribution) => contribution.reply)?.reply ?? null,
    releaseReservations,
    interruptChildren: root && ending.status === 'INTERRUPTED',
    card,
    events,
    at,
  };
}

/** Whether, once this end is committed, a message waits for the thread's next turn (a suspended turn keeps the thread busy). */
export function nextTurnQueued(ending: RunEnding | null, facts: SettlementFacts): boolean {
  // Ended by someone else: whoever did kicked the thread, and another try costs one read.
  if (ending === null) return true;
  return ending.status !== 'SUSPENDED' && (facts.queued || facts.reserved);
}

function cardOf(checkpoint: Checkpoint): SuspensionCard {
  const { pending } = checkpoint;
  return {
    id: randomUUID(),
    kind: pending.kind,
    toolCallId: pending.toolCallId,
    toolName: pending.toolName,
    payload: pending.card ?? pending.input ?? {},
    checkpoint,
  };
}
