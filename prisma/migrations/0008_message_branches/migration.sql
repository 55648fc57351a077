-- Messages form a tree and a thread shows one path of it, root to activeLeafMessageId.
-- AlterTable
ALTER TABLE "thread" ADD COLUMN     "activeLeafMessageId" TEXT,
ADD COLUMN     "lastActivityAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "message" ADD COLUMN     "activeSeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "parentId" TEXT;

-- AlterTable
ALTER TABLE "queue_item" ADD COLUMN     "siblingOfMessageId" TEXT;

-- CreateIndex
CREATE INDEX "thread_agentId_lastActivityAt_idx" ON "thread"("agentId", "lastActivityAt");

-- CreateIndex
CREATE INDEX "message_threadId_parentId_idx" ON "message"("threadId", "parentId");

-- Existing threads become one straight path: each message follows the previous one of its thread.
UPDATE "message" m SET "parentId" = previous."parentId"
FROM (
  SELECT "id", lag("id") OVER (PARTITION BY "threadId" ORDER BY "seq") AS "parentId" FROM "message"
) previous
WHERE previous."id" = m."id" AND previous."parentId" IS NOT NULL;

UPDATE "thread" t SET "activeLeafMessageId" = last."id", "lastActivityAt" = GREATEST(t."updatedAt", last."createdAt")
FROM (
  SELECT DISTINCT ON ("threadId") "threadId", "id", "createdAt" FROM "message" ORDER BY "threadId", "seq" DESC
) last
WHERE last."threadId" = t."id";

UPDATE "thread" SET "lastActivityAt" = "updatedAt" WHERE "activeLeafMessageId" IS NULL;
