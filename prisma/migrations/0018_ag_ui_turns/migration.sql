-- AlterEnum
ALTER TYPE "SuspensionKind" ADD VALUE 'CLIENT_TOOL';

-- CreateTable
CREATE TABLE "ag_ui_turn" (
    "threadId" TEXT NOT NULL,
    "messageKey" TEXT NOT NULL,
    "tools" JSONB NOT NULL DEFAULT '[]',
    "context" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ag_ui_turn_pkey" PRIMARY KEY ("threadId","messageKey")
);

-- AddForeignKey
ALTER TABLE "ag_ui_turn" ADD CONSTRAINT "ag_ui_turn_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

