import type { Agent } from '../generated/prisma/client.ts';
import { classify } from '../errors/classify.ts';
import { ReasonedError } from '../errors/taxonomy.ts';
import type { CompactionPart, MessagePart } from '../conversation/parts.ts';
import { eventRecords, firstSeqOf } from '../events/event-log.ts';
import type { LiveBus } from '../events/live-bus.ts';
import type { ModelRegistry } from '../models/registry.ts';
import type { CallTokens } from '../runtime/runtime-event.ts';
import { ConflictError } from '../domain/errors.ts';
import { writeCompactionIfUnchanged, type CompactionBasis } from '../storage/compaction-statements.ts';
import type { TurnPathRow } from '../storage/run-statements.ts';
import type { SqlClient } from '../storage/sql-client.ts';
import { compactedView } from './compacted-view.ts';
import { attachmentReferences, compactionRange } from './compaction-plan.ts';
import { promptTextsOf, summaryText } from './path-tokens.ts';
import { writeSummary } from './summariser.ts';
import { SUMMARY_INSTRUCTIONS, SUMMARY_REQUEST } from '../models/summary-request.ts';

export interface CompactorDeps {
  sql: SqlClient;
  models: ModelRegistry;
  bus: LiveBus;
}

export type CompactionAgent = Pick<
  Agent,
  'id' | 'projectId' | 'model' | 'systemPrompt' | 'contextWindowTokens' | 'compactAtPercent' | 'compactKeptTurns' | 'compactionModel'
>;

/** Where a compaction happens: a turn's run (its model call is the run's usage), or a request by hand. */
export interface CompactionOccasion {
  executionId: string | null;
  /** By hand: the thread's active leaf when its path was read (the write is refused if it moved, or a run started). */
  byHand?: { leafMessageId: string | null };
  /** Hears the summary's model call, as a run's usage recorder does. */
  onModelCall?: (tokens: CallTokens) => Promise<void>;
  signal?: AbortSignal;
}

/** A path measured against its agent's window: what the next call would send, estimated. */
export async function measure(models: ModelRegistry, agent: CompactionAgent, path: readonly TurnPathRow[]) {
  const view = compactedView(path);
  const texts = [agent.systemPrompt, ...(view.summary ? [summaryText(view.summary.summary)] : []), ...view.rows.flatMap(promptTextsOf)];
  const [tokens, windowTokens] = await Promise.all([models.context.estimate(agent.model, texts), models.context.windowOf(agent)]);
  return { view, tokens, windowTokens, threshold: windowTokens === null ? null : Math.floor((windowTokens * agent.compactAtPercent) / 100) };
}

/**
 * Before a turn's model call: when what it would send passes the agent's threshold, the oldest part
 * is summarised first (once: the turn reads its history once). Returns the path as the call sees it.
 */
export async function compactIfNeeded(
  deps: CompactorDeps,
  agent: CompactionAgent,
  threadId: string,
  path: TurnPathRow[],
  occasion: CompactionOccasion,
): Promise<TurnPathRow[]> {
  // An agent without a window is never measured (nor is a tokenizer loaded for it).
  if ((await deps.models.context.windowOf(agent)) === null) return path;
  const measured = await measure(deps.models, agent, path);
  if (measured.threshold === null || measured.tokens <= measured.threshold) return path;
  return (await compact(deps, agent, threadId, path, occasion))?.path ?? path;
}

/**
 * Summarises all but the kept turns of the path's unsummarised part into a CompactionPart on the
 * first kept message, with its ThreadCompacted event, in one statement. Null when nothing is left
 * to replace.
 */
