import { Prisma, type Agent } from '../generated/prisma/client.ts';

/** An agent's columns in a raw statement, each prefixed `agent` (the statement's `a` is the agent table). */
export const AGENT_COLUMNS = Prisma.sql`
  a."id" AS "agentId", a."projectId" AS "agentProjectId", a."name" AS "agentName", a."model" AS "agentModel",
  a."systemPrompt" AS "agentSystemPrompt", a."tools" AS "agentTools",
  a."maxConcurrentExecutions" AS "agentMaxConcurrentExecutions", a."dailyTokenBudget" AS "agentDailyTokenBudget",
  a."toolApprovals" AS "agentToolApprovals",
  a."contextWindowTokens" AS "agentContextWindowTokens", a."compactAtPercent" AS "agentCompactAtPercent",
  a."compactKeptTurns" AS "agentCompactKeptTurns", a."compactionModel" AS "agentCompactionModel",
  a."createdAt" AS "agentCreatedAt", a."updatedAt" AS "agentUpdatedAt"`;

export interface AgentRow {
  agentId: string;
  agentProjectId: string;
  agentName: string;
  agentModel: string;
  agentSystemPrompt: string;
  agentTools: string[];
  agentMaxConcurrentExecutions: number | null;
  agentDailyTokenBudget: number | null;
  agentToolApprovals: Prisma.JsonValue;
  agentContextWindowTokens: number | null;
  agentCompactAtPercent: number;
  agentCompactKeptTurns: number;
  agentCompactionModel: string | null;
  agentCreatedAt: Date;
  agentUpdatedAt: Date;
}

/** The Agent a row selected with AGENT_COLUMNS holds, as Prisma would return it. */
export function agentOf(row: AgentRow): Agent {
  return {
    id: row.agentId,
    projectId: row.agentProjectId,
    name: row.agentName,
    model: row.agentModel,
    systemPrompt: row.agentSystemPrompt,
    tools: row.agentTools,
    maxConcurrentExecutions: row.agentMaxConcurrentExecutions,
    dailyTokenBudget: row.agentDailyTokenBudget,
    toolApprovals: row.agentToolApprovals,
    contextWindowTokens: row.agentContextWindowTokens,
    compactAtPercent: row.agentCompactAtPercent,
    compactKeptTurns: row.agentCompactKeptTurns,
    compactionModel: row.agentCompactionModel,
    createdAt: row.agentCreatedAt,
    updatedAt: row.agentUpdatedAt,
  };
}
