-- Tool servers (MCP) of a project, agents' approval policies for their tools, and the tools a
-- thread's user allowed without asking again.
-- AlterTable
ALTER TABLE "agent" ADD COLUMN     "toolApprovals" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "tool_server" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "headerNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "headersEncrypted" TEXT,
    "timeoutMs" INTEGER,
    "tools" JSONB NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'UNAVAILABLE',
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tool_server_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread_tool_allowance" (
    "threadId" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "thread_tool_allowance_pkey" PRIMARY KEY ("threadId","tool")
);

-- CreateIndex
CREATE UNIQUE INDEX "tool_server_projectId_name_key" ON "tool_server"("projectId", "name");

-- AddForeignKey
ALTER TABLE "tool_server" ADD CONSTRAINT "tool_server_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "thread_tool_allowance" ADD CONSTRAINT "thread_tool_allowance_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

