import { Prisma, type ProjectRole, type Thread } from '../generated/prisma/client.ts';
import { AGENT_COLUMNS, type AgentRow } from './agent-row.ts';
import type { SqlRunner } from './sql-client.ts';

export interface ThreadAccessRow extends AgentRow {
  id: string;
  /** A question card of the thread waits for the user's answer. */
  openQuestion: boolean;
  ownerId: string;
  kind: Thread['kind'];
  title: string;
  lastEventSeq: number;
  queueTailPosition: number;
  activeLeafMessageId: string | null;
  lastActivityAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** The user's role in the agent's project. */
  role: ProjectRole;
}

/**
 * One joined statement: the thread, its agent and the user's role in the agent's project, if the
 * user is a member and the thread is shared or theirs; and whether a question card is open.
 */
export async function threadAccess(db: SqlRunner, userId: string, threadId: string): Promise<ThreadAccessRow | null> {
  const [row] = await db.query<ThreadAccessRow>(Prisma.sql`
    SELECT t."id", t."ownerId", t."kind"::text AS "kind", t."title", t."lastEventSeq", t."queueTailPosition",
           t."activeLeafMessageId", t."lastActivityAt", t."createdAt", t."updatedAt", m."role"::text AS "role", ${AGENT_COLUMNS},
           EXISTS (SELECT 1 FROM "suspension" s WHERE s."threadId" = t."id" AND s."status" = 'OPEN' AND s."kind" = 'QUESTION') AS "openQuestion"
    FROM "thread" t
    JOIN "agent" a ON a."id" = t."agentId"
    JOIN "membership" m ON m."projectId" = a."projectId" AND m."userId" = ${userId}
    WHERE t."id" = ${threadId} AND (t."kind" = 'SHARED' OR t."ownerId" = ${userId})`);
  return row ?? null;
}