export async function compact(
  deps: CompactorDeps,
  agent: CompactionAgent,
  threadId: string,
  path: TurnPathRow[],
  occasion: CompactionOccasion,
): Promise<{ path: TurnPathRow[]; part: CompactionPart } | null> {
  const { view, windowTokens } = await measure(deps.models, agent, path);
  const range = compactionRange(view.rows, agent.compactKeptTurns);
  if (!range) return null;
  const keptFrom = await fittingRange(deps.models, agent, view, range.keptFrom, windowTokens);
  if (keptFrom === null) return null;
  const replaced = view.rows.slice(0, keptFrom);
  const holder = view.rows[keptFrom]!;
  const modelId = agent.compactionModel ?? agent.model;
  const written = await writeSummary({
    model: deps.models.resolve(modelId),
    windowTokens,
    previous: view.summary,
    rows: replaced,
    signal: occasion.signal,
  }).catch((error: unknown) => {
    throw summaryFailure(error, deps.models.providerName(modelId), occasion.signal);
  });
  await occasion.onModelCall?.(written.tokens);
  const references = attachmentReferences(replaced);
  const summary = references.length > 0 ? `${written.text}\nAttachments sent earlier: ${references.join('; ')}` : written.text;
  const at = new Date();
  const part: CompactionPart = {
    type: 'compaction',
    summary,
    firstMessageId: replaced[0]!.id,
    throughMessageId: replaced.at(-1)!.id,
    replacedMessages: replaced.length,
    model: modelId,
    inputTokens: written.tokens.inputTokens,
    outputTokens: written.tokens.outputTokens,
    replacedTokens: await deps.models.context.estimate(agent.model, replaced.flatMap(promptTextsOf)),
    summaryTokens: await deps.models.context.estimate(agent.model, [summaryText(summary)]),
    createdAt: at.toISOString(),
    undone: false,
  };
  const parts = [...(holder.parts as MessagePart[]), part];
  const basis = { holderParts: holder.parts, byHand: occasion.byHand ?? null };
  await recordCompaction(deps, threadId, holder.id, parts, occasion.executionId, { messageId: holder.id, throughMessageId: part.throughMessageId, undone: false }, at, basis);
  return { path: path.map((row) => (row.id === holder.id ? { ...row, parts } : row)), part };
}

/**
 * A message's parts with a compaction made or undone, and its ThreadCompacted event: written, then
 * published; a ConflictError, nothing written, when the thread moved on since it was read (`basis`).
 */
export async function recordCompaction(
  deps: Pick<CompactorDeps, 'sql' | 'bus'>,
  threadId: string,
  holderMessageId: string,
  parts: readonly MessagePart[],
  executionId: string | null,
  event: { messageId: string; throughMessageId: string; undone: boolean },
  at: Date,
  basis: CompactionBasis,
): Promise<void> {
  const events = [{ executionId, payload: { type: 'ThreadCompacted' as const, ...event } }];
  const firstSeq = await writeCompactionIfUnchanged(deps.sql, threadId, holderMessageId, JSON.stringify(parts), events, at, basis);
  if (firstSeq === null) {
    throw new ConflictError('The thread changed while it was being summarised (a run started, or its path or summary moved on): nothing was compacted. Try again.');
  }
  deps.bus.publishThreadEvents(eventRecords(threadId, firstSeqOf(threadId, firstSeq), at, events));
}

/**
 * The summary request must fit the window itself: when all of the range would not, its oldest turns
 * that do are summarised (the next turn summarises on from there). Null when not even one turn fits.
 */
async function fittingRange(
  models: ModelRegistry,
  agent: CompactionAgent,
  view: ReturnType<typeof compactedView<TurnPathRow>>,
  keptFrom: number,
  windowTokens: number | null,
): Promise<number | null> {
  if (windowTokens === null) return keptFrom;
  const fixed = [SUMMARY_INSTRUCTIONS, SUMMARY_REQUEST, ...(view.summary ? [summaryText(view.summary.summary)] : [])];
  const modelId = agent.compactionModel ?? agent.model;
  for (let end = keptFrom; end > 0; end--) {
    if (view.rows[end]!.role !== 'USER') continue;
    const tokens = await models.context.estimate(modelId, [...fixed, ...view.rows.slice(0, end).flatMap(promptTextsOf)]);
    if (tokens <= windowTokens) return end;
  }
  return null;
}

/** A summary that could not be written fails the turn with its provider's reason (CONTEXT_LENGTH, RATE_LIMIT, …), said as such. */
function summaryFailure(error: unknown, provider: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return error;
  const { detail: _detail, ...failure } = classify(error, { provider });
  return new ReasonedError({ ...failure, message: `Summarising the thread before the model call failed: ${(error as Error)?.message ?? String(error)}`, cause: error });
}
