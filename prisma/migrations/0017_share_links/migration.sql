-- CreateTable
CREATE TABLE "share_link" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "throughMessageId" TEXT NOT NULL,
    "includeAttachments" BOOLEAN NOT NULL DEFAULT false,
    "title" TEXT NOT NULL,
    "agentName" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "share_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "share_link_tokenHash_key" ON "share_link"("tokenHash");

-- CreateIndex
CREATE INDEX "share_link_threadId_createdAt_idx" ON "share_link"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "share_link_ownerId_idx" ON "share_link"("ownerId");

-- AddForeignKey
ALTER TABLE "share_link" ADD CONSTRAINT "share_link_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share_link" ADD CONSTRAINT "share_link_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

