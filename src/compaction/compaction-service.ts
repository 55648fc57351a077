import type { PrismaClient, User } from '../generated/prisma/client.ts';
import type { AccessPolicy } from '../auth/access.ts';
import { ConflictError, InvalidInputError } from '../domain/errors.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { WindowSetting } from '../models/model-context.ts';
import { turnPath, type TurnPathRow } from '../storage/run-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { CallTokens } from '../runtime/runtime-event.ts';
import type { CompactionPart, MessagePart } from '../conversation/parts.ts';
import { activeCompaction, compactedView, HISTORY_MESSAGES } from './compacted-view.ts';
import { compactionRange } from './compaction-plan.ts';
import { compact, measure, recordCompaction, type CompactionAgent } from './compactor.ts';
import { promptTextsOf, summaryText } from './path-tokens.ts';

/** No execution has this id: `turnPath` then reads the path to the thread's active leaf. */
export const NO_EXECUTION = '00000000-0000-0000-0000-000000000000';

/** How full a thread's context is (Conversation.context). */
export interface ThreadContext {
  usedTokens: number;
  windowTokens: number | null;
  /** The last message the summary in force replaces; null when the path is not compacted. */
  compactedThrough: string | null;
}

export interface CompactionServiceDeps {
  prisma: PrismaClient;
  sql: SqlClient;
  models: ModelRegistry;
  bus: LiveBus;
  access: Pick<AccessPolicy, 'thread'>;
  /** Records a model call no run made (a summary by hand) as usage, as a run's calls are. */
  recordCall: (agent: CompactionAgent, call: { threadId: string; userId: string; tokens: CallTokens }) => Promise<void>;
}

/** Measures threads against their agent's context window, and compacts them by hand (docs/compaction.md). */
export class CompactionService {
  constructor(private readonly deps: CompactionServiceDeps) {}

  contextWindowOf(agent: WindowSetting): Promise<number | null> {
    return this.deps.models.context.windowOf(agent);
  }

