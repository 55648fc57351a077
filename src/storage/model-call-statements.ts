import { Prisma } from '../generated/prisma/client.ts';
import type { SqlRunner, Statement } from './sql-client.ts';

/** One model call to record: who it was for, its tokens by kind, and its cost (null: the model had no price). */
export interface ModelCallToWrite {
  id: string;
  projectId: string;
  threadId: string;
  executionId: string;
  rootExecutionId: string;
  agentId: string;
  userId: string;
  modelId: string;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** An exact decimal amount of the currency ("0.000125000000"), or null. */
  cost: string | null;
  priceSource: string | null;
  at: Date;
}

/**
 * The insert as a common table expression, `recorded_calls`, for the settlement to write with its
 * one statement (and a boundary to write alone). Rows cross as one JSON array, so the statement's
 * shape does not depend on how many calls there are.
 */
export function modelCallInsertCte(calls: readonly ModelCallToWrite[]): Statement {
  const rows = JSON.stringify(calls.map((call) => ({ ...call, at: call.at.toISOString() })));
  return Prisma.sql`recorded_calls AS (
      INSERT INTO "model_call" ("id", "projectId", "threadId", "executionId", "rootExecutionId", "agentId", "userId", "modelId",
        "inputTokens", "cachedInputTokens", "cacheWriteTokens", "outputTokens", "reasoningTokens", "cost", "priceSource", "createdAt")
      SELECT c."id", c."projectId", c."threadId", c."executionId", c."rootExecutionId", c."agentId", c."userId", c."modelId",
        c."inputTokens", c."cachedInputTokens", c."cacheWriteTokens", c."outputTokens", c."reasoningTokens", c."cost"::numeric(30, 12),
        c."priceSource", (c."at"::timestamptz AT TIME ZONE 'UTC')::timestamp(3)
      FROM jsonb_to_recordset(${rows}::jsonb) AS c("id" text, "projectId" text, "threadId" text, "executionId" text,
        "rootExecutionId" text, "agentId" text, "userId" text, "modelId" text, "inputTokens" int, "cachedInputTokens" int,
        "cacheWriteTokens" int, "outputTokens" int, "reasoningTokens" int, "cost" text, "priceSource" text, "at" text)
      RETURNING 1
    )`;
}

/** One statement: model calls of a run recorded before its end (at a boundary between its requests). */
export async function insertModelCalls(db: SqlRunner, calls: readonly ModelCallToWrite[]): Promise<void> {
  if (calls.length === 0) return;
  await db.query(Prisma.sql`WITH ${modelCallInsertCte(calls)} SELECT count(*)::int AS "recorded" FROM recorded_calls`);
}
