-- Usage and prices: each model call with its tokens by kind and its cost; operators' prices per model.
-- CreateTable
CREATE TABLE "model_price" (
    "modelId" TEXT NOT NULL,
    "inputPerMillion" BIGINT NOT NULL,
    "outputPerMillion" BIGINT NOT NULL,
    "cachedInputPerMillion" BIGINT,
    "cacheWritePerMillion" BIGINT,
    "reasoningPerMillion" BIGINT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "model_price_pkey" PRIMARY KEY ("modelId")
);

-- CreateTable
CREATE TABLE "model_call" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "executionId" TEXT NOT NULL,
    "rootExecutionId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "cachedInputTokens" INTEGER NOT NULL,
    "cacheWriteTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "reasoningTokens" INTEGER NOT NULL,
    "cost" DECIMAL(30,12),
    "priceSource" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "model_call_projectId_createdAt_idx" ON "model_call"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "model_call_executionId_idx" ON "model_call"("executionId");

-- CreateIndex
CREATE INDEX "model_call_rootExecutionId_idx" ON "model_call"("rootExecutionId");

-- CreateIndex
CREATE INDEX "model_call_threadId_idx" ON "model_call"("threadId");

-- AddForeignKey
ALTER TABLE "model_call" ADD CONSTRAINT "model_call_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