  /**
   * What the next call would send, in tokens: the input the provider reported for the thread's last
   * model call plus an estimate of what was added after it (its reply and anything since); an
   * estimate of the whole when the path changed under it (compacted, undone, another branch).
   * The caller has checked the reader's access.
   */
  async contextOf(threadId: string): Promise<ThreadContext> {
    const { prisma, sql, models } = this.deps;
    const thread = await prisma.thread.findUniqueOrThrow({ where: { id: threadId }, include: { agent: true } });
    const path = await turnPath(sql, threadId, NO_EXECUTION, HISTORY_MESSAGES);
    const view = compactedView(path);
    const lastCall = await prisma.modelCall.findFirst({
      where: { threadId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { rootExecutionId: true, inputTokens: true, createdAt: true },
    });
    const estimate = (rows: readonly TurnPathRow[]) => models.context.estimate(thread.agent.model, rows.flatMap(promptTextsOf));
    const replyIndex = lastCall && !changedSince(path, lastCall.createdAt) ? view.rows.findLastIndex((row) => row.role === 'ASSISTANT' && row.executionId === lastCall.rootExecutionId) : -1;
    const usedTokens =
      replyIndex >= 0
        ? lastCall!.inputTokens + (await estimate(view.rows.slice(replyIndex)))
        : (await models.context.estimate(thread.agent.model, [thread.agent.systemPrompt, ...(view.summary ? [summaryText(view.summary.summary)] : [])])) +
          (await estimate(view.rows));
    return {
      usedTokens,
      windowTokens: await models.context.windowOf(thread.agent),
      compactedThrough: view.summary?.throughMessageId ?? null,
    };
  }

  // Compaction by hand: one thread's, when no run is active on it.

  /** Summarises all but the kept turns now, as a turn past its threshold would. */
  async compactThread(user: User, threadId: string): Promise<CompactionPart> {
    const { thread, path } = await this.idleThread(user, threadId);
    const agent = thread.agent;
    const windowTokens = await this.deps.models.context.windowOf(agent);
    const range = compactionRange(compactedView(path).rows, agent.compactKeptTurns);
    if (!range) throw new ConflictError(`Nothing to compact: the thread has no more than its ${agent.compactKeptTurns} kept turns since its last summary.`);
    const kept = compactedView(path).rows.slice(range.keptFrom);
    const keptTokens = await this.deps.models.context.estimate(agent.model, [agent.systemPrompt, ...kept.flatMap(promptTextsOf)]);
    if (windowTokens !== null && keptTokens > windowTokens) {
      throw new InvalidInputError(
        'threadId',
        `the ${agent.compactKeptTurns} kept turns alone take about ${keptTokens} tokens, more than the agent's window of ${windowTokens}: lower its compaction.keptTurns or raise its contextWindowTokens.`,
      );
    }
    const done = await compact(this.deps, agent, thread.id, path, {
      executionId: null,
      byHand: { leafMessageId: thread.activeLeafMessageId },
      onModelCall: (tokens) => this.deps.recordCall(agent, { threadId: thread.id, userId: user.id, tokens }),
    });
    if (!done) throw new ConflictError('Nothing to compact: not even the oldest turn fits a summary request in the window.');
    return done.part;
  }

  /** The summary in force undone: the next call sends the messages it replaced, when they fit under the threshold. */
  async uncompactThread(user: User, threadId: string): Promise<CompactionPart> {
    const { thread, path } = await this.idleThread(user, threadId);
    const active = activeCompaction(path);
    if (!active) throw new ConflictError('Nothing to uncompact: no summary is in force on the active branch.');
    const holder = path[active.holderIndex]!;
    const at = new Date();
    const undone: CompactionPart = { ...active.part, undone: true, undoneAt: at.toISOString() };
    const parts = (holder.parts as MessagePart[]).map((part) => (part === active.part ? undone : part));
    const after = path.map((row) => (row === holder ? { ...row, parts } : row));
    const measured = await measure(this.deps.models, thread.agent, after);
    if (measured.threshold !== null && measured.tokens > measured.threshold) {
      throw new ConflictError(
        `The original messages do not fit: about ${measured.tokens} tokens, past the agent's threshold of ${measured.threshold} (its window is ${measured.windowTokens}); the next call would compact them again.`,
      );
    }
    const basis = { holderParts: holder.parts, byHand: { leafMessageId: thread.activeLeafMessageId } };
    await recordCompaction(this.deps, thread.id, holder.id, parts, null, { messageId: holder.id, throughMessageId: undone.throughMessageId, undone: true }, at, basis);
    return undone;
  }

  private async idleThread(
    user: User,
    threadId: string,
  ): Promise<{ thread: { id: string; activeLeafMessageId: string | null; agent: CompactionAgent }; path: TurnPathRow[] }> {
    const thread = await this.deps.access.thread(user, threadId, 'agent:execute');
    const active = await this.deps.prisma.execution.findFirst({
      where: { threadId: thread.id, parentExecutionId: null, status: { in: ['RUNNING', 'SUSPENDED'] } },
      select: { id: true },
    });
    if (active) throw new ConflictError('A run is active on this thread: wait for it to end, or stop it, first.');
    return { thread, path: await turnPath(this.deps.sql, thread.id, NO_EXECUTION, HISTORY_MESSAGES) };
  }
}

/** Whether a compaction on the path was made or undone after that moment. */
function changedSince(path: readonly TurnPathRow[], moment: Date): boolean {
  const changedAt = (part: CompactionPart) => Math.max(Date.parse(part.createdAt), part.undoneAt ? Date.parse(part.undoneAt) : 0);
  return path.some((row) => (row.parts as MessagePart[]).some((part) => part.type === 'compaction' && changedAt(part) > moment.getTime()));
}
