import type { PrismaClient } from '../generated/prisma/client.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { WindowSetting } from '../models/model-context.ts';
import { turnPath, type TurnPathRow } from '../storage/run-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import type { CompactionPart, MessagePart } from '../conversation/parts.ts';
import { compactedView, HISTORY_MESSAGES } from './compacted-view.ts';
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
}

/** Whether a compaction on the path was made or undone after that moment. */
function changedSince(path: readonly TurnPathRow[], moment: Date): boolean {
  const changedAt = (part: CompactionPart) => Math.max(Date.parse(part.createdAt), part.undoneAt ? Date.parse(part.undoneAt) : 0);
  return path.some((row) => (row.parts as MessagePart[]).some((part) => part.type === 'compaction' && changedAt(part) > moment.getTime()));
}
