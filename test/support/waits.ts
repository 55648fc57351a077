import type { Execution, ExecutionStatus, PrismaClient } from '../../src/generated/prisma/client.ts';
import { conversation, execution, messagesOf, queue, type Conversation } from './client.ts';
import { eventually } from './server.ts';

// The waits every suite shares: for a thread to settle, and for a run to reach a status. CI runs
// the suites on two cores beside two CPU hogs, so a wait must be for a condition (polled with
// `eventually`), never for a time; and the reads that decide it must be ordered so that nothing
// can happen between them that makes the pair look idle. (A subscription's own wait for its first
// answer lives with its client: `Follower.ready`, `RawClient.firstAnswer`, `SseSubscription.firstAnswer`,
// `firstSubscriptionAnswer`.) docs/testing.md, "Tests on a loaded machine", says which to use when.

type Server = { url: string };

/** The statuses a run ends in; nothing changes it afterwards. */
export const ENDED: readonly ExecutionStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'REFUSED'];

export interface SettleOptions {
  /** What the thread's last reply must have ended with; 'ANY' accepts whatever it ended with. COMPLETED unless given. */
  outcome?: ExecutionStatus | 'ANY';
  timeoutMs?: number;
  /** Done before each look: answering a card that holds the thread, checking an invariant on the way. */
  eachPoll?: () => Promise<void>;
}

/**
 * The conversation once the thread runs nothing and has nothing queued (through the API).
 *
 * The queue is read first, the conversation after it: with the queue empty nothing can start, so a
 * conversation read afterwards that shows nothing active is settled for good. Read the other way
 * round, or together, an admission landing between the two reads passes for idle (nothing active
 * yet, the queue already empty) and the test reads a reply still running; that made CI red.
 *
 * A settled thread's last reply has its final outcome (a run's end is committed at once), so one
 * other than `outcome` fails here, saying what it was, instead of timing out.
 */
export async function settledConversation(server: Server, token: string, threadId: string, options: SettleOptions = {}): Promise<Conversation> {
  const { outcome = 'COMPLETED', timeoutMs = 30_000, eachPoll } = options;
  const state = await eventually(
    async () => {
      await eachPoll?.();
      if ((await queue(server, token, threadId)).items.length > 0) return null;
      const read = await conversation(server, token, threadId);
      return read.activeExecutionId === null && read;
    },
    timeoutMs,
    `thread ${threadId} to settle`,
  );
  const last = messagesOf(state).at(-1);
  if (outcome !== 'ANY' && last !== undefined && (last.role !== 'ASSISTANT' || last.outcome !== outcome)) {
    throw new Error(`thread ${threadId} settled with its last message ${last.role} ${last.outcome}, not a reply ${outcome}`);
  }
  return state;
}

/**
 * The id of the run the thread holds (RUNNING, or SUSPENDED on a card), once it has one: as soon
 * as a reloading client could see it (through the API). It may have ended by the time the caller
 * acts on it; follow the thread's events to see when it does.
 */
export function activeExecutionOf(server: Server, token: string, threadId: string, timeoutMs = 30_000): Promise<string> {
  return eventually(async () => (await conversation(server, token, threadId)).activeExecutionId, timeoutMs, `a run of thread ${threadId}`);
}

/**
 * The execution (through the API) once its status is one of `statuses`; with ENDED, once it has
 * ended however it did, so that the caller's assertion, not a timeout, says which end it was.
 */
export function executionReaching(
  server: Server,
  token: string,
  executionId: string,
  statuses: ExecutionStatus | readonly ExecutionStatus[],
  timeoutMs = 30_000,
): Promise<Awaited<ReturnType<typeof execution>>> {
  const wanted: readonly ExecutionStatus[] = typeof statuses === 'string' ? [statuses] : statuses;
  return eventually(
    async () => {
      const node = await execution(server, token, executionId);
      return wanted.includes(node.status) && node;
    },
    timeoutMs,
    `execution ${executionId} to be ${wanted.join(' or ')}`,
  );
}

export interface ExecutionRowOptions {
  /** Only the runs of this input. */
  acceptedText?: string;
  /** Only top-level runs, not a delegated child's. */
  topLevel?: boolean;
  /** Only runs that do (or do not) take steered messages now. */
  acceptsSteering?: boolean;
  /** How many rows to wait for; 1 unless given. */
  count?: number;
  timeoutMs?: number;
}

/**
 * The thread's execution rows (database thread id) whose status is one of `statuses`, oldest
 * first, once there are `count` of them. For the suites that already work on the database: runs of
 * child instances, or worlds written straight into it. An API suite waits through the API
 * (`activeExecutionOf`, `executionReaching`, or its follower's events) and so sees what a client sees.
 */
export function executionRowsReaching(
  prisma: PrismaClient,
  threadId: string,
  statuses: ExecutionStatus | readonly ExecutionStatus[],
  options: ExecutionRowOptions = {},
): Promise<Execution[]> {
  const { acceptedText, topLevel, acceptsSteering, count = 1, timeoutMs = 30_000 } = options;
  const wanted: ExecutionStatus[] = typeof statuses === 'string' ? [statuses] : [...statuses];
  const where = {
    threadId,
    status: { in: wanted },
    ...(acceptedText === undefined ? {} : { acceptedText }),
    ...(topLevel ? { parentExecutionId: null } : {}),
    ...(acceptsSteering === undefined ? {} : { acceptsSteering }),
  };
  return eventually(
    async () => {
      const rows = await prisma.execution.findMany({ where, orderBy: { createdAt: 'asc' } });
      return rows.length >= count && rows;
    },
    timeoutMs,
    `${count} execution(s) of thread ${threadId} ${wanted.join(' or ')}${acceptedText === undefined ? '' : ` for "${acceptedText}"`}`,
  );
}

/**
 * Waits until none of the threads (database ids) has a message queued or a run active, reading the
 * database as `settledConversation` reads the API: the queue first, then the active runs, one after
 * the other. Read in parallel, a run admitted between the two reads looks idle (its queue item
 * gone, the run not seen yet).
 */
export async function threadsSettledInDatabase(
  prisma: PrismaClient,
  threadIds: readonly string[],
  options: { timeoutMs?: number; eachPoll?: () => Promise<void> } = {},
): Promise<void> {
  const inThreads = { threadId: { in: [...threadIds] } };
  await eventually(
    async () => {
      await options.eachPoll?.();
      if ((await prisma.queueItem.count({ where: inThreads })) > 0) return false;
      return (await prisma.execution.count({ where: { ...inThreads, status: { in: ['RUNNING', 'SUSPENDED'] } } })) === 0;
    },
    options.timeoutMs ?? 30_000,
    `${threadIds.length} thread(s) to settle`,
  );
}
